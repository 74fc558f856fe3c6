/**
 * How a video layer plays its cut and an image layer its animated picture (issue 45 §5), by the pixels and the sound
 * of real renders: `loop` repeats a cut shorter than its layer (frame k is the cut's frame k mod its length), `speed`
 * plays it faster or slower (the clip's length follows, the sound keeps its pitch), an animated GIF plays at its own
 * frame delays and loops or holds its last frame, and so does an animated WebP (decoded by sharp into an animated
 * PNG, animated-webp.ts); `frameTime` draws one frame of a video, GIF or WebP as a still. A still and the chunks of a
 * split drawn from inside a loop, a speed change or an animation's frame draw the single render's frames there.
 * Fixtures are made here with ffmpeg (and the WebP with sharp): a clip whose every frame is one flat colour of its own
 * (so a frame is told by its colour), with a 440 Hz tone.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { VideoConfig } from "@media-render/contract/config";
import { run } from "../../src/lib/process.ts";
import { loopMemory } from "../../src/video/layers/playback.ts";
import { videoConfig } from "../helpers/video-config.ts";
import { probeOut, renderInto } from "./media-helpers.ts";

const W = 160;
const H = 90;
const FPS = 10;
let dir: string;
/** The 2 s clip of 20 flat colours with its tone, and the colours of its frames. */
let clip: string;
let clipColours: number[][];
/** The animated GIF: its frames start at 0, 0.2, 0.5, 0.7, 0.8 s and it lasts 2.8 s (its last frame 2 s). */
let gif: string;
let gifColours: number[][];
const GIF_STARTS = [0, 0.2, 0.5, 0.7, 0.8];
const GIF_LENGTH = 2.8;
/** The animated WebP: five frames of these colours on the GIF's timing (delays 0.2, 0.3, 0.2, 0.1 and 2 s). */
let webp: string;
const WEBP_COLOURS = [
  [230, 40, 40],
  [40, 200, 60],
  [50, 70, 220],
  [240, 220, 30],
  [200, 50, 210],
];

/** The mean colour of every frame of `path` (RGB). */
const coloursOf = async (path: string): Promise<number[][]> => {
  const { stdout } = await run("ffmpeg", [
    ...["-v", "error", "-threads", "1", "-i", path, "-fps_mode", "passthrough"],
    ...["-vf", "scale=1:1:flags=area", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"],
  ]);
  return Array.from({ length: stdout.length / 3 }, (_, i) => [...stdout.subarray(i * 3, i * 3 + 3)]);
};

/** The largest difference of one channel between two colours. */
const distance = (a: number[], b: number[]): number => Math.max(...a.map((v, i) => Math.abs(v - b[i]!)));

/** The index of the colour in `palette` nearest `colour`, and how near it is. */
const nearest = (colour: number[], palette: number[][]): { index: number; distance: number } =>
  palette.reduce(
    (best, c, index) => {
      const d = distance(colour, c);
      return d < best.distance ? { index, distance: d } : best;
    },
    { index: -1, distance: Infinity },
  );

/** Which frame of `palette` each frame of `path` shows (-1 where none is within the encoder's noise). */
const framesShown = async (path: string, palette: number[][]): Promise<number[]> =>
  (await coloursOf(path)).map((c) => {
    const n = nearest(c, palette);
    return n.distance <= 8 ? n.index : -1;
  });

const render = (name: string, config: VideoConfig, extra: Record<string, unknown> = {}) =>
  renderInto(dir, name, "job_playback", config, extra);

const config = (layers: Record<string, unknown>[], extra: Record<string, unknown> = {}) =>
  videoConfig({ width: W, height: H, fps: FPS, clips: [{ layers }], ...extra });

/** The frequency (Hz) of the loudest tone between 100 and 2000 Hz in 8192 samples from the middle of the sound. */
const peakFrequency = async (path: string): Promise<number> => {
  const { stdout } = await run("ffmpeg", [
    ...["-v", "error", "-i", path, "-vn", "-ac", "1", "-ar", "48000", "-f", "f32le", "-"],
  ]);
  const all = new Float32Array(stdout.buffer, stdout.byteOffset, Math.floor(stdout.length / 4));
  const n = 8192;
  const from = Math.max(0, Math.floor(all.length / 2 - n / 2));
  const samples = all.subarray(from, from + n);
  let best = { f: 0, power: -1 };
  for (let freq = 100; freq <= 2000; freq += 2) {
    // Goertzel: the power of one frequency.
    const k = (2 * Math.cos((2 * Math.PI * freq) / 48000)) as number;
    let [s1, s2] = [0, 0];
    for (const x of samples) [s1, s2] = [x + k * s1 - s2, s1];
    const power = s1 * s1 + s2 * s2 - k * s1 * s2;
    if (power > best.power) best = { f: freq, power };
  }
  return best.f;
};

const seconds = async (path: string, stream: "a" | "v") => {
  const { stdout } = await run("ffprobe", [
    ...["-v", "error", "-select_streams", `${stream}:0`, "-show_entries", "stream=duration"],
    ...["-of", "csv=p=0", path],
  ]);
  return Number(stdout.toString().trim());
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "video-playback-"));
  clip = join(dir, "colours.mp4");
  await run("ffmpeg", [
    ...["-v", "error", "-f", "lavfi", "-i"],
    `nullsrc=s=${W}x${H}:r=${FPS}:d=2,geq=r='mod(N*53+20,256)':g='mod(N*97+90,256)':b='mod(N*29+160,256)'`,
    ...["-f", "lavfi", "-i", "sine=f=440:r=48000:d=2"],
    ...["-c:v", "libx264", "-g", "5", "-crf", "10", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", clip],
  ]);
  clipColours = await coloursOf(clip);
  gif = join(dir, "steps.gif");
  // Five frames of their own colours, each shown for its own delay (0.2, 0.3, 0.2, 0.1 and 2 s).
  // In ticks of the source's time base (0.1 s): 0.7 / TB in floating point would truncate to 6.
  const starts =
    GIF_STARTS.map((s, i) => `if(eq(N,${i}),${Math.round(s * 10)},`).join("") + "28" + ")".repeat(5);
  await run("ffmpeg", [
    ...["-v", "error", "-f", "lavfi", "-i"],
    `nullsrc=s=32x32:r=10:d=0.5,geq=r='mod(N*90+30,256)':g='mod(N*50+200,256)':b='mod(N*140+10,256)'`,
    ...["-vf", `setpts='${starts}'`, "-fps_mode", "passthrough", "-loop", "0"],
    // The last frame's delay: the GIF muxer cannot know it from a next frame.
    ...["-final_delay", String(Math.round((GIF_LENGTH - GIF_STARTS.at(-1)!) * 100)), gif],
  ]);
  gifColours = await coloursOf(gif);
  if (gifColours.length !== 5) throw new Error(`the GIF fixture has ${gifColours.length} frames, not 5`);
  webp = join(dir, "steps.webp");
  const side = 32;
  const roll = Buffer.concat(
    WEBP_COLOURS.map(([r, g, b]) => Buffer.alloc(side * side * 4).fill(Buffer.of(r!, g!, b!, 255))),
  );
  await sharp(roll, { raw: { width: side, height: side * 5, channels: 4, pageHeight: side } })
    .webp({ lossless: true, loop: 0, delay: [200, 300, 200, 100, 2000] })
    .toFile(webp);
}, 60_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("a looped video layer", () => {
  let single: number[];

  beforeAll(async () => {
    single = await framesShown(
      await render(
        "loop.mp4",
        videoConfig({
          width: W,
          height: H,
          fps: FPS,
          clips: [
            { duration: 5, layers: [{ type: "video", path: clip, loop: true, resizeMode: "stretch" }] },
          ],
        }),
      ),
      clipColours,
    );
  }, 120_000);

  it("shows the cut's frame k mod its length at frame k (without loop it held the last frame)", async () => {
    expect(single).toEqual(Array.from({ length: 50 }, (_, k) => k % 20));
    const held = await framesShown(
      await render(
        "held.mp4",
        videoConfig({
          width: W,
          height: H,
          fps: FPS,
          clips: [{ duration: 3, layers: [{ type: "video", path: clip, resizeMode: "stretch" }] }],
        }),
      ),
      clipColours,
    );
    expect(held).toEqual(Array.from({ length: 30 }, (_, k) => Math.min(k, 19)));
  }, 120_000);

  it("loops a cut inside the file, at its speed: every 5 frames the cut's 10 frames at 2x", async () => {
    const frames = await framesShown(
      await render(
        "loop-cut.mp4",
        videoConfig({
          width: W,
          height: H,
          fps: FPS,
          clips: [
            {
              duration: 2,
              layers: [
                {
                  type: "video",
                  path: clip,
                  cutFrom: 0.5,
                  cutTo: 1.5,
                  speed: 2,
                  loop: true,
                  resizeMode: "stretch",
                },
              ],
            },
          ],
        }),
      ),
      clipColours,
    );
    expect(frames).toEqual(Array.from({ length: 20 }, (_, k) => 5 + 2 * (k % 5)));
  }, 120_000);

  it("a loop too long to hold in memory is decoded again for each time round, to the same frames", async () => {
    const before = loopMemory.bytes;
    loopMemory.bytes = 1;
    try {
      const again = await framesShown(
        await render(
          "loop-inputs.mp4",
          videoConfig({
            width: W,
            height: H,
            fps: FPS,
            clips: [
              { duration: 5, layers: [{ type: "video", path: clip, loop: true, resizeMode: "stretch" }] },
            ],
          }),
        ),
        clipColours,
      );
      expect(again).toEqual(single);
      // A chunk starting in the third time round.
      const chunk = await framesShown(
        await render(
          "loop-inputs-seg.mp4",
          videoConfig({
            width: W,
            height: H,
            fps: FPS,
            clips: [
              { duration: 5, layers: [{ type: "video", path: clip, loop: true, resizeMode: "stretch" }] },
            ],
          }),
          { segment: { start: 43, end: 50 } },
        ),
        clipColours,
      );
      expect(chunk).toEqual(single.slice(43));
    } finally {
      loopMemory.bytes = before;
    }
  }, 180_000);

  it("a still and chunks cut inside the loop draw the single render's frames", async () => {
    const base = {
      width: W,
      height: H,
      fps: FPS,
      clips: [{ duration: 5, layers: [{ type: "video", path: clip, loop: true, resizeMode: "stretch" }] }],
    };
    const still = await framesShown(
      await render("loop-still.png", videoConfig({ ...base, still: { time: 3.3 } }), { format: "png" }),
      clipColours,
    );
    expect(still).toEqual([single[33]]);
    const joined: number[] = [];
    for (const [start, end] of [
      [0, 27],
      [27, 50],
    ] as const)
      joined.push(
        ...(await framesShown(
          await render(`loop-seg-${start}.mp4`, videoConfig(base), { segment: { start, end } }),
          clipColours,
        )),
      );
    expect(joined).toEqual(single);
  }, 180_000);

  it("repeats its sound with the picture: heard to the clip's end, as long as the clip", async () => {
    const out = await render(
      "loop-sound.mp4",
      videoConfig({
        width: W,
        height: H,
        fps: FPS,
        keepSourceAudio: true,
        clips: [{ duration: 5, layers: [{ type: "video", path: clip, loop: true }] }],
      }),
    );
    expect(await seconds(out, "a")).toBeCloseTo(5, 1);
    const { stderr } = await run("ffmpeg", [
      ...[
        "-v",
        "info",
        "-ss",
        "4.2",
        "-t",
        "0.6",
        "-i",
        out,
        "-vn",
        "-af",
        "volumedetect",
        "-f",
        "null",
        "-",
      ],
    ]);
    expect(Number(/mean_volume:\s*(-?[\d.]+) dB/.exec(stderr)?.[1])).toBeGreaterThan(-30);
    expect(await peakFrequency(out)).toBeGreaterThan(430);
  }, 120_000);
});

describe("a video layer's speed", () => {
  it("at 2x a clip without duration lasts half its cut and frame k shows the file at twice its time", async () => {
    const out = await render(
      "fast.mp4",
      config([{ type: "video", path: clip, speed: 2, resizeMode: "stretch" }], { keepSourceAudio: true }),
    );
    expect(await framesShown(out, clipColours)).toEqual([0, 2, 4, 6, 8, 10, 12, 14, 16, 18]);
    // The sound lasts as long and keeps its pitch (a plain speed-up would put the tone at 880 Hz).
    expect((await probeOut(out)).duration).toBeCloseTo(1, 1);
    expect(await seconds(out, "a")).toBeCloseTo(1, 1);
    expect(Math.abs((await peakFrequency(out)) - 440)).toBeLessThanOrEqual(6);
  }, 120_000);

  it("at 0.5x it lasts twice its cut, each frame shown twice, the tone at its pitch", async () => {
    const out = await render(
      "slow.mp4",
      config([{ type: "video", path: clip, speed: 0.5, resizeMode: "stretch" }], { keepSourceAudio: true }),
    );
    expect(await framesShown(out, clipColours)).toEqual(
      Array.from({ length: 40 }, (_, k) => Math.floor(k / 2)),
    );
    expect(await seconds(out, "a")).toBeCloseTo(4, 1);
    expect(Math.abs((await peakFrequency(out)) - 440)).toBeLessThanOrEqual(6);
  }, 120_000);

  it("at 0.25x (two atempo halvings) the tone keeps its pitch over 8 s", async () => {
    const out = await render(
      "slowest.mp4",
      config([{ type: "video", path: clip, speed: 0.25, resizeMode: "stretch" }], { keepSourceAudio: true }),
    );
    expect(await seconds(out, "a")).toBeCloseTo(8, 1);
    expect(Math.abs((await peakFrequency(out)) - 440)).toBeLessThanOrEqual(6);
  }, 120_000);

  it("a still and a chunk starting inside the sped-up cut draw the single render's frames", async () => {
    const base = config([{ type: "video", path: clip, cutFrom: 0.3, speed: 1.5, resizeMode: "stretch" }]);
    const single = await framesShown(await render("speed-single.mp4", base), clipColours);
    expect(single.every((i) => i >= 0)).toBe(true);
    const still = await framesShown(
      await render("speed-still.png", videoConfig({ ...base, still: { time: 0.7 } }), { format: "png" }),
      clipColours,
    );
    expect(still).toEqual([single[7]]);
    const chunk = await framesShown(
      await render("speed-seg.mp4", base, { segment: { start: 4, end: single.length } }),
      clipColours,
    );
    expect(chunk).toEqual(single.slice(4));
  }, 120_000);
});

describe("an animated GIF as an image-overlay", () => {
  /** The GIF frame on screen at `t` seconds, looping or not. */
  const gifFrameAt = (t: number, loop = true) => {
    const at = loop ? t % GIF_LENGTH : Math.min(t, GIF_LENGTH);
    return GIF_STARTS.findLastIndex((s) => s <= at + 1e-9);
  };
  const overlay = (extra: Record<string, unknown> = {}) =>
    videoConfig({
      width: W,
      height: H,
      fps: FPS,
      clips: [
        {
          duration: 4,
          layers: [
            { type: "fill-color", color: "#000000" },
            { type: "image-overlay", path: gif, width: 1, height: 1, ...extra },
          ],
        },
      ],
    });
  let single: number[];
  let once: number[];

  beforeAll(async () => {
    single = await framesShown(await render("gif.mp4", overlay()), gifColours);
    once = await framesShown(await render("gif-once.mp4", overlay({ loop: false })), gifColours);
  }, 120_000);

  it("plays each frame for its own delay and starts again when it ends", () => {
    expect(single).toEqual(Array.from({ length: 40 }, (_, k) => gifFrameAt(k / FPS)));
  });

  it("with loop false plays once and holds its last frame", () => {
    expect(once).toEqual(Array.from({ length: 40 }, (_, k) => gifFrameAt(k / FPS, false)));
  });

  it.each([
    ["looping", {}, () => single],
    ["played once", { loop: false }, () => once],
  ] as const)(
    "%s: a still and chunks starting inside a GIF frame (shown since before the cut) draw the single render's",
    async (name, extra, whole) => {
      // Frame 6 (0.6 s) shows the GIF frame shown since 0.5 s: a window seeking there would skip it. Frame 34 is
      // 0.6 s into the second play.
      const still = await framesShown(
        await render(`gif-still-${name}.png`, videoConfig({ ...overlay(extra), still: { time: 3.4 } }), {
          format: "png",
        }),
        gifColours,
      );
      expect(still).toEqual([whole()[34]]);
      const joined: number[] = [];
      for (const [start, end] of [
        [0, 6],
        [6, 34],
        [34, 40],
      ] as const)
        joined.push(
          ...(await framesShown(
            await render(`gif-seg-${name}-${start}.mp4`, overlay(extra), { segment: { start, end } }),
            gifColours,
          )),
        );
      expect(joined).toEqual(whole());
    },
    180_000,
  );
});

describe("an animated WebP as an image-overlay (ffmpeg 5.1 reads none: decoded by sharp into an animated PNG)", () => {
  /** The WebP frame on screen at `t` seconds (its timing is the GIF's). */
  const webpFrameAt = (t: number, loop = true) => {
    const at = loop ? t % GIF_LENGTH : Math.min(t, GIF_LENGTH);
    return GIF_STARTS.findLastIndex((s) => s <= at + 1e-9);
  };
  const overlay = (extra: Record<string, unknown> = {}, layers: Record<string, unknown>[] = []) =>
    videoConfig({
      width: W,
      height: H,
      fps: FPS,
      clips: [
        {
          duration: 4,
          layers: [
            { type: "fill-color", color: "#000000" },
            { type: "image-overlay", path: webp, width: 1, height: 1, ...extra },
            ...layers,
          ],
        },
      ],
    });
  let single: number[];

  beforeAll(async () => {
    single = await framesShown(await render("webp.mp4", overlay()), WEBP_COLOURS);
  }, 120_000);

  it("is an animated WebP, which ffmpeg here cannot decode", async () => {
    const head = await readFile(webp);
    expect(head.subarray(12, 16).toString("latin1")).toBe("VP8X");
    expect(head[20]! & 0x02).toBe(0x02); // the animation flag
    await expect(run("ffmpeg", ["-v", "error", "-i", webp, "-f", "null", "-"])).rejects.toMatchObject({
      stderrTail: expect.stringContaining("image data not found"),
    });
  });

  it("plays each frame for its own delay and starts again when it ends", () => {
    expect(single).toEqual(Array.from({ length: 40 }, (_, k) => webpFrameAt(k / FPS)));
  });

  it("with loop false plays once and holds its last frame", async () => {
    const once = await framesShown(await render("webp-once.mp4", overlay({ loop: false })), WEBP_COLOURS);
    expect(once).toEqual(Array.from({ length: 40 }, (_, k) => webpFrameAt(k / FPS, false)));
  }, 120_000);

  it("a still and chunks starting inside a WebP frame draw the single render's", async () => {
    const still = await framesShown(
      await render("webp-still.png", videoConfig({ ...overlay(), still: { time: 3.4 } }), { format: "png" }),
      WEBP_COLOURS,
    );
    expect(still).toEqual([single[34]]);
    const joined: number[] = [];
    for (const [start, end] of [
      [0, 6],
      [6, 34],
      [34, 40],
    ] as const)
      joined.push(
        ...(await framesShown(
          await render(`webp-seg-${start}.mp4`, overlay(), { segment: { start, end } }),
          WEBP_COLOURS,
        )),
      );
    expect(joined).toEqual(single);
  }, 180_000);

  it("keeps its transparency: a half-transparent WebP over white is drawn half way to its colour", async () => {
    const half = join(dir, "half.webp");
    const side = 16;
    const roll = Buffer.concat(
      [
        [0, 0, 255, 128],
        [255, 0, 0, 128],
      ].map((c) => Buffer.alloc(side * side * 4).fill(Buffer.from(c))),
    );
    await sharp(roll, { raw: { width: side, height: side * 2, channels: 4, pageHeight: side } })
      .webp({ lossless: true, loop: 0, delay: [500, 500] })
      .toFile(half);
    const colours = await coloursOf(
      await render(
        "webp-alpha.mp4",
        videoConfig({
          width: W,
          height: H,
          fps: FPS,
          clips: [
            {
              duration: 1,
              layers: [
                { type: "fill-color", color: "#ffffff" },
                { type: "image-overlay", path: half, width: 1, height: 1 },
              ],
            },
          ],
        }),
      ),
    );
    expect(distance(colours[2]!, [127, 127, 255])).toBeLessThanOrEqual(10);
    expect(distance(colours[7]!, [255, 127, 127])).toBeLessThanOrEqual(10);
  }, 120_000);

  it("a broken animated WebP fails the job, naming it, without a path", async () => {
    const broken = join(dir, "broken.webp");
    const bytes = await readFile(webp);
    await writeFile(broken, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    const failed = render(
      "webp-broken.mp4",
      videoConfig({
        width: W,
        height: H,
        fps: FPS,
        clips: [{ duration: 1, layers: [{ type: "image-overlay", path: broken }] }],
      }),
    );
    await expect(failed).rejects.toThrow(/^Unreadable media: an animated WebP: (?!.*\/tmp)/);
  }, 60_000);
});

describe("frameTime: one frame of a moving picture as an image layer", () => {
  const still = (layer: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    videoConfig({
      width: W,
      height: H,
      fps: FPS,
      clips: [
        {
          duration: 1,
          layers: [
            { type: "fill-color", color: "#000000" },
            { type: "image-overlay", width: 1, height: 1, ...layer },
          ],
        },
      ],
      ...extra,
    });

  it("of a video: the first frame at or after it, the one a video layer cut from there shows first", async () => {
    const cut = await framesShown(
      await render(
        "cut-075.mp4",
        config([{ type: "video", path: clip, cutFrom: 0.75, cutTo: 1.75, resizeMode: "stretch" }]),
      ),
      clipColours,
    );
    expect(cut[0]).toBe(8);
    for (const [t, frame] of [
      [0, 0],
      [0.75, 8],
      [1, 10],
      [1.9, 19],
    ] as const) {
      const frames = await framesShown(
        await render(`frame-${t}.mp4`, still({ path: clip, frameTime: t })),
        clipColours,
      );
      expect(frames, `frameTime ${t}`).toEqual(Array(10).fill(frame));
    }
  }, 180_000);

  it("in an image layer with Ken Burns, and in a still and a chunk of the timeline", async () => {
    const base = videoConfig({
      width: W,
      height: H,
      fps: FPS,
      clips: [{ duration: 2, layers: [{ type: "image", path: clip, frameTime: 1.3 }] }],
    });
    const single = await framesShown(await render("frame-image.mp4", base), clipColours);
    expect(single).toEqual(Array(20).fill(13));
    const shot = await framesShown(
      await render("frame-image.png", videoConfig({ ...base, still: { time: 1.2 } }), { format: "png" }),
      clipColours,
    );
    expect(shot).toEqual([13]);
    const chunk = await framesShown(
      await render("frame-image-seg.mp4", base, { segment: { start: 7, end: 20 } }),
      clipColours,
    );
    expect(chunk).toEqual(single.slice(7));
  }, 180_000);

  it("of an animated GIF or WebP: the frame it plays at that time", async () => {
    for (const [path, palette, t, frame] of [
      [() => gif, () => gifColours, 0.6, 2],
      [() => gif, () => gifColours, 0.3, 1],
      [() => webp, () => WEBP_COLOURS, 0.72, 3],
      [() => webp, () => WEBP_COLOURS, 2.5, 4],
    ] as const) {
      const frames = await framesShown(
        await render(`frame-anim-${t}.mp4`, still({ path: path(), frameTime: t })),
        palette(),
      );
      expect(frames, `frameTime ${t}`).toEqual(Array(10).fill(frame));
    }
  }, 180_000);

  it("at or after the file's end draws nothing", async () => {
    const colours = await coloursOf(await render("frame-past.mp4", still({ path: clip, frameTime: 2.5 })));
    expect(colours).toHaveLength(10);
    for (const c of colours) expect(distance(c, [0, 0, 0])).toBeLessThanOrEqual(4);
  }, 60_000);
});
