/**
 * A long video split across renderers, end to end (`npm run bench long-split`; issue 41's "a 10-minute 1080p job
 * renders split on `RENDERERS=4 npm start` with exact frames and gap-free audio"). The service as `npm start` starts
 * it with BENCH_RENDERERS local renderer processes (default 4); one job through the API: BENCH_MINUTES (default 10)
 * of 1920x1080 @ 25 fps, 6 s clips of a colour each with a title (100 clips, the API's most), over a 440 Hz tone as
 * its background track (made here by ffmpeg and uploaded). Then, on the downloaded output:
 *
 * - frames: exactly `seconds x 25`, every one decoded; at each chunk boundary (the windows every renderer computes,
 *   `chunkWindows`), the frame before and the frame at the boundary equal `still` jobs of the same times (PNG, the
 *   frame-addressable path) within the encoder's noise;
 * - audio: as long as the video within a frame, never silent (silencedetect at -50 dB for 20 ms) and its level steady
 *   (each 100 ms window's RMS within 1 dB of the median);
 * - the figures the capacity model needs: the job's wall time from creation to COMPLETED, and each render's
 *   `video rendered` line (the chunks' CPU, their segment uploads, the join's downloads, mix and copy).
 *
 * It asserts (exit 1 when a check fails) and measures; on the 2-core machine every renderer shares the same cores, so
 * the wall time is no figure for instances: the per-render CPU is.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as v from "valibot";
import { VideoConfigSchema } from "@media-render/contract/config/video";
import { buildTimeline } from "@media-render/contract/timeline";
import { chunkWindows } from "@media-render/contract/windows";
import { startLocalService } from "../scripts/lib/processes.mjs";
import { serviceApi } from "./_api.ts";
import { conditions, loadNow } from "./_lib.ts";

const root = join(import.meta.dirname, "..");
const MINUTES = Number(process.env.BENCH_MINUTES ?? 10);
const RENDERERS = Number(process.env.BENCH_RENDERERS ?? 4);
const FPS = 25;
const CLIP_SECONDS = 6;
const [W, H] = [1920, 1080];
/** The comparison's size: frames scaled down to this, RGB. */
const [CW, CH] = [192, 108];

const failures: string[] = [];
const check = (ok: boolean, what: string) => {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failures.push(what);
};

/** Frame `n` of `file` (or the picture `file`), scaled to CW x CH, as RGB bytes. */
const frameRgb = (file: string, n?: number): Buffer =>
  execFileSync(
    "ffmpeg",
    [
      ...["-v", "error", "-i", file],
      ...(n === undefined ? [] : ["-vf", `select=eq(n\\,${n}),scale=${CW}:${CH}`, "-vsync", "0"]),
      ...(n === undefined ? ["-vf", `scale=${CW}:${CH}`] : []),
      ...["-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"],
    ],
    { maxBuffer: 1 << 24 },
  );

const meanDiff = (a: Buffer, b: Buffer) => {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - (b[i] ?? 0));
  return sum / a.length;
};

const main = async () => {
  console.log(conditions("long-split"));
  const dir = mkdtempSync(join(tmpdir(), "bench-long-split-"));
  const seconds = MINUTES * 60;
  const tone = join(dir, "tone.m4a");
  execFileSync("ffmpeg", [
    ...["-v", "error", "-f", "lavfi", "-i", `sine=frequency=440:sample_rate=48000:duration=${seconds}`],
    ...["-c:a", "aac", "-b:a", "96k", tone],
  ]);
  const local = await startLocalService(root, { renderers: RENDERERS, quiet: !process.env.BENCH_VERBOSE });
  const rendered: Record<string, unknown>[] = [];
  const collect = (chunk: Buffer) => {
    for (const line of chunk.toString().split("\n")) {
      const at = line.indexOf('{"level"');
      if (at < 0 || !line.includes('"video rendered"')) continue;
      try {
        rendered.push({ from: line.slice(0, at).trim(), ...JSON.parse(line.slice(at)) });
      } catch {
        // a line cut across two reads: not ours to count
      }
    }
  };
  local.service.stdout?.on("data", collect);
  try {
    const key = await local.key({ email: "bench-long-split@example.com", plan: "business" });
    const api = serviceApi(local.base, () => key);
    const toneUrl = await api.upload(tone);
    const clips = Array.from({ length: Math.round(seconds / CLIP_SECONDS) }, (_, i) => ({
      duration: CLIP_SECONDS,
      layers: [
        { type: "fill-color", color: `hsl(${(i * 47) % 360}, 60%, 35%)` },
        { type: "title", text: `Clip ${i + 1}` },
      ],
    }));
    const config = { width: W, height: H, fps: FPS, audioFilePath: toneUrl, clips };
    /** Runs a job to COMPLETED; its output in `dir` and its wall seconds. */
    const runJob = async (jobConfig: object, name: string) => {
      const { jobId, seconds: wall, output } = await api.render(jobConfig, 1000);
      const file = join(dir, name);
      writeFileSync(file, output);
      return { jobId, wall, file, bytes: output.byteLength };
    };
    const long = await runJob(config, "long.mp4");
    console.log(
      `${MINUTES} min ${W}x${H} on ${RENDERERS} renderers: COMPLETED ${long.wall.toFixed(1)} s after creation, ${long.bytes} bytes`,
    );

    // Frames: all of them, and the boundaries against stills.
    const probe = JSON.parse(
      execFileSync("ffprobe", [
        ...["-v", "error", "-count_frames", "-print_format", "json", "-show_streams", long.file],
      ]).toString(),
    ) as { streams: { codec_type: string; nb_read_frames?: string; duration?: string }[] };
    const videoStream = probe.streams.find((s) => s.codec_type === "video")!;
    const audioStream = probe.streams.find((s) => s.codec_type === "audio")!;
    check(
      Number(videoStream.nb_read_frames) === seconds * FPS,
      `${videoStream.nb_read_frames} frames decoded, ${seconds * FPS} expected`,
    );
    check(
      Math.abs(Number(audioStream.duration) - seconds) <= 1 / FPS,
      `audio ${audioStream.duration} s long, the video ${seconds} s`,
    );
    const mine = rendered.filter((r) => r.jobId === long.jobId);
    const chunks = mine.filter((r) => r.chunks !== undefined);
    const count = Number(chunks[0]?.chunks ?? 1);
    check(
      count > 1,
      `split into ${count} chunks, rendered by ${new Set(chunks.map((c) => c.from)).size} renderers`,
    );
    const parsed = v.parse(VideoConfigSchema, config);
    const windows = chunkWindows(parsed, buildTimeline(parsed, { videoLength: () => null }), count);
    for (const { start } of windows.slice(1)) {
      for (const frame of [start - 1, start]) {
        const still = await runJob({ ...config, still: { time: frame / FPS + 0.01 } }, `still-${frame}.png`);
        const diff = meanDiff(frameRgb(long.file, frame), frameRgb(still.file));
        check(
          diff < 3,
          `frame ${frame} (chunk boundary at ${start}) equals the still at its time: mean diff ${diff.toFixed(2)}`,
        );
      }
    }

    // Audio: never silent, its level steady.
    const stderr = execFileSync(
      "sh",
      [
        "-c",
        `ffmpeg -v info -i "${long.file}" -vn -af "silencedetect=noise=-50dB:d=0.02,astats=metadata=1:reset=4800,ametadata=print:key=lavfi.astats.Overall.RMS_level:file=${dir}/rms.txt" -f null - 2>&1`,
      ],
      { encoding: "utf8", maxBuffer: 1 << 26 },
    );
    check(!/silence_start/.test(stderr), "no silence of 20 ms anywhere in the audio");
    const levels = readFileSync(join(dir, "rms.txt"), "utf8")
      .split("\n")
      .filter((l) => l.startsWith("lavfi.astats.Overall.RMS_level="))
      .map((l) => Number(l.split("=")[1]));
    const steady = levels.slice(1, -1);
    const median = [...steady].sort((a, b) => a - b)[steady.length >> 1]!;
    const worst = Math.max(...steady.map((l) => Math.abs(l - median)));
    check(
      worst <= 1,
      `${steady.length} windows of 100 ms: RMS ${median.toFixed(1)} dB, each within ${worst.toFixed(2)} dB`,
    );

    for (const r of mine)
      console.log(
        `${r.from} ${r.join !== undefined ? "join" : `chunk ${r.chunk}/${r.chunks}`}: ffmpeg CPU ${r.ffmpegCpuMs} ms, node CPU ${r.nodeCpuMs} ms, ffmpeg wall ${r.ffmpegMs} ms, download ${r.downloadMs} ms, upload ${r.uploadMs} ms, job ${r.jobMs} ms, ${r.bytes} bytes, ${r.frames} frames`,
      );
    console.log(`render-lines ${JSON.stringify(mine)}`);
    console.log(`load average after: ${loadNow()}`);
  } finally {
    local.service.stdout?.off("data", collect);
    await local.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  if (failures.length) {
    console.error(`${failures.length} check(s) failed`);
    process.exit(1);
  }
};

await main();
