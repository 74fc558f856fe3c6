/**
 * The batch ZIP streams: its entries are pulled from R2 only as the archive reaches them, so a batch far larger
 * than a Worker's 128 MB streams through with flat memory. Measured on the workerd process itself
 * (memory-probe.ts), not assumed.
 */
import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import { body, call, newAccount } from "./helpers.ts";

const MiB = 1024 * 1024;
/** Outputs of the large batch: 8 MiB each, 480 MiB in all (a Worker has 128 MB). */
const N = 60;

/** A finished batch of `n` jobs whose outputs all point at one R2 object of `bytes` (expired where told). */
const seedFinishedBatch = async (
  n: number,
  bytes: number,
  expired: (i: number) => boolean = () => false,
  nameOf: (i: number) => string = (i) => (i === 2 || i === 3 ? "same" : `card/${i}`),
) => {
  const { key, userId } = await newAccount();
  const storageKey = `output/test/${userId}/big.png`;
  const data = new Uint8Array(bytes);
  for (let at = 0; at < bytes; at += 65536)
    crypto.getRandomValues(data.subarray(at, Math.min(bytes, at + 65536)));
  await env.FILES.put(storageKey, data);
  const batchId = `bat_zip${crypto.randomUUID().slice(0, 8)}`;
  const now = Date.now();
  const statements = [
    env.DB.prepare(
      `INSERT INTO batches (id, user_id, template_id, status, mode, name_column, total_rows, feed_window, rejected,
         ended_at, created_at, updated_at)
       VALUES (?1, ?2, 'tpl_x', 'COMPLETED', 'all-or-nothing', 'name', ?3, 3, '[{"row":${n + 1},"name":"bad","errors":[{"field":"bg","message":"bg must be a hex colour","code":"TYPE_MISMATCH"}]}]', ?4, ?4, ?4)`,
    ).bind(batchId, userId, n + 1, now),
  ];
  for (let i = 1; i <= n; i++) {
    const jobId = `job_${batchId}_${i}`;
    const fileId = `file${batchId}${i}`;
    statements.push(
      env.DB.prepare(
        `INSERT INTO media_files (id, user_id, filename, original_name, mime_type, size, storage_key, storage_url,
           category, metadata, source, job_id, expires_at, created_at, updated_at)
         VALUES (?1, ?2, 'big.png', 'big.png', 'image/png', ?3, ?4, ?5, 'image', '{}', 'output', ?6, ?7, ?8, ?8)`,
      ).bind(
        fileId,
        userId,
        bytes,
        storageKey,
        `/output/test/${batchId}/${i}.png`,
        jobId,
        expired(i) ? now - 1 : now + 3600_000,
        now,
      ),
      env.DB.prepare(
        `INSERT INTO jobs (id, user_id, type, status, config, input_file_ids, output_format, output_file_id,
           tokens_reserved, tokens_used, priority, attempts, batch_id, batch_row, batch_name, created_at, updated_at)
         VALUES (?1, ?2, 'IMAGE', 'COMPLETED', '{}', '[]', 'png', ?3, 0, 3, 5, 1, ?4, ?5, ?6, ?7, ?7)`,
      ).bind(jobId, userId, fileId, batchId, i, nameOf(i), now),
    );
  }
  await env.DB.batch(statements);
  return { key, batchId };
};

const probe = async (what: "start" | "stop") =>
  (await (await fetch(`${inject("memoryProbe")}/${what}`, { method: "POST" })).json()) as {
    baseline: number;
    peak: number;
  };

describe("the batch ZIP", () => {
  it(
    "streams 480 MiB of outputs without holding them (memory measured on workerd)",
    // What it measures is memory, not time: 480 MiB through workerd took over 180 s at a load average of 18.
    { timeout: 480_000 },
    async () => {
      const { key, batchId } = await seedFinishedBatch(N, 8 * MiB);
      // Control: the same N objects read straight from the local R2 and dropped, no ZIP, no Worker route.
      const object = (await env.DB.prepare("SELECT storage_key AS k FROM media_files WHERE job_id LIKE ?")
        .bind(`job_${batchId}_%`)
        .first<{ k: string }>())!.k;
      await probe("start");
      for (let i = 0; i < N; i++) {
        const reader = (await env.FILES.get(object))!.body.getReader();
        while (!(await reader.read()).done);
      }
      const control = await probe("stop");
      const controlGrew = (control.peak - control.baseline) / MiB;
      await probe("start");
      const res = await call(`/api/v2/batches/${batchId}/output`, { headers: { "x-api-key": key } });
      expect(res.status).toBe(200);
      const reader = res.body!.getReader();
      let total = 0;
      // Keep only the end of the archive (its central directory) to check it: the last chunks that cover 64 KiB
      // (not a copy of them per chunk, which made this test spend most of its time allocating).
      const last: Uint8Array[] = [];
      let kept = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        total += value.byteLength;
        last.push(value);
        kept += value.byteLength;
        while (kept - last[0]!.byteLength >= 64 * 1024) kept -= last.shift()!.byteLength;
      }
      const tail = new Uint8Array(kept);
      last.reduce((at, chunk) => (tail.set(chunk, at), at + chunk.byteLength), 0);
      const { baseline, peak } = await probe("stop");
      const grew = (peak - baseline) / MiB;
      console.log(
        JSON.stringify({
          zipMiB: +(total / MiB).toFixed(1),
          workerdBaselineMiB: +(baseline / MiB).toFixed(1),
          zipPeakGrowthMiB: +grew.toFixed(1),
          rawR2ReadPeakGrowthMiB: +controlGrew.toFixed(1),
        }),
      );
      expect(total).toBeGreaterThan(N * 8 * MiB);
      // RSS follows the garbage collector's pace, so it grows while bytes flow (the raw reads too: a collector
      // that falls behind on a loaded machine let it grow 259 MiB once); but a ZIP held in memory would grow it by
      // the archive's size at least. It stays well under that.
      expect(grew).toBeLessThan((total / MiB) * 0.8);
      // The end-of-central-directory record counts every entry.
      const view = new DataView(tail.buffer);
      let eocd = -1;
      for (let i = tail.byteLength - 22; i >= 0; i--)
        if (view.getUint32(i, true) === 0x06054b50) {
          eocd = i;
          break;
        }
      expect(eocd).toBeGreaterThanOrEqual(0);
      expect(view.getUint16(eocd + 10, true)).toBe(N);
    },
  );

  it("names entries by the name column, made safe and unique, leaves expired outputs out, and lists all in the manifest", async () => {
    const { key, batchId } = await seedFinishedBatch(4, 1024, (i) => i === 4);
    const { unzipSync } = await import("fflate");
    const res = await call(`/api/v2/batches/${batchId}/output`, { headers: { "x-api-key": key } });
    expect(res.status).toBe(200);
    const names = Object.keys(unzipSync(new Uint8Array(await res.arrayBuffer()))).sort();
    expect(names).toEqual(["card_1.png", "same-row-3.png", "same.png"]);
    const manifest = await body<{
      entries: { row: number; status: string; zipEntry: string | null; error: string | null }[];
    }>(await call(`/api/v2/batches/${batchId}/manifest`, { headers: { "x-api-key": key } }));
    expect(manifest.data!.entries.map((e) => [e.row, e.status, e.zipEntry])).toEqual([
      [1, "COMPLETED", "card_1.png"],
      [2, "COMPLETED", "same.png"],
      [3, "COMPLETED", "same-row-3.png"],
      [4, "COMPLETED", null],
      [5, "REJECTED", null],
    ]);
    expect(manifest.data!.entries[4]!.error).toBe("bg: bg must be a hex colour");
  });

  it("drops bidirectional overrides and invisible format characters from entry names, replaces controls, keeps the rest", async () => {
    const names = [
      "invoice\u202Egnp.exe",
      "a\u2066b\u2067c\u2068d\u2069e\u202A\u202B\u202C\u202D\u200E\u200F\u061C",
      "c1\u0085\u009Bx",
      "Café שלום 👩\u200D💻",
    ];
    const { key, batchId } = await seedFinishedBatch(
      names.length,
      64,
      () => false,
      (i) => names[i - 1]!,
    );
    const { unzipSync } = await import("fflate");
    const res = await call(`/api/v2/batches/${batchId}/output`, { headers: { "x-api-key": key } });
    expect(res.status).toBe(200);
    const entries = Object.keys(unzipSync(new Uint8Array(await res.arrayBuffer())));
    expect(entries).toEqual(["invoicegnp.exe.png", "abcde.png", "c1_x.png", "Café שלום 👩\u200D💻.png"]);
  });

  it("answers 410 once every output has expired", async () => {
    const { key, batchId } = await seedFinishedBatch(2, 1024, () => true);
    const res = await call(`/api/v2/batches/${batchId}/output`, { headers: { "x-api-key": key } });
    expect(res.status).toBe(410);
    expect((await body(res)).success).toBe(false);
  });
});
