/**
 * MP4 / QuickTime facts read from `moov` must equal what the renderer gets from ffprobe, on real files
 * made by ffmpeg (H.264, HEVC, rotations, with and without audio, moov before or after the media), and
 * anything less common must be left to ffprobe.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../../src/lib/process.ts";
import { probeMp4 } from "../../src/probe/header-facts.ts";
import { parseProbeOutput } from "../../src/probe/parse-probe.ts";
import { probeMedia } from "../../src/probe/probe-media.ts";
import { FIXTURES } from "../video/media-helpers.ts";

let dir: string;
const SRC = ["-f", "lavfi", "-i", "testsrc2=s=322x182:r=25:d=1.3"];
const TONE = ["-f", "lavfi", "-i", "sine=f=440:d=1.3"];
const H264 = ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"];

/** Rotated copies (ffmpeg 5.1 writes the `rotate` tag as the track matrix only when copying). */
const ROTATED: Record<string, [string, number]> = {
  "rot90.mp4": ["h264-moov-last.mp4", 90],
  "rot180.mp4": ["h264-moov-last.mp4", 180],
  "rot270.mov": ["h264-audio.mp4", 270],
};

/** name → ffmpeg output arguments (after -y and the inputs). */
const FILES: Record<string, string[]> = {
  "h264-audio.mp4": [...TONE, ...H264, "-c:a", "aac", "-shortest", "-movflags", "+faststart"],
  "h264-moov-last.mp4": [...H264],
  "hevc.mp4": [
    "-c:v",
    "libx265",
    "-preset",
    "ultrafast",
    "-x265-params",
    "log-level=error",
    "-tag:v",
    "hvc1",
  ],
};

/** ffprobe's facts of `path`; `forced`: read with that demuxer (`-f`), as a render names it. */
const ffprobeInfo = async (path: string, forced?: string) => {
  const args = ["-v", "error", "-print_format", "json", "-show_format", "-show_streams"];
  if (forced) args.push("-f", forced);
  args.push(path);
  return parseProbeOutput(JSON.parse((await run("ffprobe", args)).stdout.toString("utf8")));
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "mp4-header-"));
  for (const [name, args] of Object.entries(FILES)) {
    const audio = args.includes("aac");
    const [inputs, rest] = audio ? [[...SRC, ...TONE], args.slice(TONE.length)] : [SRC, args];
    await run("ffmpeg", ["-v", "error", "-y", ...inputs, ...rest, join(dir, name)]);
  }
  for (const [name, [from, degrees]] of Object.entries(ROTATED))
    await run("ffmpeg", [
      ...["-v", "error", "-y", "-i", join(dir, from), "-c", "copy"],
      ...["-metadata:s:v:0", `rotate=${degrees}`, join(dir, name)],
    ]);
  const fragmented = ["-movflags", "+frag_keyframe+empty_moov", join(dir, "fragmented.mp4")];
  await run("ffmpeg", ["-v", "error", "-y", ...SRC, ...H264, ...fragmented]);
  await run("ffmpeg", ["-v", "error", "-y", ...SRC, "-c:v", "mpeg4", join(dir, "mpeg4.mp4")]);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("MP4 facts against ffprobe", () => {
  for (const name of [...Object.keys(FILES), ...Object.keys(ROTATED), "fixture"]) {
    it(`${name}: the same facts as ffprobe`, async () => {
      const path = name === "fixture" ? `${FIXTURES}/kohlipe3.mp4` : join(dir, name);
      const fromMoov = await probeMp4(path);
      expect(fromMoov).not.toBeNull();
      // Everything but what only ffprobe reports (format name, audio codec, frame rate), and ffmpeg reads it the
      // same with the demuxer the reader names (a render's -f).
      expect(fromMoov).toEqual({ ...(await ffprobeInfo(path)), ffprobe: null });
      expect(fromMoov).toEqual({ ...(await ffprobeInfo(path, fromMoov!.demuxer)), ffprobe: null });
    });
  }

  it("rotated files report the display size (quarter turns swap width and height)", async () => {
    expect(await probeMp4(join(dir, "rot90.mp4"))).toMatchObject({ width: 182, height: 322 });
    expect(await probeMp4(join(dir, "rot180.mp4"))).toMatchObject({ width: 322, height: 182, rotation: 180 });
    expect(await probeMp4(join(dir, "rot270.mov"))).toMatchObject({ width: 182, height: 322 });
  });

  it("leaves fragmented files, other codecs, audio-only files and non-MP4s to ffprobe", async () => {
    expect(await probeMp4(join(dir, "fragmented.mp4"))).toBeNull();
    expect(await probeMp4(join(dir, "mpeg4.mp4"))).toBeNull();
    expect(await probeMp4(`${FIXTURES}/sample1.m4a`)).toBeNull();
    expect(await probeMp4(`${FIXTURES}/winxp.mp3`)).toBeNull();
    expect(await probeMp4(`${FIXTURES}/img2.jpg`)).toBeNull();
    // probeMedia still answers for them.
    expect(await probeMedia(join(dir, "mpeg4.mp4"), { ffprobePath: "ffprobe" })).toMatchObject({
      width: 322,
      height: 182,
      videoCodec: "mpeg4",
    });
    expect(await probeMedia(`${FIXTURES}/sample1.m4a`, { ffprobePath: "ffprobe" })).toMatchObject({
      hasVideo: false,
      hasAudio: true,
    });
  });
});
