/**
 * Files whose length nobody wrote down: a webm recorded to a stream (a browser's MediaRecorder, ffmpeg writing to a
 * pipe) has no duration in its header, and the probe reports none. The service accepts them (a clip sized by one
 * needs a duration, or the layer a cutTo: src/jobs/planned-length.ts), so they must play: a video layer moves and
 * takes its cut, its sound and an audio track of one are heard.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../../src/lib/process.ts";
import { probeMedia } from "../../src/probe/probe-media.ts";
import { renderVideo } from "../../src/video/render.ts";
import { videoConfig } from "../helpers/video-config.ts";
import { colorAt, meanVolume, near } from "./media-helpers.ts";

let dir: string;
/** 2 s of webm written to a pipe: red for a second, then blue, with a tone; and the tone alone. */
let recorded: string;
let tone: string;

/** Writes what ffmpeg writes to its stdout (no seeking back: no duration in the header) into `name`. */
const piped = async (name: string, args: string[]): Promise<string> => {
  const { stdout } = await run("ffmpeg", ["-v", "error", "-threads", "1", ...args, "-f", "webm", "pipe:1"]);
  const path = join(dir, name);
  await writeFile(path, stdout);
  return path;
};

const render = async (name: string, raw: Record<string, unknown>) => {
  const outPath = join(dir, name);
  await renderVideo({
    jobId: "job_unknown_length",
    config: videoConfig({ width: 160, height: 90, fps: 10, ...raw }),
    workDir: await mkdtemp(join(dir, "w-")),
    outPath,
    allowLocalFiles: true,
  });
  return outPath;
};

const RED = [255, 0, 0];
const BLUE = [0, 0, 255];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "unknown-length-"));
  recorded = await piped("recorded.webm", [
    ...[
      "-f",
      "lavfi",
      "-i",
      "color=c=red:s=160x90:r=10:d=1[a];color=c=blue:s=160x90:r=10:d=1[b];[a][b]concat",
    ],
    ...["-f", "lavfi", "-i", "sine=f=440:r=48000:d=2"],
    ...["-c:v", "libvpx", "-b:v", "200k", "-c:a", "libopus"],
  ]);
  tone = await piped("tone.webm", ["-f", "lavfi", "-i", "sine=f=440:r=48000:d=2", "-c:a", "libopus"]);
}, 60_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("media of unknown length", () => {
  it("has no duration to the probe", async () => {
    const facts = await probeMedia(recorded, { complete: true, ffprobePath: "ffprobe" });
    expect([facts.duration, facts.hasVideo, facts.hasAudio]).toEqual([null, true, true]);
  });

  it("plays a video layer in a clip with a duration, with its sound (before: its first frame held, silent)", async () => {
    const out = await render("clip.mp4", {
      keepSourceAudio: true,
      clips: [{ duration: 2, layers: [{ type: "video", path: recorded, resizeMode: "stretch" }] }],
    });
    expect(near(await colorAt(out, 0.5), RED)).toBe(true);
    expect(near(await colorAt(out, 1.5), BLUE)).toBe(true);
    expect(await meanVolume(out, 0.2, 1.5)).toBeGreaterThan(-40);
  }, 60_000);

  it("takes the cut of a video layer sized by its cutTo (before: a speed of 0, no picture)", async () => {
    const out = await render("cut.mp4", {
      clips: [{ layers: [{ type: "video", path: recorded, cutFrom: 1, cutTo: 2, resizeMode: "stretch" }] }],
    });
    expect(near(await colorAt(out, 0.5), BLUE)).toBe(true);
  }, 60_000);

  it("plays an audio track of it and an audio layer of it (before: both left out)", async () => {
    const out = await render("tracks.mp4", {
      keepSourceAudio: true,
      audioTracks: [{ path: tone, start: 1 }],
      clips: [
        { duration: 1, layers: [{ type: "pause" }, { type: "audio", path: tone }] },
        { duration: 1, layers: [{ type: "pause" }] },
      ],
    });
    // The layer's tone in the first clip, the track's from 1 s.
    expect(await meanVolume(out, 0.2, 0.6)).toBeGreaterThan(-40);
    expect(await meanVolume(out, 1.2, 0.6)).toBeGreaterThan(-40);
  }, 60_000);
});
