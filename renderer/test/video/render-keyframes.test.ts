/**
 * Keyframed layers (issue 45 §1) render at the interpolated values: at chosen frames, for every easing, a box's
 * position, opacity, rotation and scale are measured in the pixels and compared with the contract's `valueAt` at
 * that frame's time; a still and a chunk starting mid-animation draw what the single render draws there.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { VideoConfig } from "@media-render/contract/config";
import { valueAt, type Keyframe } from "@media-render/contract/keyframes";
import { run } from "../../src/lib/process.ts";
import { keyframeExpr, layerTime } from "../../src/video/layers/keyframe-expr.ts";
import { videoConfig } from "../helpers/video-config.ts";
import { FIXTURES, greyFrames, meanVolume, renderInto } from "./media-helpers.ts";

const W = 160;
const H = 90;
const FPS = 10;
/** Frames of each clip (2 s). */
const CLIP = 20;
const EASINGS = ["linear", "ease-in", "ease-out", "ease-in-out", "step", "cubic-bezier(0.7, -0.4, 0.3, 1.4)"];
let dir: string;
/** A white 32 x 18 PNG: at width 0.2 of the frame, drawn at its own size. */
let white: string;

/** Every frame of `path` as gray bytes (Y of the decoded frame, full range). */
const framesOf = (path: string): Promise<Buffer[]> => greyFrames(path, W, H);

const render = (name: string, config: VideoConfig, extra: Record<string, unknown> = {}) =>
  renderInto(dir, name, "job_keyframes", config, extra);

/** Mean absolute difference of two gray frames. */
const difference = (a: Buffer, b: Buffer): number => {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
};

/** Centre column of the white pixels (> 128) in rows [y0, y1); NaN when there are none. */
const centreX = (frame: Buffer, y0: number, y1: number): number => {
  let sum = 0;
  let n = 0;
  for (let y = y0; y < y1; y++)
    for (let x = 0; x < W; x++)
      if (frame[y * W + x]! > 128) {
        sum += x + 0.5;
        n++;
      }
  return n ? sum / n : Number.NaN;
};

const clamp01 = (v: number) => Math.min(1, Math.max(0, v));

/** Centre row of the white pixels (> 128) in columns [x0, x1) of the frame's lower half; NaN when there are none. */
const centreY = (frame: Buffer, x0: number, x1: number): number => {
  let sum = 0;
  let n = 0;
  for (let y = H / 2; y < H; y++)
    for (let x = x0; x < x1; x++)
      if (frame[y * W + x]! > 128) {
        sum += y + 0.5;
        n++;
      }
  return n ? sum / n : Number.NaN;
};

/** Mean gray of the rectangle [x0, x1) x [y0, y1). */
const meanOf = (frame: Buffer, x0: number, x1: number, y0: number, y1: number): number => {
  let sum = 0;
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) sum += frame[y * W + x]!;
  return sum / ((x1 - x0) * (y1 - y0));
};

/** Width of the run of white pixels through the middle of row y (0 when the middle is dark). */
const runWidth = (frame: Buffer, y: number): number => {
  const white = (x: number) => frame[y * W + x]! > 128;
  if (!white(W / 2)) return 0;
  let l = W / 2;
  let r = W / 2;
  while (l > 0 && white(l - 1)) l--;
  while (r < W - 1 && white(r + 1)) r++;
  return r - l + 1;
};

/** Height of the run of white pixels through the middle of column x (0 when the middle is dark). */
const columnHeight = (frame: Buffer, x: number): number => {
  const white = (y: number) => frame[y * W + x]! > 128;
  if (!white(H / 2)) return 0;
  let t = H / 2;
  let b = H / 2;
  while (t > 0 && white(t - 1)) t--;
  while (b < H - 1 && white(b + 1)) b++;
  return b - t + 1;
};

/** 0 to 1 from 0.2 s to 1.6 s with `easing`. */
const curve = (from: number, to: number, easing: string): Keyframe[] => [
  { time: 0.2, value: from, easing },
  { time: 1.6, value: to },
];

/** A global layer's keyframes over the whole timeline: a small box sliding down the bottom left corner. */
const globalY: Keyframe[] = [
  { time: 0, value: 0.6, easing: "ease-out" },
  { time: 11, value: 0.9 },
];

/**
 * One clip per easing: a box moving along the top half, a box fading in on the bottom half; and a global layer moving
 * down the bottom left corner across all of them.
 */
const easingsConfig = () =>
  videoConfig({
    width: W,
    height: H,
    fps: FPS,
    globalLayers: [{ type: "image-overlay", path: white, width: 0.1, position: { x: 0.1, y: globalY } }],
    clips: EASINGS.map((easing) => ({
      duration: CLIP / FPS,
      layers: [
        { type: "pause", color: "black" },
        { type: "image-overlay", path: white, width: 0.2, position: { x: curve(0.2, 0.8, easing), y: 0.25 } },
        {
          type: "image-overlay",
          path: white,
          width: 0.2,
          position: { x: 0.5, y: 0.75 },
          opacity: curve(0, 1, easing),
        },
      ],
    })),
  });

/** Frames sampled in each clip: before, inside (several) and after the animation. */
const SAMPLES = [0, 3, 6, 9, 12, 15, 19];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "video-keyframes-"));
  white = join(dir, "white.png");
  await run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "color=white:s=32x18", "-frames:v", "1", white]);
});
afterAll(async () => {
  // KEEP_KEYFRAMES=1 keeps the renders to look at.
  if (process.env.KEEP_KEYFRAMES) console.log(`renders kept in ${dir}`);
  else await rm(dir, { recursive: true, force: true });
});

describe("the expression ffmpeg evaluates", () => {
  /** ffmpeg's value of `keyframeExpr` at frames 0..n-1 at `fps`, as exact doubles (aevalsrc at one sample a frame). */
  const ffmpegValues = async (frames: readonly Keyframe[], fps: number, n: number): Promise<number[]> => {
    const expr = keyframeExpr(frames, layerTime("t", fps, 0));
    const { stdout } = await run("ffmpeg", [
      "-v",
      "error",
      "-f",
      "lavfi",
      "-i",
      `aevalsrc=exprs='${expr}':s=${fps}:d=${n / fps}`,
      "-f",
      "f64le",
      "-c:a",
      "pcm_f64le",
      "-",
    ]);
    return Array.from({ length: n }, (_, i) => stdout.readDoubleLE(i * 8));
  };

  it("gives valueAt's number at every frame, for generated keyframes of every easing", async () => {
    const easing = fc.oneof(
      fc.constantFrom("linear", "ease-in", "ease-out", "ease-in-out", "step"),
      fc
        .tuple(
          fc.integer({ min: 0, max: 100 }),
          fc.integer({ min: -200, max: 200 }),
          fc.integer({ min: 0, max: 100 }),
          fc.integer({ min: -200, max: 200 }),
        )
        .map(([a, b, c, d]) => `cubic-bezier(${a / 100}, ${b / 100}, ${c / 100}, ${d / 100})`),
    );
    const keyframes = fc
      .uniqueArray(fc.integer({ min: 0, max: 40 }), { minLength: 1, maxLength: 6 })
      .chain((times) =>
        fc.tuple(
          ...[...times]
            .sort((a, b) => a - b)
            .map((t) =>
              fc.record({
                time: fc.constant(t / 10),
                value: fc.integer({ min: -1000, max: 1000 }).map((v) => v / 10),
                easing,
              }),
            ),
        ),
      );
    await fc.assert(
      fc.asyncProperty(keyframes, fc.constantFrom(10, 24, 25, 30), async (frames, fps) => {
        const n = Math.ceil(4.5 * fps);
        const got = await ffmpegValues(frames, fps, n);
        // Within 5e-5: ffmpeg's frame time is not exactly i / fps in binary, and a steep Bézier near a keyframe
        // turns that into ~5e-7 of a value (seen: -84.7999995 for -84.8); a pixel or an alpha step is far more.
        got.forEach((v, i) =>
          expect({ i, v }).toEqual({ i, v: expect.closeTo(valueAt(frames, i / fps), 4) }),
        );
      }),
      { numRuns: 12 },
    );
  }, 120_000);
});

describe("keyframed position and opacity, every easing", () => {
  let config: VideoConfig;
  let single: Buffer[];
  beforeAll(async () => {
    config = easingsConfig();
    single = await framesOf(await render("easings.mp4", config));
  }, 120_000);

  it.each(EASINGS.map((easing, c) => [easing, c] as const))(
    "%s: the box is where the keyframes put it and as opaque as they say, frame by frame",
    (easing, c) => {
      const rows = SAMPLES.map((k) => {
        const frame = single[c * CLIP + k]!;
        const t = k / FPS;
        return {
          k,
          x: Math.abs(centreX(frame, 0, H / 2) - valueAt(curve(0.2, 0.8, easing), t) * W) <= 2.5,
          // An overshooting curve's opacity is held to 0..1.
          opacity:
            Math.abs(meanOf(frame, 74, 86, 64, 72) - 255 * clamp01(valueAt(curve(0, 1, easing), t))) <= 8,
        };
      });
      expect(rows).toEqual(SAMPLES.map((k) => ({ k, x: true, opacity: true })));
    },
  );

  it("moves a global layer by its keyframes over the whole timeline, counted from the video's start", () => {
    const ks = [0, 17, 45, 66, 93, 119];
    const rows = ks.map((k) => ({
      k,
      y: Math.abs(centreY(single[k]!, 0, 30) - valueAt(globalY, k / FPS) * H) <= 2.5,
    }));
    expect(rows).toEqual(ks.map((k) => ({ k, y: true })));
  });

  it("a still mid-animation draws the single render's frame and the keyframes' values there", async () => {
    // Clip 1 (ease-in) frame 9: 0.9 s, half way through its animation.
    const k = CLIP + 9;
    const still = await render("still.png", videoConfig({ ...config, still: { time: k / FPS } }), {
      format: "png",
    });
    const { stdout } = await run("ffmpeg", [
      "-v",
      "error",
      "-i",
      still,
      "-f",
      "rawvideo",
      "-pix_fmt",
      "gray",
      "-",
    ]);
    expect(difference(stdout, single[k]!)).toBeLessThan(3);
    expect(difference(stdout, single[k - 1]!)).toBeGreaterThan(difference(stdout, single[k]!));
    expect(centreX(stdout, 0, H / 2)).toBeCloseTo(valueAt(curve(0.2, 0.8, "ease-in"), 0.9) * W, -0.7);
  }, 60_000);

  it("a chunk starting mid-animation joins the single render's frames", async () => {
    const segment = await render("segment.mp4", config, {
      segment: { start: 2 * CLIP + 7, end: 3 * CLIP + 11 },
    });
    const frames = await framesOf(segment);
    expect(frames.length).toBe(CLIP + 4);
    const worst = Math.max(...frames.map((frame, i) => difference(frame, single[2 * CLIP + 7 + i]!)));
    expect(worst).toBeLessThan(3);
    // Each moving box where its keyframes put it at the frame's own time (a small box moves the mean little).
    const at = [0, 6, 13, 23].map((i) => {
      const k = 2 * CLIP + 7 + i;
      const easing = EASINGS[Math.floor(k / CLIP)]!;
      return {
        i,
        x:
          Math.abs(centreX(frames[i]!, 0, H / 2) - valueAt(curve(0.2, 0.8, easing), (k % CLIP) / FPS) * W) <=
          2.5,
        y: Math.abs(centreY(frames[i]!, 0, 30) - valueAt(globalY, k / FPS) * H) <= 2.5,
      };
    });
    expect(at).toEqual([0, 6, 13, 23].map((i) => ({ i, x: true, y: true })));
  }, 60_000);
});

describe("keyframed rotation and scale", () => {
  let frames: Buffer[];
  const rotation: Keyframe[] = [
    { time: 0, value: 0, easing: "ease-out" },
    { time: 1.9, value: 90 },
  ];
  const scale: Keyframe[] = [
    { time: 0, value: 0.1, easing: "ease-in-out" },
    { time: 1.9, value: 0.6 },
  ];
  beforeAll(async () => {
    const config = videoConfig({
      width: W,
      height: H,
      fps: FPS,
      clips: [
        {
          duration: 2,
          layers: [{ type: "pause" }, { type: "fill-color", color: "white", scale: 0.5, rotation }],
        },
        { duration: 2, layers: [{ type: "pause" }, { type: "fill-color", color: "white", scale }] },
        {
          duration: 1,
          layers: [
            { type: "pause" },
            {
              type: "fill-color",
              color: "white",
              scale: [
                { time: 0, value: 0 },
                { time: 0.9, value: 0.5 },
              ],
            },
          ],
        },
      ],
    });
    frames = await framesOf(await render("turns.mp4", config));
  }, 120_000);

  it("turns the box by the keyframes' angle about its centre", () => {
    // An 80 x 44 box turned by a: the middle row crosses min(80 / |cos a|, 44 / |sin a|) of it.
    for (const k of [0, 4, 8, 12, 19]) {
      const a = (valueAt(rotation, k / FPS) * Math.PI) / 180;
      const expected = Math.min(80 / Math.abs(Math.cos(a)), 44 / Math.abs(Math.sin(a)));
      expect({ k, width: runWidth(frames[k]!, H / 2) }).toEqual({ k, width: expect.closeTo(expected, -0.8) });
    }
  });

  it("draws nothing while the scale is 0 (not a speck of the 2 px the scaled stream keeps)", () => {
    expect(Math.max(...frames[2 * CLIP]!)).toBeLessThan(40);
    expect(runWidth(frames[2 * CLIP + 9]!, H / 2)).toBe(80);
  });

  it("scales the box about the frame's centre by the keyframes' factor", () => {
    for (const k of [0, 5, 10, 15, 19]) {
      const expected = 2 * Math.round((W * valueAt(scale, k / FPS)) / 2);
      expect({ k, width: runWidth(frames[CLIP + k]!, H / 2) }).toEqual({
        k,
        width: expect.closeTo(expected, -0.5),
      });
    }
  });
});

describe("keyframed width and height", () => {
  it("resizes an image-overlay by its width (its aspect kept) and an image by its width alone, about their centres", async () => {
    const width: Keyframe[] = [
      { time: 0, value: 0.1, easing: "ease-in-out" },
      { time: 1.9, value: 0.6 },
    ];
    const config = videoConfig({
      width: W,
      height: H,
      fps: FPS,
      clips: [
        { duration: 2, layers: [{ type: "pause" }, { type: "image-overlay", path: white, width }] },
        {
          duration: 2,
          layers: [
            { type: "pause" },
            { type: "image", path: white, zoomDirection: null, width, height: 0.5 },
          ],
        },
      ],
    });
    const frames = await framesOf(await render("sizes.mp4", config));
    const rows = [0, 5, 10, 15, 19].map((k) => {
      const expected = W * valueAt(width, k / FPS);
      const overlay = frames[k]!;
      const image = frames[CLIP + k]!;
      return {
        k,
        overlayWidth: Math.abs(runWidth(overlay, H / 2) - expected) <= 2.5,
        // The overlay keeps the picture's 16:9; the image keeps its height, half the frame's.
        overlayHeight: Math.abs(columnHeight(overlay, W / 2) - (expected * 18) / 32) <= 2.5,
        imageWidth: Math.abs(runWidth(image, H / 2) - expected) <= 2.5,
        imageHeight: Math.abs(columnHeight(image, W / 2) - H / 2) <= 2,
      };
    });
    expect(rows).toEqual(
      [0, 5, 10, 15, 19].map((k) => ({
        k,
        overlayWidth: true,
        overlayHeight: true,
        imageWidth: true,
        imageHeight: true,
      })),
    );
  }, 60_000);
});

describe("keyframes on moving media (a looped, sped-up video; an animated GIF)", () => {
  it("moves each by its keyframes at the layer's time, whatever the file's own timing", async () => {
    // A white 1 s video and a two-frame GIF of near-whites (each frame 0.3 s): both read as the white box.
    const clip = join(dir, "white.mp4");
    await run("ffmpeg", [
      ...["-v", "error", "-f", "lavfi", "-i", "color=white:s=64x36:r=10:d=1"],
      ...["-c:v", "libx264", "-pix_fmt", "yuv420p", clip],
    ]);
    const gif = join(dir, "whites.gif");
    await run("ffmpeg", [
      ...["-v", "error", "-f", "lavfi", "-i"],
      "nullsrc=s=32x18:r=10:d=0.2,format=gray,geq=lum='240+15*mod(N,2)',setpts=N*3",
      ...["-fps_mode", "passthrough", "-loop", "0", gif],
    ]);
    const x = curve(0.2, 0.8, "ease-in-out");
    const scale = curve(0.5, 1.5, "ease-out");
    const config = videoConfig({
      width: W,
      height: H,
      fps: FPS,
      clips: [
        {
          duration: 2,
          layers: [
            { type: "pause", color: "black" },
            {
              type: "video",
              path: clip,
              speed: 2,
              loop: true,
              width: 0.2,
              height: 0.2,
              position: { x, y: 0.25 },
            },
            { type: "image-overlay", path: gif, width: 0.2, position: { x: 0.5, y: 0.75 }, scale },
          ],
        },
      ],
    });
    const frames = await framesOf(await render("moving-media.mp4", config));
    const rows = SAMPLES.map((k) => ({
      k,
      video: Math.abs(centreX(frames[k]!, 0, H / 2) - valueAt(x, k / FPS) * W) <= 2.5,
      // The GIF scaled about its own box's centre (the animated path reports its box as the still one does).
      gif: Math.abs(runWidth(frames[k]!, 67) - 32 * valueAt(scale, k / FPS)) <= 2.5,
    }));
    expect(rows).toEqual(SAMPLES.map((k) => ({ k, video: true, gif: true })));
  }, 60_000);
});

describe("keyframed mixVolume", () => {
  it("is silent where the keyframes say 0 and loud where they say 1, with a step and a ramp between", async () => {
    const mixVolume: Keyframe[] = [
      { time: 0, value: 0, easing: "step" },
      { time: 1, value: 1 },
      { time: 2, value: 1, easing: "ease-in" },
      { time: 3, value: 0 },
    ];
    const config = videoConfig({
      width: W,
      height: H,
      fps: FPS,
      keepSourceAudio: true,
      clips: [
        {
          duration: 3,
          layers: [
            { type: "pause" },
            { type: "audio", path: `${FIXTURES}/winxp.mp3`, cutFrom: 0, mixVolume },
          ],
        },
      ],
    });
    const out = await render("volume.mp4", config);
    const [held, loud, easing, end] = await Promise.all([
      meanVolume(out, 0.05, 0.9),
      meanVolume(out, 1.1, 0.8),
      meanVolume(out, 2.05, 0.4),
      meanVolume(out, 2.9, 0.1),
    ]);
    expect({ held, loud: loud > -40 }).toEqual({ held: -91, loud: true });
    // ease-in from 1 to 0: still near full in its first fifth, close to silent at its end.
    expect(loud - easing).toBeLessThan(6);
    expect(end).toBeLessThan(loud - 20);
  }, 60_000);
});
