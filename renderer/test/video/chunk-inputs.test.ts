/**
 * A split job's inputs on one renderer (src/video/chunk-inputs.ts): fetched once for all its chunks, whatever the
 * signature of each hand-over's URL, even when two chunks ask at once; a failed download is fetched again. Two
 * renderers of one machine holding chunks of one job keep folders of their own, each readable by its own tool user.
 */
import { createServer, type Server } from "node:http";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../../src/lib/process.ts";
import { openToTools, ToolUsers } from "../../src/lib/tool-users.ts";
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

  it.skipIf(process.getuid?.() !== 0)(
    "keeps one folder per renderer of a machine, each read by that renderer's tool user of the job",
    async () => {
      // Two renderers (their own tool users, their own TMP_DIR here; renderers started side by side share one, and
      // their folders are named by process) each hold a chunk of the same job.
      await openToTools(dir);
      const [rootA, rootB] = [await mkdtemp(join(dir, "a-")), await mkdtemp(join(dir, "b-"))];
      for (const root of [rootA, rootB]) await openToTools(root);
      const [usersA, usersB] = [new ToolUsers(), new ToolUsers()];
      const [leaseA, leaseB] = await Promise.all([usersA.lease("job_c"), usersB.lease("job_c")]);
      const a = sharedInputs(rootA, "job_c", usersA);
      const b = sharedInputs(rootB, "job_c", usersB);
      const inputs = { "/x/audio.wav": `${base}/audio.wav?sig=1` };
      const [fileA, fileB] = [
        (await a.fetch(["/x/audio.wav"], dir, { inputs })).get("/x/audio.wav")!,
        (await b.fetch(["/x/audio.wav"], dir, { inputs })).get("/x/audio.wav")!,
      ];
      expect(fileA.startsWith(join(rootA, `inputs-${process.pid}-job_c`))).toBe(true);
      expect(fileB.startsWith(join(rootB, `inputs-${process.pid}-job_c`))).toBe(true);
      // Each renderer's tools (as its own tool user of the job) read its copy.
      for (const [file, lease] of [
        [fileA, leaseA],
        [fileB, leaseB],
      ] as const)
        expect((await run("cat", [file], { user: lease.user })).stdout.toString()).toBe(
          "bytes of /audio.wav",
        );
      a.release();
      b.release();
      await Promise.all([leaseA.release(), leaseB.release()]);
    },
  );
});
