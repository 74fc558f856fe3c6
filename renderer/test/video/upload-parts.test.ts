/**
 * The renderer's uploads (delivery.ts uploadFile, upload-parts.ts) against the Worker's real storage route in workerd
 * with its local R2 (helpers/storage-worker.ts), through a loopback proxy that logs every request and can fail some:
 * files in parts arrive byte for byte, parts lost to the network or a 5xx are sent again, a part that keeps failing
 * or a cancelled job aborts the upload (nothing stored, the upload gone). Parts are R2's smallest, 5 MiB.
 */
import { createHash, randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import fc from "fast-check";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { uploadFile } from "../../src/video/delivery.ts";
import { putFile } from "../../src/video/put-file.ts";
import { describeFailure } from "../../src/video/render-failure.ts";
import { startStorageWorker, type StorageWorker } from "../helpers/storage-worker.ts";

const PART = 5 * 2 ** 20;
const FAST = { partBytes: PART, retryDelaysMs: [20, 20, 20] };

/** One request the proxy saw: method, `part` (its number), `upload` (its id) or `start`/`complete`/`abort`. */
interface Seen {
  method: string;
  kind: "put" | "start" | "part" | "complete" | "abort";
  partNumber?: number;
  uploadId?: string;
  length?: string;
  status?: number;
}

/** What the proxy does with a request: forward it, answer a status itself, or cut the connection mid-body. */
type Fault = "forward" | { status: number } | "reset";

let worker: StorageWorker;
let proxy: Server;
let proxyBase: string;
let dir: string;
let seen: Seen[] = [];
let fault: (s: Seen, attempt: number) => Fault = () => "forward";

const kindOf = (method: string, q: URLSearchParams): Seen["kind"] => {
  if (q.has("uploads")) return "start";
  if (!q.has("uploadId")) return "put";
  if (method === "PUT") return "part";
  return method === "DELETE" ? "abort" : "complete";
};

const forward = (req: IncomingMessage, res: ServerResponse, s: Seen) => {
  const target = new URL(req.url!, worker.base);
  const upstream = request(
    target,
    { method: req.method, headers: { ...req.headers, host: target.host } },
    (answer) => {
      s.status = answer.statusCode;
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on("error", () => res.destroy());
  req.pipe(upstream);
};

beforeAll(async () => {
  worker = await startStorageWorker();
  dir = await mkdtemp(join(tmpdir(), "upload-parts-"));
  proxy = createServer((req, res) => {
    const url = new URL(req.url!, "http://proxy");
    const q = url.searchParams;
    const s: Seen = {
      method: req.method!,
      kind: kindOf(req.method!, q),
      ...(q.has("partNumber") && { partNumber: Number(q.get("partNumber")) }),
      ...(q.has("uploadId") && { uploadId: q.get("uploadId")! }),
      ...(req.headers["content-length"] !== undefined && { length: req.headers["content-length"] }),
    };
    const attempt = seen.filter((o) => o.kind === s.kind && o.partNumber === s.partNumber).length;
    seen.push(s);
    const what = fault(s, attempt);
    if (what === "forward") return forward(req, res, s);
    if (what === "reset") {
      // Cut the connection once some of the body has arrived: the client sees a network error mid-upload.
      req.once("data", () => req.socket.destroy());
      return;
    }
    s.status = what.status;
    req.resume();
    res.writeHead(what.status, { "content-type": "application/json", connection: "close" });
    res.end(JSON.stringify({ success: false, error: "Injected failure" }));
  });
  await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", r));
  proxyBase = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});

afterAll(async () => {
  proxy?.closeAllConnections();
  await new Promise((r) => proxy?.close(r));
  await worker?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

beforeEach(() => {
  seen = [];
  fault = () => "forward";
});

let n = 0;
/** A file of `size` random bytes; its path, a fresh key, the key's signed PUT URL through the proxy, its SHA-256. */
const file = async (size: number) => {
  const bytes = randomBytes(size);
  const path = join(dir, `out${n}.mp4`);
  await writeFile(path, bytes);
  const key = `output/renderer-test/${Date.now()}-${n++}.mp4`;
  const url = await worker.sign("PUT", key, { base: proxyBase });
  return { path, key, url, sha256: createHash("sha256").update(bytes).digest("hex") };
};

const kinds = () => seen.map((s) => (s.kind === "part" ? `part ${s.partNumber}` : s.kind));

/** The upload the proxy saw is gone: a part sent straight to the Worker is refused. */
const expectGone = async (key: string) => {
  const uploadId = seen.find((s) => s.uploadId)!.uploadId!;
  const url = new URL(await worker.sign("PUT", key));
  url.searchParams.set("uploadId", uploadId);
  url.searchParams.set("partNumber", "1");
  const res = await fetch(url, { method: "PUT", body: randomBytes(PART) });
  expect(res.status).toBe(404);
  expect(((await res.json()) as { error: string }).error).toBe(
    "Upload not found: it was completed or aborted",
  );
  expect(await worker.object(key)).toBeNull();
};

describe("uploadFile in parts, to the Worker's storage route", () => {
  it("stores a file of several parts byte for byte, each part streamed with its own length", async () => {
    const f = await file(3 * PART + 777);
    expect(await uploadFile(f.url, f.path, "mp4", undefined, { ...FAST, concurrency: 2 })).toBe(
      3 * PART + 777,
    );
    expect(await worker.object(f.key)).toEqual({ size: 3 * PART + 777, sha256: f.sha256, type: "video/mp4" });
    expect(kinds().sort()).toEqual(["complete", "part 1", "part 2", "part 3", "part 4", "start"]);
    expect(seen.filter((s) => s.kind === "part").map((s) => [s.partNumber, s.length])).toEqual(
      expect.arrayContaining([
        [1, String(PART)],
        [2, String(PART)],
        [3, String(PART)],
        [4, "777"],
      ]),
    );
    // The join's download of such a file (fetchSegments, a signed GET) streams the same bytes back.
    const got = await fetch(await worker.sign("GET", f.key));
    expect(
      createHash("sha256")
        .update(Buffer.from(await got.arrayBuffer()))
        .digest("hex"),
    ).toBe(f.sha256);
  });

  it("sends a file up to the part size in one PUT", async () => {
    const f = await file(PART);
    expect(await uploadFile(f.url, f.path, "png", undefined, FAST)).toBe(PART);
    expect(kinds()).toEqual(["put"]);
    expect(await worker.object(f.key)).toEqual({ size: PART, sha256: f.sha256, type: "image/png" });
  });

  it("stores any size around the part boundaries, at any concurrency (fast-check)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 2 }),
        fc.constantFrom(-1, 1, 4096),
        fc.integer({ min: 1, max: 3 }),
        async (whole, delta, concurrency) => {
          const size = whole * PART + delta;
          const f = await file(size);
          expect(await uploadFile(f.url, f.path, "mp4", undefined, { ...FAST, concurrency })).toBe(size);
          expect(await worker.object(f.key)).toMatchObject({ size, sha256: f.sha256 });
        },
      ),
      { numRuns: 3 },
    );
  });

  it("sends again a part lost to the network or answered 5xx, and the file arrives whole", async () => {
    const f = await file(2 * PART + 10);
    fault = (s, attempt) => {
      if (s.kind === "part" && s.partNumber === 2 && attempt === 0) return { status: 503 };
      if (s.kind === "part" && s.partNumber === 3 && attempt === 0) return "reset";
      if (s.kind === "complete" && attempt === 0) return { status: 502 };
      return "forward";
    };
    expect(await uploadFile(f.url, f.path, "mp4", undefined, { ...FAST, concurrency: 1 })).toBe(
      2 * PART + 10,
    );
    expect(kinds()).toEqual([
      "start",
      "part 1",
      "part 2",
      "part 2",
      "part 3",
      "part 3",
      "complete",
      "complete",
    ]);
    expect(await worker.object(f.key)).toMatchObject({ sha256: f.sha256 });
  });

  it("aborts the upload when a part keeps failing: the job fails as storage being down, nothing is stored", async () => {
    const f = await file(3 * PART + 10);
    fault = (s) => (s.kind === "part" && s.partNumber === 3 ? { status: 503 } : "forward");
    const error = await uploadFile(f.url, f.path, "mp4", undefined, { ...FAST, concurrency: 1 }).catch(
      (e: Error) => e,
    );
    expect((error as Error).message).toBe("upload of part 3 of 4 failed with HTTP 503: Injected failure");
    expect(describeFailure(error, undefined, { deadlineSeconds: 60, memoryMb: 100 })).toMatchObject({
      error: "The renderer could not reach the storage service",
      retryable: true,
    });
    expect(kinds()).toEqual(["start", "part 1", "part 2", "part 3", "part 3", "part 3", "part 3", "abort"]);
    expect(seen.at(-1)!.status).toBe(200);
    await expectGone(f.key);
  });

  it("aborts the upload when the job is cancelled mid-way, its other parts stopped", async () => {
    const f = await file(3 * PART + 1);
    const job = new AbortController();
    let abortedAt = -1;
    fault = (s) => {
      if (s.kind === "part" && s.partNumber === 3) {
        abortedAt = seen.length;
        job.abort("cancelled");
      }
      return "forward";
    };
    const error = await uploadFile(f.url, f.path, "mp4", job.signal, { ...FAST, concurrency: 2 }).catch(
      (e) => e,
    );
    expect(job.signal.aborted).toBe(true);
    expect(error).toBeDefined();
    expect(kinds()).not.toContain("complete");
    // No part is started once the job is cancelled: what reaches the Worker after it is at most the one part that
    // was already on its way beside part 3 (two at a time), never all four parts.
    const after = kinds()
      .slice(abortedAt)
      .filter((k) => k.startsWith("part"));
    expect(after.length).toBeLessThanOrEqual(1);
    expect(kinds().filter((k) => k.startsWith("part")).length).toBeLessThan(5);
    expect(seen.at(-1)).toMatchObject({ kind: "abort", status: 200 });
    await expectGone(f.key);
  });

  it("does not retry a refusal, and says the Worker's reason", async () => {
    const f = await file(2 * PART);
    const small = uploadFile(f.url, f.path, "mp4", undefined, { ...FAST, partBytes: PART - 1 });
    await expect(small).rejects.toThrow(
      `upload start failed with HTTP 400: partSize must be from ${PART} to ${64 * 2 ** 20} bytes`,
    );
    expect(kinds()).toEqual(["start"]);
    const expired = await worker.sign("PUT", f.key, { ttl: -10, base: proxyBase });
    seen = [];
    await expect(uploadFile(expired, f.path, "mp4", undefined, FAST)).rejects.toThrow(
      "upload start failed with HTTP 403: Link expired",
    );
    await expect(
      uploadFile(expired, f.path, "mp4", undefined, { ...FAST, partBytes: 4 * PART }),
    ).rejects.toThrow("upload failed with HTTP 403: Link expired");
    expect(kinds()).toEqual(["start", "put"]);
    expect(await worker.object(f.key)).toBeNull();
  });
});

/** V8's collector, to tell buffers still held from garbage not yet collected. */
const collectGarbage = (): void => {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
};

describe("putFile", () => {
  it("holds no more of the file than the socket takes: what was sent is let go (fetch kept it all)", async () => {
    const size = 48 * 2 ** 20;
    const f = await file(size);
    let received = 0;
    let paused!: () => void;
    const stalled = new Promise<void>((r) => (paused = r));
    const sink = createServer((req, res) => {
      req.on("data", (chunk: Buffer) => {
        received += chunk.length;
        if (received < (size * 3) / 4) return;
        req.pause(); // three quarters received, then a receiver that stops reading
        paused();
      });
      req.on("end", () => res.end("ok"));
    });
    await new Promise<void>((r) => sink.listen(0, "127.0.0.1", r));
    try {
      collectGarbage();
      const before = process.memoryUsage().arrayBuffers;
      const port = (sink.address() as AddressInfo).port;
      const put = putFile(`http://127.0.0.1:${port}/`, f.path, { start: 0, end: size - 1 }, {});
      await stalled;
      // The process is shared with other files' work, whose buffers a collection may find still in use: look again
      // for up to 3 s. A sender that kept what it sent would hold three quarters of the file all along.
      let held = Infinity;
      for (let look = 0; look < 30 && held >= size / 4; look++) {
        if (look > 0) await new Promise((r) => setTimeout(r, 100));
        collectGarbage();
        held = process.memoryUsage().arrayBuffers - before;
      }
      expect(held).toBeLessThan(size / 4);
      sink.closeAllConnections();
      await put.catch(() => {});
    } finally {
      sink.close();
    }
  });
});
