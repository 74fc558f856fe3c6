/**
 * editly's example specs and JsonCut's documented values, rendered for real (small where the assertions
 * allow): ignored options change nothing, editly's volumes mix as weights, its banner draws, an overlay sized
 * in pixels, JsonCut's 120 fps and 1-pixel frames. The examples themselves are validated one by one in
 * packages/contract/test/unit/config/index.editly.test.ts.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../../src/lib/process.ts";
import { closeBrowser } from "../../src/video/raster/browser.ts";
import { renderVideo } from "../../src/video/render.ts";
import { editlyExamples } from "../../../packages/contract/test/helpers/editly-examples.ts";
import { videoConfig } from "../helpers/video-config.ts";
import { colorAt, FIXTURES, meanVolume, near, probeOut } from "./media-helpers.ts";

const examples = editlyExamples({
  video: `${FIXTURES}/kohlipe3.mp4`,
  video2: `${FIXTURES}/kohlipe3.mp4`,
  photo: `${FIXTURES}/img2.jpg`,
  overlay: `${FIXTURES}/emoji.png`,
  music: `${FIXTURES}/winxp.mp3`,
  voice: `${FIXTURES}/speech-en.wav`,
  font: `${FIXTURES}/PatuaOne-Regular.ttf`,
  shader: `${FIXTURES}/none.frag`,
});

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "video-editly-"));
});
afterAll(async () => {
  await closeBrowser();
  await rm(dir, { recursive: true, force: true });
});

const render = async (name: string, config: Record<string, unknown>) => {
  const work = await mkdtemp(join(dir, `${name}-`));
  const outPath = join(dir, `${name}.mp4`);
  const result = await renderVideo({
    jobId: `job_${name}`,
    config: videoConfig(config),
    workDir: work,
    outPath,
    allowLocalFiles: true,
  });
  if (process.env.KEEP_VIDEO) await run("cp", [outPath, `${process.env.KEEP_VIDEO}-${name}.mp4`]);
  return { outPath, result };
};

/** Share of the pixels in `region` (fractions of the frame) at `t` whose channels are all above 200. */
const whiteShare = async (
  path: string,
  t: number,
  region: { x: number; y: number; w: number; h: number },
) => {
  const crop = `crop=iw*${region.w}:ih*${region.h}:iw*${region.x}:ih*${region.y}`;
  const { stdout } = await run("ffmpeg", [
    ...["-v", "error", "-ss", String(t), "-i", path, "-frames:v", "1", "-vf", crop],
    ...["-f", "rawvideo", "-pix_fmt", "rgb24", "-"],
  ]);
  let white = 0;
  for (let i = 0; i < stdout.length; i += 3)
    if (stdout[i]! > 200 && stdout[i + 1]! > 200 && stdout[i + 2]! > 200) white++;
  return white / (stdout.length / 3);
};

describe("editly's examples, rendered as editly runs them", () => {
  it("ph: draws its photo clips and news title at its own size and rate as the GIF its outPath names; the image's duration changes nothing", async () => {
    const { outPath, result } = await render("ph", examples.ph!);
    const p = await probeOut(outPath);
    expect(p.video).toMatchObject({ codec: "gif", width: 240, height: 240, fps: 14 });
    // 14 + 21 + 28 frames (1, 1.5, 2 s at 14 fps) less two transitions of round(0.4 × 14) = 6 frames.
    expect(result.duration).toBeCloseTo(51 / 14, 5);
    expect(near(await colorAt(outPath, 0.2), [0, 0, 0], 30)).toBe(false);
    // The news title's red band (editly's default colour) in the last clip.
    expect(near(await colorAt(outPath, 3.4, { x: 0.02, y: 0.02, w: 0.96, h: 0.96 }), [0, 0, 0], 20)).toBe(
      false,
    );
  });

  it("customOutputArgs: renders the mp4 the service always writes", async () => {
    const { outPath } = await render("customOutputArgs", examples.customOutputArgs!);
    const p = await probeOut(outPath);
    expect(p.video).toMatchObject({ codec: "h264", width: 1280, height: 720, fps: 25 });
    expect(p.duration).toBeCloseTo(2, 1);
  });

  it("commonFeatures' closing banner: editly's gradient with its three lines of text", async () => {
    const { outPath } = await render("banner", {
      width: 320,
      height: 180,
      fps: 10,
      clips: [
        { duration: 1, layers: [{ type: "editly-banner", fontPath: `${FIXTURES}/PatuaOne-Regular.ttf` }] },
      ],
    });
    const middle = { x: 0.25, y: 0.3, w: 0.5, h: 0.4 };
    const edge = { x: 0, y: 0, w: 0.15, h: 1 };
    expect(await whiteShare(outPath, 0.9, middle)).toBeGreaterThan(0.05);
    expect(await whiteShare(outPath, 0.9, edge)).toBe(0);
    expect(near(await colorAt(outPath, 0.9, edge), [0, 0, 0], 30)).toBe(false);
  });
});

describe("editly's volumes", () => {
  // The same second of speech at weight 10, then at weight 50, beside silent clips weighted 50 (audio2's numbers).
  const config = {
    width: 64,
    height: 64,
    fps: 10,
    clipsAudioVolume: 50,
    audioTracks: [
      { path: `${FIXTURES}/speech-en.wav`, mixVolume: 10, cutFrom: 1, cutTo: 2, start: 0 },
      { path: `${FIXTURES}/speech-en.wav`, mixVolume: "50", cutFrom: 1, cutTo: 2, start: 2 },
    ],
    clips: [{ duration: 4, layers: [{ type: "fill-color", color: "#000000" }] }],
  };

  it("mix as weights relative to each other: the heaviest plays as recorded, the others in proportion", async () => {
    const { outPath } = await render("weights", config);
    // The same second alone at the default volume 1: as recorded.
    const alone = await render("weight1", {
      ...config,
      clipsAudioVolume: 1,
      audioTracks: [{ path: `${FIXTURES}/speech-en.wav`, cutFrom: 1, cutTo: 2, start: 2 }],
    });
    const recorded = await meanVolume(alone.outPath, 2, 1);
    const light = await meanVolume(outPath, 0, 1);
    const heavy = await meanVolume(outPath, 2, 1);
    // Gains of 10 and 50 would clip at 0 dBFS; weights give 0.2 (−14 dB) and 1.
    expect(Math.abs(heavy - recorded)).toBeLessThan(0.5);
    expect(heavy - light).toBeGreaterThan(12.5);
    expect(heavy - light).toBeLessThan(15.5);
  });

  it("weigh the background track by backgroundAudioVolume in the same mix", async () => {
    const speech = { width: 64, height: 64, fps: 10, audioFilePath: `${FIXTURES}/speech-en.wav` };
    const clips = [{ duration: 2, layers: [{ type: "fill-color", color: "#000000" }] }];
    const alone = await render("bg1", { ...speech, clips });
    // Weight 5 beside a track of weight 50 (it starts after the end: silent, but it counts, as in editly): 0.1.
    const weighed = await render("bg5", {
      ...speech,
      clips,
      backgroundAudioVolume: "5",
      audioTracks: [{ path: `${FIXTURES}/winxp.mp3`, mixVolume: 50, start: 10 }],
    });
    const drop = (await meanVolume(alone.outPath, 0.2, 1.5)) - (await meanVolume(weighed.outPath, 0.2, 1.5));
    expect(drop).toBeGreaterThan(18.5);
    expect(drop).toBeLessThan(21.5);
  });

  it("normalise with editly's maxGain of 100, and with JsonCut's 0 (raised to ffmpeg's least, 1)", async () => {
    for (const maxGain of [100, 0]) {
      const { outPath } = await render(`norm${maxGain}`, {
        ...config,
        audioNorm: { enable: true, gaussSize: 3, maxGain },
      });
      expect((await probeOut(outPath)).audio?.codec).toBe("aac");
      expect(await meanVolume(outPath, 2, 1)).toBeGreaterThan(-60);
    }
  });
});

describe("JsonCut's sizes and rates", () => {
  it("renders 120 fps, transitions included", async () => {
    const { outPath, result } = await render("fps120", {
      width: 64,
      height: 36,
      fps: 120,
      clips: [
        {
          duration: 0.5,
          transition: { name: "fade", duration: 0.25 },
          layers: [{ type: "fill-color", color: "#ff0000" }],
        },
        { duration: 0.5, layers: [{ type: "fill-color", color: "#0000ff" }] },
      ],
    });
    expect(result.duration).toBeCloseTo(0.75, 5);
    const p = await probeOut(outPath);
    expect(p.video).toMatchObject({ width: 64, height: 36, fps: 120 });
    const { stdout } = await run("ffprobe", [
      ...["-v", "error", "-count_frames", "-select_streams", "v:0"],
      ...["-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", outPath],
    ]);
    expect(Number(stdout.toString().trim())).toBe(90);
    expect(near(await colorAt(outPath, 0.375), [128, 0, 128], 50)).toBe(true);
  });

  it("renders a 1-pixel frame at the smallest even size, 2x2", async () => {
    const { outPath } = await render("onepx", {
      width: 1,
      height: 1,
      clips: [{ duration: 0.2, layers: [{ type: "fill-color", color: "#00ff00" }] }],
    });
    expect((await probeOut(outPath)).video).toMatchObject({ width: 2, height: 2 });
    expect(near(await colorAt(outPath, 0.1, { x: 0, y: 0, w: 1, h: 1 }), [0, 255, 0], 40)).toBe(true);
  });

  it("sizes an image-overlay in pixels above 1, a fraction of the frame up to 1", async () => {
    const { outPath } = await render("overlay-px", {
      width: 160,
      height: 90,
      fps: 10,
      clips: [
        {
          duration: 0.3,
          layers: [
            { type: "fill-color", color: "#000000" },
            { type: "image-overlay", path: `${FIXTURES}/emoji.png`, width: 40, position: "top-left" },
            { type: "image-overlay", path: `${FIXTURES}/emoji.png`, width: 0.25, position: "top-right" },
          ],
        },
      ],
    });
    // Both 40 px wide (0.25 of 160): faces in the top corners, black between and below them.
    expect(near(await colorAt(outPath, 0.1, { x: 0.03, y: 0.08, w: 0.19, h: 0.3 }), [0, 0, 0], 40)).toBe(
      false,
    );
    expect(near(await colorAt(outPath, 0.1, { x: 0.78, y: 0.08, w: 0.19, h: 0.3 }), [0, 0, 0], 40)).toBe(
      false,
    );
    expect(near(await colorAt(outPath, 0.1, { x: 0.3, y: 0.05, w: 0.4, h: 0.9 }), [0, 0, 0], 8)).toBe(true);
    expect(near(await colorAt(outPath, 0.1, { x: 0, y: 0.6, w: 1, h: 0.4 }), [0, 0, 0], 8)).toBe(true);
  });
});
