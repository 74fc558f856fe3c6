/** Listing, metadata, deletion, downloads (ranges, ETags, HEAD), signed links and the expiry cron. */
import { env } from "cloudflare:workers";
import { createScheduledController } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createContext } from "../../src/context.ts";
import { expireFiles } from "../../src/files/expire-files.ts";
import { parseRange } from "../../src/files/range.ts";
import worker from "../../src/index.ts";
import { body, call, fixture, json, newAccount, upload } from "./helpers.ts";

type Uploaded = { id: string; storageUrl: string; expiresAt: string };

const stored = async (key: string, name: string, fields: Record<string, string> = {}) =>
  (await body<Uploaded>(await upload(key, name, fixture(name), fields))).data!;

const get = (path: string, key?: string, headers: Record<string, string> = {}, method = "GET") =>
  call(path, { method, headers: { ...(key ? { "x-api-key": key } : {}), ...headers } });

const exists = async (id: string) =>
  (await env.DB.prepare("SELECT count(*) AS n FROM media_files WHERE id = ?")
    .bind(id)
    .first<{ n: number }>())!.n === 1;

const insertJob = async (
  userId: string,
  status: string,
  inputs: string[],
  outputFileId: string | null = null,
) => {
  const id = `job_test${Math.random().toString(36).slice(2)}`;
  await env.DB.prepare(
    `INSERT INTO jobs (id, user_id, type, status, config, input_file_ids, output_format, output_file_id, tokens_reserved,
       tokens_used, priority, attempts, created_at, updated_at) VALUES (?1, ?2, 'IMAGE', ?3, '{}', ?4, 'png', ?5, 0, 0, 5, 0, ?6, ?6)`,
  )
    .bind(id, userId, status, JSON.stringify(inputs), outputFileId, Date.now())
    .run();
  return id;
};

describe("GET /api/v1/files", () => {
  it("lists own files newest first with total, page and per_page, filtered by category", async () => {
    const { key } = await newAccount();
    const a = await stored(key, "emoji.png");
    const b = await stored(key, "winxp.mp3");
    const c = await stored(key, "img2.jpg");
    await stored((await newAccount()).key, "emoji.png"); // another account's file never shows
    const res = await get("/api/v1/files?per_page=2", key);
    expect(res.status).toBe(200);
    const data = (
      await body<{
        files: Array<{ id: string; size: number; width: number | null }>;
        total: number;
        page: number;
        per_page: number;
      }>(res)
    ).data!;
    expect(data).toMatchObject({ total: 3, page: 1, per_page: 2 });
    expect(data.files.map((f) => f.id)).toEqual([c.id, b.id]);
    const page2 = (
      await body<{ files: Array<{ id: string }> }>(await get("/api/v1/files?per_page=2&page=2", key))
    ).data!;
    expect(page2.files.map((f) => f.id)).toEqual([a.id]);
    const images = (
      await body<{ files: Array<{ id: string }>; total: number }>(
        await get("/api/v1/files?category=image", key),
      )
    ).data!;
    expect(images.total).toBe(2);
    expect((await body<{ per_page: number }>(await get("/api/v1/files", key))).data!.per_page).toBe(20);
  });

  it("answers 400 for per_page over 100 or an unknown category", async () => {
    const { key } = await newAccount();
    expect((await get("/api/v1/files?per_page=101", key)).status).toBe(400);
    expect((await get("/api/v1/files?category=pdf", key)).status).toBe(400);
  });
});

describe("one file", () => {
  it("shows the media file and the metadata-only view", async () => {
    const { key } = await newAccount();
    const f = await stored(key, "img2.jpg");
    const full = (await body(await get(`/api/v1/files/${f.id}`, key))).data!;
    expect(full).toMatchObject({
      id: f.id,
      width: 4000,
      height: 3000,
      duration: null,
      storageUrl: f.storageUrl,
    });
    expect(full.updatedAt).toEqual(expect.any(String));
    const meta = (await body(await get(`/api/v1/files/${f.id}/metadata`, key))).data!;
    expect(Object.keys(meta).sort()).toEqual(["metadata", "storageUrl", "updatedAt"]);
  });

  it("deletes the object and the row, then answers 404", async () => {
    const { key } = await newAccount();
    const f = await stored(key, "emoji.png");
    const res = await call(`/api/v1/files/${f.id}`, { method: "DELETE", headers: { "x-api-key": key } });
    expect(res.status).toBe(200);
    expect((await body(res)).data).toEqual({ id: f.id, deleted: true });
    expect(await env.FILES.head(f.storageUrl.slice(1))).toBeNull();
    expect(await exists(f.id)).toBe(false);
    expect((await get(`/api/v1/files/${f.id}`, key)).status).toBe(404);
  });

  it("refuses to delete an input of an open job, and another account's file", async () => {
    const { key, userId } = await newAccount();
    const f = await stored(key, "emoji.png");
    const jobId = await insertJob(userId, "PENDING", [f.id]);
    const res = await call(`/api/v1/files/${f.id}`, { method: "DELETE", headers: { "x-api-key": key } });
    expect(res.status).toBe(400);
    expect((await body(res)).error).toContain(jobId);
    const other = await newAccount();
    expect(
      (await call(`/api/v1/files/${f.id}`, { method: "DELETE", headers: { "x-api-key": other.key } })).status,
    ).toBe(404);
    expect(await exists(f.id)).toBe(true);
  });
});

describe("download", () => {
  it("serves byte ranges with 206 and Content-Range, and 416 past the end", async () => {
    const { key } = await newAccount();
    const bytes = fixture("emoji.png");
    const f = await stored(key, "emoji.png");
    const url = `/api/v1/files/${f.id}/download`;
    const r1 = await get(url, key, { range: "bytes=0-99" });
    expect(r1.status).toBe(206);
    expect(r1.headers.get("content-range")).toBe(`bytes 0-99/${bytes.length}`);
    expect(r1.headers.get("content-length")).toBe("100");
    expect(new Uint8Array(await r1.arrayBuffer())).toEqual(bytes.slice(0, 100));
    const r2 = await get(url, key, { range: "bytes=-10" });
    expect(new Uint8Array(await r2.arrayBuffer())).toEqual(bytes.slice(-10));
    const r3 = await get(url, key, { range: `bytes=${bytes.length}-` });
    expect(r3.status).toBe(416);
    expect(r3.headers.get("content-range")).toBe(`bytes */${bytes.length}`);
    expect((await body(r3)).success).toBe(false);
    const all = await get(url, key, { range: "bytes=0-1,5-6" }); // several ranges: the whole file
    expect(all.status).toBe(200);
    expect((await all.arrayBuffer()).byteLength).toBe(bytes.length);
  });

  it("answers 304 to a matching If-None-Match and honours If-Range", async () => {
    const { key } = await newAccount();
    const f = await stored(key, "emoji.png");
    const url = `/api/v1/files/${f.id}/download`;
    const first = await get(url, key);
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^".+"$/);
    expect(first.headers.get("accept-ranges")).toBe("bytes");
    await first.arrayBuffer();
    const again = await get(url, key, { "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    const stale = await get(url, key, { "if-none-match": '"other"' });
    expect(stale.status).toBe(200);
    await stale.arrayBuffer();
    const changed = await get(url, key, { range: "bytes=0-9", "if-range": '"old"' });
    expect(changed.status).toBe(200);
    await changed.arrayBuffer();
  });

  it("answers HEAD with the headers and no body", async () => {
    const { key } = await newAccount();
    const f = await stored(key, "winxp.mp3");
    const res = await get(`/api/v1/files/${f.id}/download`, key, {}, "HEAD");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("audio/mpeg");
    expect(res.headers.get("content-length")).toBe(String(fixture("winxp.mp3").length));
    expect(await res.text()).toBe("");
  });

  it("parses ranges as RFC 9110 says", () => {
    expect(parseRange("bytes=0-0", 10)).toEqual({ start: 0, end: 0 });
    expect(parseRange("bytes=5-100", 10)).toEqual({ start: 5, end: 9 });
    expect(parseRange("bytes=-100", 10)).toEqual({ start: 0, end: 9 });
    expect(parseRange("bytes=10-", 10)).toBe("unsatisfiable");
    expect(parseRange("bytes=-0", 10)).toBe("unsatisfiable");
    expect(parseRange("bytes=5-2", 10)).toBeNull();
    expect(parseRange("items=0-1", 10)).toBeNull();
  });
});

describe("signed download links", () => {
  const link = async (key: string, id: string, init?: unknown) =>
    call(
      `/api/v1/files/${id}/link`,
      init === undefined ? { method: "POST", headers: { "x-api-key": key } } : json("POST", init, key),
    );

  it("gives an expiring URL that downloads without an API key, ranges included", async () => {
    const { key } = await newAccount();
    const bytes = fixture("emoji.png");
    const f = await stored(key, "emoji.png");
    const res = await link(key, f.id);
    expect(res.status).toBe(201);
    const { url, expiresAt } = (await body<{ url: string; expiresAt: string }>(res)).data!;
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(3500_000);
    expect(Date.parse(expiresAt) - Date.now()).toBeLessThanOrEqual(3600_000);
    const path = url.slice(url.indexOf("/api/"));
    const dl = await call(path);
    expect(dl.status).toBe(200);
    expect(new Uint8Array(await dl.arrayBuffer())).toEqual(bytes);
    const part = await call(path, { headers: { range: "bytes=1-3" } });
    expect(part.status).toBe(206);
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(bytes.slice(1, 4));
  });

  it("refuses tampered and expired links with 403 in the envelope", async () => {
    const { key } = await newAccount();
    const f = await stored(key, "emoji.png");
    const g = await stored(key, "img2.jpg");
    const { url } = (await body<{ url: string }>(await link(key, f.id, { expiresIn: 60 }))).data!;
    const path = url.slice(url.indexOf("/api/"));
    const bad = [
      path.replace(/signature=[0-9a-f]{4}/, "signature=0000"),
      path.replace(/expires=(\d+)/, (_, e) => `expires=${Number(e) + 3600}`),
      path.replace(f.id, g.id), // a signature is for one file only
    ];
    for (const p of bad) {
      const res = await call(p);
      expect(res.status).toBe(403);
      expect(await body(res)).toEqual({ success: false, error: "Invalid signature" });
    }
    const { signPath } = await import("../../src/storage/signed-url.ts");
    const dlPath = `/api/v1/files/${f.id}/download`;
    const old = await signPath(env.STORAGE_SIGNING_SECRET, "GET", dlPath, Math.floor(Date.now() / 1000) - 5);
    const expired = await call(`${dlPath}?${old}`);
    expect(expired.status).toBe(403);
    expect((await body(expired)).error).toBe("Link expired");
  });

  it("bounds the lifetime (60 s to 7 days) and never outlives the file", async () => {
    const { key } = await newAccount();
    const f = await stored(key, "emoji.png", { ttlHours: "1" });
    expect((await link(key, f.id, { expiresIn: 8 * 24 * 3600 })).status).toBe(400);
    expect((await link(key, f.id, { expiresIn: 10 })).status).toBe(400);
    const { expiresAt } = (
      await body<{ expiresAt: string }>(await link(key, f.id, { expiresIn: 7 * 24 * 3600 }))
    ).data!;
    expect(Date.parse(expiresAt)).toBeLessThanOrEqual(Date.parse(f.expiresAt));
  });
});

describe("expiry", () => {
  const expire = async (id: string) =>
    env.DB.prepare("UPDATE media_files SET expires_at = ? WHERE id = ?")
      .bind(Date.now() - 1000, id)
      .run();

  it("the cron removes expired objects and rows, and nothing else", async () => {
    const { key } = await newAccount();
    const gone = await stored(key, "emoji.png");
    const kept = await stored(key, "winxp.mp3");
    await expire(gone.id);
    expect((await get(`/api/v1/files/${gone.id}/download`, key)).status).toBe(410); // due but not yet swept
    await worker.scheduled(
      createScheduledController({ cron: "*/5 * * * *", scheduledTime: Date.now() }),
      env,
    );
    expect(await exists(gone.id)).toBe(false);
    expect(await env.FILES.head(gone.storageUrl.slice(1))).toBeNull();
    expect(await exists(kept.id)).toBe(true);
    expect(await env.FILES.head(kept.storageUrl.slice(1))).not.toBeNull();
  });

  it("works in bounded batches and keeps inputs of open jobs", async () => {
    const { key, userId } = await newAccount();
    const files = [];
    for (let i = 0; i < 5; i++) files.push(await stored(key, "emoji.png"));
    for (const f of files) await expire(f.id);
    await insertJob(userId, "PROCESSING", [files[4]!.id]);
    const at = Date.now();
    expect(
      await expireFiles(createContext(env, { now: () => at }), { batchSize: 2, maxBatches: 1 }),
    ).toBeLessThanOrEqual(2);
    await expireFiles(createContext(env, { now: () => at }));
    expect(await Promise.all(files.map((f) => exists(f.id)))).toEqual([false, false, false, false, true]);
  });

  it("a job whose output expired says so: 410 with the job id", async () => {
    const { key, userId } = await newAccount();
    const out = await stored(key, "emoji.png");
    const jobId = await insertJob(userId, "COMPLETED", [], out.id);
    await expire(out.id);
    await expireFiles(createContext(env));
    const res = await get(`/api/v1/files/${out.id}/download`, key);
    expect(res.status).toBe(410);
    expect((await body(res)).error).toMatch(new RegExp(`output of job ${jobId} is no longer stored`));
  });
});
