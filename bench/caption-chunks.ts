/**
 * autoSubtitles in split jobs (docs/parallel-rendering.md, "Captions"): `node bench/caption-chunks.ts` or
 * `npm run bench caption-chunks`. A captioned talking video (BENCH_SECONDS, default 120 s, of BENCH_SIZE, default
 * 640x360, at 25 fps: a colour, a title, and the fixture speech-en.wav said over and over with 0.4 s pauses, so
 * there is speech to caption all through), rendered whole, as 2 chunks + join and as 4 chunks + join, with the
 * offline recogniser. Each render is a process of its own held to one core (`taskset`; chunk i on core i mod the
 * cores; bench/_chunk-process.ts), warm, its CPU read from /proc. Per round: each split's CPU over the whole render's
 * (chunks and join), and each chunk's transcription CPU against its fair share (the whole render's transcription CPU
 * over the chunks), with the seconds of audio it heard. The joined captions are checked equal to the single render's
 * (words and cues). Rounds interleave; BENCH_MAX_ROUNDS (default 2) sets how many.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import * as v from "valibot";
import { VideoConfigSchema } from "@media-render/contract/config/video";
import { run as runTool } from "../renderer/src/lib/process.ts";
import type { WordsFile } from "../renderer/src/video/captions/words-file.ts";
import { conditions, loadNow, median, spread } from "./_lib.ts";

const FIX = process.env.FIXTURES_DIR ?? join(import.meta.dirname, "..", "..", "shared", "fixtures");
const SECONDS = Number(process.env.BENCH_SECONDS ?? 120);
const [WIDTH, HEIGHT] = (process.env.BENCH_SIZE ?? "640x360").split("x").map(Number) as [number, number];
const ROUNDS = Number(process.env.BENCH_MAX_ROUNDS ?? 2);
const CORES = cpus().length;
const SPLITS = [2, 4];

const run = promisify(execFile);
const worker = join(import.meta.dirname, "_chunk-process.ts");

interface Rendered {
  wallMs: number;
  cpuMs: number;
  processCpuMs: number;
  transcription: { cpuMs: number; seconds: number; parts: number };
  captions: { words: number; cues: number } | null;
  words?: WordsFile;
}

/** One render in its own process on `core`. */
const renderOn = async (core: number, args: Record<string, unknown>): Promise<Rendered> => {
  const { stdout } = await run(
    "taskset",
    ["-c", String(core), process.execPath, worker, JSON.stringify(args)],
    {
      maxBuffer: 64 * 2 ** 20,
    },
  );
  return JSON.parse(stdout.trim().split("\n").at(-1)!) as Rendered;
};

const dir = await mkdtemp(join(tmpdir(), "bench-caption-chunks-"));
try {
  const speech = join(dir, "speech.wav");
  await runTool("ffmpeg", [
    ...["-v", "error", "-i", `${FIX}/speech-en.wav`, "-af", "apad=pad_dur=0.4", join(dir, "padded.wav")],
  ]);
  await runTool("ffmpeg", [
    ...["-v", "error", "-stream_loop", "-1", "-i", join(dir, "padded.wav"), "-t", String(SECONDS), speech],
  ]);
  const config = v.parse(VideoConfigSchema, {
    width: WIDTH,
    height: HEIGHT,
    fps: 25,
    audioFilePath: speech,
    clips: [
      {
        duration: SECONDS,
        layers: [
          { type: "fill-color", color: "#1d3557" },
          { type: "title", text: "Talking", position: "top" },
        ],
      },
    ],
    autoSubtitles: true,
  });
  console.log(conditions("caption-chunks"));
  console.log(
    `${SECONDS} s of ${WIDTH}x${HEIGHT} @ 25 fps with autoSubtitles (offline recogniser), whole on core 0 against ${SPLITS.join(" and ")} chunks on cores 0..${CORES - 1} (taskset, one core each) and a join on core 0, ${ROUNDS} rounds`,
  );
  const ratios: Record<number, number[]> = Object.fromEntries(SPLITS.map((n) => [n, []]));
  const shares: Record<number, number[]> = Object.fromEntries(SPLITS.map((n) => [n, []]));
  for (let round = 0; round < ROUNDS; round++) {
    const out = async (name: string, extra: Record<string, unknown>, core = 0) =>
      renderOn(core, {
        config,
        outPath: join(dir, `${name}.mp4`),
        workDir: await mkdtemp(join(dir, "w")),
        ...extra,
      });
    // Rotate which goes first, so no variant always meets the machine first.
    const order = [0, ...SPLITS].map((_, i, all) => all[(i + round) % all.length]!);
    const results = new Map<number, { parts: Rendered[]; join?: Rendered }>();
    for (const count of order) {
      if (count === 0) {
        results.set(0, { parts: [await out(`single${round}`, {})] });
        continue;
      }
      const chunks = await Promise.all(
        Array.from({ length: count }, (_, index) =>
          out(`r${round}c${count}s${index}`, { chunk: { index, count } }, index % CORES),
        ),
      );
      const joined = await out(`r${round}c${count}`, {
        joinSegments: chunks.map((_, i) => join(dir, `r${round}c${count}s${i}.mp4`)),
        joinWords: chunks.map((c) => c.words),
      });
      results.set(count, { parts: chunks, join: joined });
    }
    const single = results.get(0)!.parts[0]!;
    console.log(
      `round ${round + 1}: whole ${single.wallMs} ms wall, ${single.cpuMs} ms CPU, of which transcription ${single.transcription.cpuMs} ms (${single.transcription.parts} parts, ${single.transcription.seconds.toFixed(1)} s of audio); ${single.captions?.words} words, ${single.captions?.cues} cues`,
    );
    for (const count of SPLITS) {
      const { parts, join: joined } = results.get(count)!;
      const cpu = parts.reduce((s, c) => s + c.cpuMs, 0) + joined!.cpuMs;
      ratios[count]!.push(cpu / single.cpuMs);
      const fair = single.transcription.cpuMs / count;
      for (const c of parts) shares[count]!.push(c.transcription.cpuMs / fair);
      const same =
        joined!.captions?.words === single.captions?.words &&
        joined!.captions?.cues === single.captions?.cues;
      console.log(
        `  ${count} chunks: CPU ${cpu} ms (${(cpu / single.cpuMs).toFixed(2)}x the whole), join ${joined!.cpuMs} ms (transcription ${joined!.transcription.cpuMs} ms); captions ${same ? "equal to" : "DIFFERENT FROM"} the whole's`,
      );
      parts.forEach((c, i) =>
        console.log(
          `    chunk ${i}: ${c.cpuMs} ms CPU, transcription ${c.transcription.cpuMs} ms = ${(c.transcription.cpuMs / fair).toFixed(2)}x its fair share (${c.transcription.parts} parts, ${c.transcription.seconds.toFixed(1)} s of audio of its ${(SECONDS / count).toFixed(1)} s)`,
        ),
      );
    }
  }
  for (const count of SPLITS) {
    console.log(`${count} chunks + join, CPU / whole render's: ${spread(ratios[count]!)}`);
    console.log(
      `${count} chunks, each chunk's transcription CPU / its fair share: ${spread(shares[count]!)} (median ${median(shares[count]!).toFixed(2)})`,
    );
  }
  console.log(`load after: ${loadNow()}`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
