/**
 * A split job's inputs on one renderer (src/video/chunk-inputs.ts): fetched once for all its chunks, whatever the
 * signature of each hand-over's URL, even when two chunks ask at once; a failed download is fetched again.
 */
import { createServer, type Server } from "node:http";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedInputs } from "../../src/video/chunk-inputs.ts";

let server: Server;
let base = "";
let dir: string;
const hits = new Map<string, number>();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "chunk-inputs-"));
  server = createServer((req, res) => {
    const path = new URL(req.url!, "http://x").pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    if (path === "/broken.png" && hits.get(path) === 1) {
      res.writeHead(500).end();
      return;
    }
    setTimeout(() => res.end(`bytes of ${path}`), 50);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  server.close();
  await rm(dir, { recursive: true, force: true });
});

describe("a split job's shared inputs", () => {
  it("downloads each stored file once for every chunk on the renderer", async () => {
    const a = sharedInputs(dir, "job_a");
    const b = sharedInputs(dir, "job_a");
    const [first, second] = await Promise.all([
      a.fetch(["/x/photo.jpg"], dir, { inputs: { "/x/photo.jpg": `${base}/photo.jpg?sig=1` } }),
      b.fetch(["/x/photo.jpg"], dir, { inputs: { "/x/photo.jpg": `${base}/photo.jpg?sig=2` } }),
    ]);
    expect(hits.get("/photo.jpg")).toBe(1);
    expect(second.get("/x/photo.jpg")).toBe(first.get("/x/photo.jpg"));
    expect(await readFile(first.get("/x/photo.jpg")!, "utf8")).toBe("bytes of /photo.jpg");
    a.release();
    const c = sharedInputs(dir, "job_a"); // the join, while a chunk still holds the files
    await c.fetch(["/x/photo.jpg"], dir, { inputs: { "/x/photo.jpg": `${base}/photo.jpg?sig=3` } });
    expect(hits.get("/photo.jpg")).toBe(1);
    b.release();
    c.release();
  });

  it("fetches again a file whose download failed", async () => {
    const s = sharedInputs(dir, "job_b");
    const inputs = { "/x/broken.png": `${base}/broken.png?sig=1` };
    await expect(s.fetch(["/x/broken.png"], dir, { inputs })).rejects.toThrow(/download failed/);
    const got = await s.fetch(["/x/broken.png"], dir, { inputs });
    expect(await readFile(got.get("/x/broken.png")!, "utf8")).toBe("bytes of /broken.png");
    expect(hits.get("/broken.png")).toBe(2);
    s.release();
  });
});
