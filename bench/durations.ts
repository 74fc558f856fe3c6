/**
 * Duration benchmark: 300 files (mp4, m4a, mp3, webm at varied lengths, cut with ffmpeg from the shared
 * fixtures and cached in the temp dir) measured
 *   1. by the in-process parsers of src/media (the code the Worker runs), on local files;
 *   2. by ffprobe on each file, two at a time (the baseline: ~50 ms of process start-up per file);
 *   3. through POST /api/v1/tools/video/duration/bulk of a running service (`wrangler dev` + renderer,
 *      started by scripts/start.mjs on free ports with a throw-away state), after uploading the 300 files.
 * Every duration must equal ffprobe's format.duration (to the microsecond for the parsers, to the
 * millisecond for the endpoint, which answers milliseconds). Run: `node bench/durations.ts [--parser-only]`.
 *
 * ffprobe runs once (it is the reference the answers are checked against; its time is one run). The parsers and
 * the endpoint run in interleaved rounds (bench/_lib.ts) until the endpoint's ratio to the parsers is known; the
 * endpoint's own time is reported as a spread too (target < 0.5 s for 300 files). Where an endpoint request goes:
 * the stored files' durations were measured at upload (the row's `duration`), so the request is auth, the plan
 * lookup, one token spend and the file rows (D1), with no read of the files themselves.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, openSync, readFileSync, readSync, fstatSync, closeSync } from "node:fs";
import { registerHooks } from "node:module";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { promisify } from "node:util";
import { conditions, interleave, loadNow, median, spread } from "./_lib.ts";

const run = promisify(execFile);
const root = join(import.meta.dirname, "..");
const fixtures = join(root, "..", "shared", "fixtures");
const COUNT = 300;

// src/ is Worker code (bundler-style imports without extensions): let Node find the .ts files.
registerHooks({
  resolve(specifier, context, next) {
    if (
      specifier.startsWith(".") &&
      !/\.[cm]?[jt]s$/.test(specifier) &&
      context.parentURL?.includes("/src/")
    ) {
      try {
        return next(`${specifier}.ts`, context);
      } catch {
        /* fall through */
      }
    }
    return next(specifier, context);
  },
});
const { readDurationUs } = await import("../src/media/duration.ts");

/** Runs `work` over `items`, `limit` at a time. */
const pool = async <T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> => {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await work(items[i]!);
      }
    }),
  );
  return out;
};

const ffmpeg = (args: string[]) => run("ffmpeg", ["-v", "error", "-y", ...args]);

/** Generates (once, cached) the base encodes and the 300 cuts. */
const generate = async (): Promise<string[]> => {
  const dir = join(tmpdir(), "mrs-bench-durations-v1");
  mkdirSync(dir, { recursive: true });
  const clip = join(fixtures, "kohlipe3.mp4");
  const bases: Array<[string, string[]]> = [
    [
      "base.mp4",
      [
        "-i",
        clip,
        "-f",
        "lavfi",
        "-i",
        "sine=f=330:r=48000",
        "-t",
        "34.9",
        "-vf",
        "scale=320:-2",
        "-c:v",
        "libx264",
        "-preset",
        "ultrafast",
        "-c:a",
        "aac",
      ],
    ],
    [
      "base.webm",
      [
        "-i",
        clip,
        "-f",
        "lavfi",
        "-i",
        "sine=f=330:r=48000",
        "-t",
        "30",
        "-vf",
        "scale=320:-2",
        "-c:v",
        "libvpx",
        "-deadline",
        "realtime",
        "-cpu-used",
        "8",
        "-b:v",
        "200k",
        "-c:a",
        "libopus",
      ],
    ],
    ["base.m4a", ["-f", "lavfi", "-i", "sine=f=440:r=44100", "-t", "120", "-c:a", "aac", "-b:a", "96k"]],
    [
      "base-vbr.mp3",
      ["-f", "lavfi", "-i", "sine=f=440:r=44100", "-t", "120", "-c:a", "libmp3lame", "-q:a", "5"],
    ],
    [
      "base-cbr.mp3",
      [
        "-f",
        "lavfi",
        "-i",
        "sine=f=440:r=22050",
        "-t",
        "120",
        "-ac",
        "1",
        "-c:a",
        "libmp3lame",
        "-b:a",
        "48k",
      ],
    ],
  ];
  await pool(bases, 2, async ([name, args]) => {
    if (!existsSync(join(dir, name))) await ffmpeg([...args, join(dir, name)]);
  });
  // A fixed pseudo-random sequence so every run measures the same files.
  let seed = 42;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const jobs: Array<{ out: string; args: string[] }> = [];
  for (let i = 0; i < COUNT; i++) {
    const kind = i % 4;
    const len = (0.5 + rnd() * (kind === 0 ? 30 : kind === 3 ? 25 : 100)).toFixed(3);
    const start = (rnd() * 3).toFixed(2);
    if (kind === 0) {
      const faststart = i % 8 === 0 ? ["-movflags", "+faststart"] : [];
      jobs.push({
        out: `clip${i}.mp4`,
        args: ["-ss", start, "-t", len, "-i", join(dir, "base.mp4"), "-c", "copy", ...faststart],
      });
    } else if (kind === 1) {
      jobs.push({
        out: `voice${i}.m4a`,
        args: ["-ss", start, "-t", len, "-i", join(dir, "base.m4a"), "-c", "copy"],
      });
    } else if (kind === 2) {
      const base = i % 3 === 0 ? "base-vbr.mp3" : "base-cbr.mp3";
      const xing = i % 3 === 2 ? ["-write_xing", "0"] : []; // plain CBR: ffprobe estimates from size and bit rate
      jobs.push({
        out: `song${i}.mp3`,
        args: ["-ss", start, "-t", len, "-i", join(dir, base), "-c", "copy", ...xing],
      });
    } else {
      jobs.push({
        out: `clip${i}.webm`,
        args: ["-ss", start, "-t", len, "-i", join(dir, "base.webm"), "-c", "copy"],
      });
    }
  }
  const started = performance.now();
  let made = 0;
  await pool(jobs, 2, async ({ out, args }) => {
    if (existsSync(join(dir, out))) return;
    await ffmpeg([...args, join(dir, out)]);
    made++;
  });
  if (made)
    console.log(
      `generated ${made} files in ${((performance.now() - started) / 1000).toFixed(1)} s (cached in ${dir})`,
    );
  return jobs.map((j) => join(dir, j.out));
};

const fileSource = (path: string) => {
  const fd = openSync(path, "r");
  const size = fstatSync(fd).size;
  return {
    fd,
    size,
    read: async (offset: number, length: number) => {
      const n = Math.max(0, Math.min(length, size - offset));
      const b = new Uint8Array(n);
      readSync(fd, b, 0, n, offset);
      return b;
    },
  };
};

const ffprobeUs = async (path: string): Promise<number | null> => {
  const { stdout } = await run("ffprobe", [
    "-v",
    "error",
    "-show_entries",
    "format=duration",
    "-of",
    "csv=p=0",
    path,
  ]);
  const s = stdout.trim();
  return s === "" || s === "N/A" ? null : Math.round(Number(s) * 1e6);
};

const seconds = (ms: number) => `${(ms / 1000).toFixed(3)} s`;

console.log(conditions("durations"));
const files = await generate();
console.log(
  `${files.length} files: ${["mp4", "m4a", "mp3", "webm"].map((e) => `${files.filter((f) => f.endsWith(e)).length} ${e}`).join(", ")}`,
);

// 1. ffprobe, two at a time (2 cores).
let t = performance.now();
const reference = await pool(files, 2, ffprobeUs);
const ffprobeMs = performance.now() - t;

// 2. The in-process parsers.
const parseAll = async () => {
  const out: Array<number | null> = [];
  for (const f of files) {
    const src = fileSource(f);
    out.push(await readDurationUs(src));
    closeSync(src.fd);
  }
  return out;
};
t = performance.now();
const parsed = await parseAll();
const parserMs = performance.now() - t;
const fallbacks = parsed.filter((p) => p === null).length;
const mismatches = files.filter((_, i) => parsed[i] !== null && parsed[i] !== reference[i]);
console.log(`ffprobe (concurrency 2):   ${seconds(ffprobeMs)} (one run: the reference)`);
console.log(
  `in-process parsers:        ${seconds(parserMs)}  (first run; ${(ffprobeMs / parserMs).toFixed(0)}x faster than ffprobe)`,
);
console.log(
  `parsers answered ${files.length - fallbacks}/${files.length} (the rest would fall back to ffprobe)`,
);
console.log(
  `every parsed duration equals ffprobe's to the microsecond: ${mismatches.length === 0 ? "yes" : `NO (${mismatches.length})`}`,
);
for (const f of mismatches.slice(0, 10)) {
  const i = files.indexOf(f);
  console.log(`  mismatch ${basename(f)}: parser ${parsed[i]} us, ffprobe ${reference[i]} us`);
}
let failed = mismatches.length > 0 || fallbacks > 0;

// 3. Through the bulk endpoint of a running service.
if (!process.argv.includes("--parser-only")) {
  const { startLocalService } = await import("../scripts/lib/processes.mjs");
  const local = await startLocalService(root, { timeoutMs: 150_000 });
  try {
    const base = local.base;
    const key = await local.key({ email: "bench@example.com" });
    t = performance.now();
    const paths = await pool(files, 4, async (f) => {
      const form = new FormData();
      form.set("file", new Blob([readFileSync(f)]), basename(f));
      const res = await fetch(`${base}/api/v1/files/upload`, {
        method: "POST",
        headers: { "x-api-key": key },
        body: form,
      });
      const body = (await res.json()) as { data?: { storageUrl: string }; error?: string };
      if (!body.data) throw new Error(`upload of ${basename(f)} failed: ${res.status} ${body.error}`);
      return body.data.storageUrl;
    });
    console.log(`uploaded ${paths.length} files in ${seconds(performance.now() - t)}`);
    let results: Array<{ success: boolean; durationMs?: number; error?: string }> = [];
    const bulk = async () => {
      const res = await fetch(`${base}/api/v1/tools/video/duration/bulk`, {
        method: "POST",
        headers: { "x-api-key": key, "content-type": "application/json" },
        body: JSON.stringify({ files: paths }),
      });
      const body = (await res.json()) as { data?: { results: typeof results }; error?: string };
      if (!body.data) throw new Error(`bulk request failed: ${res.status} ${body.error}`);
      results = body.data.results;
    };
    const rounds = await interleave<"parsers" | "endpoint">(
      "parsers",
      { parsers: async () => void (await parseAll()), endpoint: bulk },
      { warmup: 2, minRounds: 7, maxRounds: 15, targetIqr: 0.1 },
    );
    const wrong = results.filter((r, i) => !r.success || r.durationMs !== Math.round(reference[i]! / 1000));
    const endpoint = rounds.times.endpoint;
    console.log(`over ${rounds.rounds} interleaved rounds:`);
    console.log(`  in-process parsers, 300 local files: ${spread(rounds.times.parsers, " ms", 0)}`);
    console.log(`  bulk endpoint, 300 stored files:     ${spread(endpoint, " ms", 0)}`);
    console.log(`  endpoint / parsers:                  ${spread(rounds.ratios.endpoint)}`);
    const mid = median(endpoint);
    console.log(
      `target: 300 files through the endpoint < 0.5 s: ${mid < 500 ? "met" : "NOT met"} (median ${seconds(mid)}, ${(ffprobeMs / mid).toFixed(1)}x faster than ffprobe alone)`,
    );
    console.log(
      `every endpoint duration equals ffprobe's to the millisecond: ${wrong.length === 0 ? "yes" : `NO (${wrong.length})`}`,
    );
    for (const r of wrong.slice(0, 5)) console.log("  ", JSON.stringify(r));
    failed ||= wrong.length > 0 || mid > 5000;
  } finally {
    await local.stop();
  }
}
console.log(`  load average after: ${loadNow()}`);
process.exitCode = failed ? 1 : 0;
