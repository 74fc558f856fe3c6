/**
 * autoSubtitles benchmark: `node bench/captions.ts` (Node 24) or `npm run bench captions`.
 * A 60 s "talking clip" (1280x720 @ 30 fps H.264 test picture whose audio is the fixture speech-en.wav repeated
 * with 0.4 s pauses) rendered with and without `autoSubtitles` (offline pocketsphinx backend, default style),
 * interleaved, RUNS pairs. Prints each pair's wall times, the ratio captioned / plain (median, min, max), the
 * time the transcription stage took (audio pass + pocketsphinx) and how many words and cues came out.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as v from "valibot";
import { VideoConfigSchema } from "@media-render/contract/config/video";
import { run } from "../renderer/src/lib/process.ts";
import { closeBrowser } from "../renderer/src/video/raster/browser.ts";
import { renderVideo } from "../renderer/src/video/render.ts";

const FIX = process.env.FIXTURES_DIR ?? join(import.meta.dirname, "..", "..", "shared", "fixtures");
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SECONDS = 60;

const talkingClip = async (dir: string): Promise<string> => {
  const padded = join(dir, "padded.wav");
  const clip = join(dir, "talking.mp4");
  await run("ffmpeg", ["-v", "error", "-i", `${FIX}/speech-en.wav`, "-af", "apad=pad_dur=0.4", padded]);
  await run("ffmpeg", [
    ...["-v", "error", "-f", "lavfi", "-i", `testsrc2=s=1280x720:r=30:d=${SECONDS}`],
    ...["-stream_loop", "-1", "-i", padded, "-t", String(SECONDS)],
    ...["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", clip],
  ]);
  return clip;
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const main = async () => {
  const dir = await mkdtemp(join(tmpdir(), "bench-captions-"));
  try {
    const clip = await talkingClip(dir);
    const config = (captions: boolean) =>
      v.parse(VideoConfigSchema, {
        width: 1280,
        height: 720,
        fps: 30,
        keepSourceAudio: true,
        clips: [{ duration: SECONDS, layers: [{ type: "video", path: clip }] }],
        autoSubtitles: captions,
      });
    const once = async (captions: boolean, n: number) => {
      const stages: [string, number][] = [];
      const t0 = performance.now();
      const r = await renderVideo({
        jobId: `bench_captions_${n}`,
        config: config(captions),
        workDir: dir,
        outPath: join(dir, `out-${captions}.mp4`),
        allowLocalFiles: true,
        onProgress: (_, stage) => {
          if (stages.at(-1)?.[0] !== stage) stages.push([stage, performance.now()]);
        },
      });
      const wall = (performance.now() - t0) / 1000;
      const t = stages.findIndex(([s]) => s === "transcribing");
      const transcribe = t >= 0 ? ((stages[t + 1]?.[1] ?? performance.now()) - stages[t]![1]) / 1000 : 0;
      return { wall, transcribe, words: r.captions?.words.length ?? 0, cues: r.captions?.cues.length ?? 0 };
    };
    await once(false, -1); // warm-up: browser start, page cache
    const ratios: number[] = [];
    console.log("run | plain s | captioned s | ratio | transcription s | words | cues");
    for (let n = 0; n < RUNS; n++) {
      const plain = await once(false, n);
      const captioned = await once(true, n);
      const ratio = captioned.wall / plain.wall;
      ratios.push(ratio);
      console.log(
        `${n + 1} | ${plain.wall.toFixed(2)} | ${captioned.wall.toFixed(2)} | ${ratio.toFixed(2)} | ${captioned.transcribe.toFixed(2)} | ${captioned.words} | ${captioned.cues}`,
      );
    }
    console.log(
      `captioned / plain, ${SECONDS} s 1280x720 talking clip: median ${median(ratios).toFixed(2)}x (min ${Math.min(...ratios).toFixed(2)}, max ${Math.max(...ratios).toFixed(2)}, ${RUNS} pairs)`,
    );
  } finally {
    await closeBrowser();
    await rm(dir, { recursive: true, force: true });
  }
};

await main();
