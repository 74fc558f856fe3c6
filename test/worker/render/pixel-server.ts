/**
 * Global setup of the render tests: a loopback HTTP server the tests inside workerd call to decode images
 * with the real ffmpeg (as test/e2e/pixels.ts does) and to compare renders with the committed reference
 * PNGs (test/fixtures/reference). `KEEP_RENDERS=<folder>` writes every actual render there as <name>.png for a
 * human look (a folder of the caller's: two runs at once never share one); `UPDATE_REFERENCES=1` writes it as the
 * new reference instead of comparing.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  interface ProvidedContext {
    pixelServer: string;
  }
}

const REFERENCES = join(process.cwd(), "test", "fixtures", "reference");
const KEEP = process.env.KEEP_RENDERS;

const decode = (bytes: Uint8Array) => {
  const dir = mkdtempSync(join(tmpdir(), "px-"));
  try {
    return decodeFile(join(dir, "in"), bytes);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

const decodeFile = (file: string, bytes: Uint8Array) => {
  writeFileSync(file, bytes);
  const probe = execFileSync(
    "ffprobe",
    ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height", "-of", "csv=p=0", file],
    { encoding: "utf8" },
  );
  const [width, height] = probe.trim().split(",").map(Number) as [number, number];
  const raw = execFileSync("ffmpeg", ["-v", "error", "-i", file, "-f", "rawvideo", "-pix_fmt", "rgba", "-"], {
    maxBuffer: 1 << 28,
  });
  return { width, height, raw };
};

/** Mean absolute channel difference and share of pixels differing by more than 48 in some channel. */
const compare = (a: Buffer, b: Buffer) => {
  let sum = 0;
  let bad = 0;
  for (let i = 0; i < a.length; i += 4) {
    let worst = 0;
    for (let c = 0; c < 4; c++) {
      const d = Math.abs(a[i + c]! - b[i + c]!);
      sum += d;
      worst = Math.max(worst, d);
    }
    if (worst > 48) bad++;
  }
  return { meanDiff: sum / a.length, badShare: bad / (a.length / 4) };
};

export default async function setup(project: TestProject) {
  if (KEEP) mkdirSync(KEEP, { recursive: true });
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const url = new URL(req.url ?? "/", "http://x");
    try {
      if (url.pathname === "/decode") {
        const { width, height, raw } = decode(body);
        res.writeHead(200, { "x-width": String(width), "x-height": String(height) });
        return void res.end(raw);
      }
      const name = /^\/compare\/([a-z0-9-]+)$/.exec(url.pathname)?.[1];
      if (!name) return void res.writeHead(404).end();
      if (KEEP) writeFileSync(join(KEEP, `${name}.png`), body);
      const ref = join(REFERENCES, `${name}.png`);
      if (process.env.UPDATE_REFERENCES === "1") writeFileSync(ref, body);
      if (!existsSync(ref)) return void res.writeHead(200).end(JSON.stringify({ missing: true }));
      const actual = decode(body);
      const expected = decode(readFileSync(ref));
      const sameSize = actual.width === expected.width && actual.height === expected.height;
      const stats = sameSize ? compare(actual.raw, expected.raw) : { meanDiff: 255, badShare: 1 };
      res.writeHead(200).end(JSON.stringify({ missing: false, sameSize, ...stats }));
    } catch (e) {
      res.writeHead(500).end(String(e));
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const address = server.address();
  project.provide(
    "pixelServer",
    `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`,
  );
  return () => new Promise<void>((r) => server.close(() => r()));
}
