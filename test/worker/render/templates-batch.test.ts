/**
 * Template batches on the real local stack: rows merged and opened as jobs, fed to the image queue a window at a
 * time, rendered by the image consumer (Browser Rendering), and downloaded as one streamed ZIP.
 */
import { env } from "cloudflare:workers";
import { unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { body, call, json, newAccount } from "../helpers.ts";
import { auditedBalance } from "../jobs-seed.ts";
import { decode } from "./pixels.ts";
import { createEndpoint, newBox, receivedAtLeast, verify } from "../webhooks/support.ts";

const TEMPLATE = {
  name: "Badge",
  type: "image",
  config: {
    width: 160,
    height: 90,
    backgroundColor: "{{bg}}",
    layers: [
      { type: "text", text: "{{label}}", x: 80, y: 30, fontSize: 20, color: "#ffffff", align: "center" },
    ],
  },
};

const hex = (i: number) => {
  const r = (i * 37) % 256;
  const g = (i * 91) % 256;
  const b = (i * 53) % 256;
  return { hex: `#${[r, g, b].map((c) => c.toString(16).padStart(2, "0")).join("")}`, rgb: [r, g, b] };
};

const setup = async (tokens = 5000) => {
  const account = await newAccount({ planId: "pro", tokens });
  const res = await call("/api/v2/templates", json("POST", TEMPLATE, account.key));
  expect(res.status).toBe(201);
  return { ...account, templateId: (await body<{ id: string }>(res)).data!.id };
};

interface Batch {
  id: string;
  status: string;
  progress: number;
  counts: Record<"PENDING" | "PROCESSING" | "COMPLETED" | "FAILED" | "CANCELLED", number>;
  jobs: { row: number; status: string; jobId: string }[];
}

const getBatch = async (key: string, id: string) =>
  (await body<Batch>(await call(`/api/v2/batches/${id}`, { headers: { "x-api-key": key } }))).data!;

const waitEnded = async (key: string, id: string, seen: (b: Batch) => Promise<void> | void = () => {}) => {
  for (;;) {
    const b = await getBatch(key, id);
    await seen(b);
    if (b.status !== "RUNNING") return b;
    await new Promise((r) => setTimeout(r, 250));
  }
};

const queuedOpen = (batchId: string) =>
  env.DB.prepare(
    "SELECT count(*) AS n FROM jobs WHERE batch_id = ? AND queued_at IS NOT NULL AND status IN ('PENDING','PROCESSING')",
  )
    .bind(batchId)
    .first<{ n: number }>();

describe("a 100-row CSV batch of images, end to end", () => {
  it(
    "renders every row, never queues more than the window, and downloads a ZIP of 100 correct images",
    { timeout: 300_000 },
    async () => {
      const { key, userId, templateId } = await setup();
      const lines = Array.from(
        { length: 100 },
        (_, i) => `"Badge, no. ${i + 1}",${hex(i + 1).hex},badge-${i + 1}`,
      );
      const csv = `label,bg,file\r\n${lines.join("\r\n")}\r\n`;
      const created = await call(`/api/v2/templates/${templateId}/batches?nameColumn=file`, {
        method: "POST",
        headers: { "content-type": "text/csv", "x-api-key": key },
        body: csv,
      });
      expect(created.status).toBe(201);
      const c = (await body<{ batchId: string; accepted: number; estimatedTokens: number }>(created)).data!;
      expect(c.accepted).toBe(100);
      expect(c.estimatedTokens).toBe(300);
      // Fair scheduling: the pro plan's window is 10 queued jobs at once, however many rows wait.
      let most = 0;
      const ended = await waitEnded(key, c.batchId, async () => {
        most = Math.max(most, (await queuedOpen(c.batchId))!.n);
      });
      expect(most).toBeLessThanOrEqual(10);
      expect(ended.status).toBe("COMPLETED");
      expect(ended.counts.COMPLETED).toBe(100);
      expect(ended.progress).toBe(100);
      expect(await auditedBalance(userId)).toBe(5000 - 300);

      const zip = await call(`/api/v2/batches/${c.batchId}/output`, { headers: { "x-api-key": key } });
      expect(zip.status).toBe(200);
      expect(zip.headers.get("content-type")).toBe("application/zip");
      const files = unzipSync(new Uint8Array(await zip.arrayBuffer()));
      const names = Object.keys(files).sort();
      expect(names).toHaveLength(100);
      expect(names).toContain("badge-1.png");
      expect(names).toContain("badge-100.png");
      for (const i of [1, 17, 50, 99, 100]) {
        const px = await decode(files[`badge-${i}.png`]!);
        expect([px.width, px.height]).toEqual([160, 90]);
        const [r, g, b] = px.at(3, 85);
        const want = hex(i).rgb;
        expect(Math.abs(r - want[0]!) + Math.abs(g - want[1]!) + Math.abs(b - want[2]!)).toBeLessThanOrEqual(
          6,
        );
        // The label is drawn in white over the middle.
        expect(px.bbox([...want, 255])).not.toBeNull();
      }

      const manifest = await call(`/api/v2/batches/${c.batchId}/manifest?format=csv`, {
        headers: { "x-api-key": key },
      });
      expect(manifest.headers.get("content-type")).toContain("text/csv");
      const rows = (await manifest.text()).trim().split("\r\n");
      expect(rows[0]).toBe("row,name,jobId,status,fileId,zipEntry,error");
      expect(rows).toHaveLength(101);
      expect(rows[1]).toMatch(/^1,badge-1,job_\w+,COMPLETED,\w+,badge-1\.png,$/);
    },
  );
});

describe("cancelling a batch", () => {
  it(
    "cancels the waiting jobs, releases their reserves and queues nothing more",
    { timeout: 120_000 },
    async () => {
      const { key, userId, templateId } = await setup(1000);
      const rows = Array.from({ length: 60 }, (_, i) => ({ label: `n${i}`, bg: "#123456" }));
      const created = await call(`/api/v2/templates/${templateId}/batches`, json("POST", { rows }, key));
      expect(created.status).toBe(201);
      const { batchId } = (await body<{ batchId: string }>(created)).data!;
      const res = await call(`/api/v2/batches/${batchId}`, {
        method: "DELETE",
        headers: { "x-api-key": key },
      });
      expect(res.status).toBe(200);
      expect((await body<Batch>(res)).data!.status).toBe("CANCELLED");
      // Jobs a renderer already took finish on their own; wait for them, then nothing is open or reserved.
      for (;;) {
        const open = await env.DB.prepare(
          "SELECT count(*) AS n FROM jobs WHERE batch_id = ? AND status IN ('PENDING','PROCESSING')",
        )
          .bind(batchId)
          .first<{ n: number }>();
        if (open!.n === 0) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      const b = await getBatch(key, batchId);
      expect(b.counts.CANCELLED).toBeGreaterThanOrEqual(40);
      expect(b.counts.COMPLETED + b.counts.CANCELLED + b.counts.FAILED).toBe(60);
      expect(await auditedBalance(userId)).toBe(1000 - 3 * b.counts.COMPLETED);
      const reserved = await env.DB.prepare(
        "SELECT coalesce(sum(tokens_reserved), 0) AS n FROM jobs WHERE batch_id = ?",
      )
        .bind(batchId)
        .first<{ n: number }>();
      expect(reserved!.n).toBe(0);
      // A second cancel is refused, and changes nothing.
      const again = await call(`/api/v2/batches/${batchId}`, {
        method: "DELETE",
        headers: { "x-api-key": key },
      });
      expect(again.status).toBe(400);
      expect((await body(again)).error).toContain("CANCELLED");
    },
  );

  it("two cancels at once: one wins, reserves come back once", async () => {
    const { key, userId, templateId } = await setup(1000);
    const rows = Array.from({ length: 30 }, (_, i) => ({ label: `n${i}`, bg: "#123456" }));
    const created = await call(`/api/v2/templates/${templateId}/batches`, json("POST", { rows }, key));
    const { batchId } = (await body<{ batchId: string }>(created)).data!;
    const del = () => call(`/api/v2/batches/${batchId}`, { method: "DELETE", headers: { "x-api-key": key } });
    const statuses = (await Promise.all([del(), del()])).map((r) => r.status).sort();
    expect(statuses).toEqual([200, 400]);
    // Every job is cancelled with its reserve released exactly once, except any a renderer took before the cancel
    // (queued at creation, they finish on their own and keep their reserve).
    const jobs = await env.DB.prepare(
      `SELECT j.status AS status, (SELECT count(*) FROM token_ledger l WHERE l.job_id = j.id AND l.kind = 'release') AS releases
       FROM jobs j WHERE j.batch_id = ?`,
    )
      .bind(batchId)
      .all<{ status: string; releases: number }>();
    expect(jobs.results).toHaveLength(30);
    const cancelled = jobs.results.filter((j) => j.status === "CANCELLED");
    expect(cancelled.length).toBeGreaterThanOrEqual(25);
    expect(cancelled.every((j) => j.releases === 1)).toBe(true);
    expect(jobs.results.filter((j) => j.status !== "CANCELLED").every((j) => j.status !== "PENDING")).toBe(
      true,
    );
    await auditedBalance(userId);
  });

  it("announces the end of a batch once as batch.completed to a subscribed webhook endpoint", async () => {
    const { key, templateId } = await setup(1000);
    const { box, url } = newBox();
    const endpoint = await createEndpoint(key, url, ["batch.completed"]);
    const rows = Array.from({ length: 20 }, (_, i) => ({ label: `n${i}`, bg: "#123456" }));
    const created = await call(`/api/v2/templates/${templateId}/batches`, json("POST", { rows }, key));
    const { batchId } = (await body<{ batchId: string }>(created)).data!;
    const del = () => call(`/api/v2/batches/${batchId}`, { method: "DELETE", headers: { "x-api-key": key } });
    expect((await del()).status).toBe(200);
    expect((await del()).status).toBe(400);
    const [got] = await receivedAtLeast(box, 1);
    const event = verify(endpoint.secret, got!);
    expect(event).toMatchObject({
      type: "batch.completed",
      data: { batchId, templateId, status: "CANCELLED", totalRows: 20, rejectedRows: 0 },
    });
    expect((event.data.cancelled as number) + (event.data.completed as number)).toBeLessThanOrEqual(20);
    const events = await env.DB.prepare(
      "SELECT count(*) AS n FROM webhook_events WHERE type = 'batch.completed' AND json_extract(data, '$.batchId') = ?",
    )
      .bind(batchId)
      .first<{ n: number }>();
    expect(events!.n).toBe(1);
  });

  it("the ZIP of a running batch answers 409", async () => {
    const { key, templateId } = await setup(1000);
    const rows = Array.from({ length: 40 }, (_, i) => ({ label: `n${i}`, bg: "#123456" }));
    const created = await call(`/api/v2/templates/${templateId}/batches`, json("POST", { rows }, key));
    const { batchId } = (await body<{ batchId: string }>(created)).data!;
    const zip = await call(`/api/v2/batches/${batchId}/output`, { headers: { "x-api-key": key } });
    expect(zip.status).toBe(409);
    await call(`/api/v2/batches/${batchId}`, { method: "DELETE", headers: { "x-api-key": key } });
  });
});

describe("fair scheduling", () => {
  it(
    "another account's single job renders while a 100-row batch still has most of its rows waiting",
    { timeout: 180_000 },
    async () => {
      const big = await setup();
      const rows = Array.from({ length: 100 }, (_, i) => ({ label: `n${i}`, bg: "#123456" }));
      const created = await call(
        `/api/v2/templates/${big.templateId}/batches`,
        json("POST", { rows }, big.key),
      );
      expect(created.status).toBe(201);
      const { batchId } = (await body<{ batchId: string }>(created)).data!;
      const other = await newAccount({ tokens: 100 });
      const single = await call(
        "/api/v1/jobs",
        json(
          "POST",
          {
            type: "image",
            config: {
              width: 64,
              height: 32,
              backgroundColor: "#336699",
              layers: [{ type: "text", text: "hi", x: 1, y: 1 }],
            },
          },
          other.key,
        ),
      );
      expect(single.status).toBe(201);
      const { jobId } = (await body<{ jobId: string }>(single)).data!;
      let waiting = 0;
      for (;;) {
        const job = (
          await body<{ status: string }>(
            await call(`/api/v1/jobs/${jobId}`, { headers: { "x-api-key": other.key } }),
          )
        ).data!;
        if (job.status === "COMPLETED") {
          waiting = (await getBatch(big.key, batchId)).counts.PENDING;
          break;
        }
        expect(job.status).not.toBe("FAILED");
        await new Promise((r) => setTimeout(r, 100));
      }
      // Behind at most the batch's window (10) in the queue, not behind its 100 rows.
      expect(waiting).toBeGreaterThanOrEqual(50);
      await call(`/api/v2/batches/${batchId}`, { method: "DELETE", headers: { "x-api-key": big.key } });
    },
  );
});
