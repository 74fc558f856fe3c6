/**
 * Frame-addressable rendering (issue 41): a window of the timeline (a still, a chunk, a preview) draws the frames
 * the single render draws at those numbers, whatever it starts or ends inside of: a Ken Burns zoom, a fade and a
 * transition drawn by its GLSL, a video cut and stretched, a title's fade, a subtitle's and a news title's eased
 * banner, a slide-in text, a gradient turning, a gl layer, an animated html page, a caption of a captions file.
 * Stills are written as PNG (exact) and compared with the single render's frame (x264 at crf 20): a mean
 * difference within the encoder's noise, where the frames either side differ by much more. Generated configs and
 * random windows: the property at the end.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validateJobConfig, type VideoConfig } from "@media-render/contract/config";
import { buildTimeline } from "@media-render/contract/timeline";
import { configJsonSchema } from "../../../src/schemas/json-schemas.ts";
import {
  arbitraryOf,
  withTinyCanvas,
  type MediaChoices,
  type Schema,
} from "../../../test/config-arbitrary.ts";
import { run } from "../../src/lib/process.ts";
import { closeBrowser } from "../../src/video/raster/browser.ts";
import { videoConfig } from "../helpers/video-config.ts";
import { FIXTURES, renderInto } from "./media-helpers.ts";

const W = 160;
const H = 90;
const FPS = 10;
let dir: string;

/** Every frame of `path` as RGB, `w` x `h`. */
const framesOf = async (path: string, w = W, h = H): Promise<Buffer[]> => {
  const { stdout } = await run("ffmpeg", [
    "-v",
    "error",
    "-threads",
    "1",
    "-i",
    path,
    "-f",
    "rawvideo",
    "-pix_fmt",
    "rgb24",
    "-",
  ]);
  const size = w * h * 3;
  return Array.from({ length: stdout.length / size }, (_, i) => stdout.subarray(i * size, (i + 1) * size));
};

/** Mean absolute difference of two RGB frames, per channel value (0-255). */
const difference = (a: Buffer, b: Buffer): number => {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
};

/** Renders `config` into `name` (a still's PNG, a chunk's segment, a preview...): its output path. */
const render = (name: string, config: VideoConfig, extra: Record<string, unknown> = {}) =>
  renderInto(dir, name, "job_windows", config, extra);

/**
 * Encoder noise: a PNG and the x264 encode (crf 20) of one picture differ by about 1 on flat colours and up to 4 on
 * a detailed photo at this size; frames one apart in the moving parts here differ by 9 to 70.
 */
const NOISE = 6;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "video-windows-"));
});
afterAll(async () => {
  await closeBrowser();
  await rm(dir, { recursive: true, force: true });
});

describe("a window of the timeline draws the single render's frames, at every kind of boundary", () => {
  let config: VideoConfig;
  let single: Buffer[];
  /** The boundary kinds and the frame each window starts at (4 clips of 2 s at 10 fps, 0.5 s transitions). */
  const AT = {
    "mid Ken Burns zoom and title fade": 3,
    "mid fade between clips": 17,
    "inside a video cut and stretched (three times as fast)": 24,
    "mid subtitle slide": 21,
    "mid transition drawn by its GLSL": 33,
    "mid gl layer and news title": 41,
    "mid caption": 38,
    "mid html animation": 46,
    "mid gradient turn and slide-in text": 59,
  } as const;

  beforeAll(async () => {
    const captions = join(dir, "cues.srt");
    await writeFile(captions, "1\n00:00:03,500 --> 00:00:04,400\nA caption across\n");
    config = videoConfig({
      width: W,
      height: H,
      fps: FPS,
      defaults: { transition: { name: "fade", duration: 0.5 } },
      captionsFile: captions,
      clips: [
        {
          duration: 2,
          layers: [
            { type: "image", path: `${FIXTURES}/img2.jpg`, zoomDirection: "in", zoomAmount: 0.4 },
            { type: "title", text: "Zoom", animationDuration: 1 },
          ],
        },
        {
          duration: 2,
          transition: { name: "cube", duration: 0.5 },
          layers: [
            { type: "video", path: `${FIXTURES}/kohlipe3.mp4`, cutFrom: 2, cutTo: 8 },
            { type: "subtitle", text: "Sliding in", fontSize: 30, backgroundColor: "#ffffff" },
          ],
        },
        {
          duration: 2,
          layers: [
            {
              type: "gl",
              fragmentShader:
                "uniform float time; uniform vec2 resolution; void main() { vec2 p = gl_FragCoord.xy / resolution; gl_FragColor = vec4(p.x, fract(time), p.y, 1.0); }",
            },
            { type: "news-title", text: "News" },
          ],
        },
        {
          duration: 2,
          layers: [
            { type: "linear-gradient", colors: ["#ff0000", "#0000ff"] },
            { type: "slide-in-text", text: "Slide" },
          ],
        },
      ],
      globalLayers: [
        {
          type: "html",
          animated: true,
          start: 4,
          stop: 6,
          html: `<style>html,body{margin:0}#b{position:absolute;left:0;top:40px;width:20px;height:20px;background:#0f0;animation:mv 2s linear forwards}@keyframes mv{to{left:140px}}</style><div id="b"></div>`,
        },
      ],
    });
    single = await framesOf(await render("single.mp4", config));
  }, 240_000);

  it("renders the single render whole: 4 clips of 20 frames less three 5-frame transitions", () => {
    expect([buildTimeline(config).totalFrames, single.length]).toEqual([65, 65]);
  });

  it.each(Object.entries(AT))(
    "a still %s (frame %i) is the single render's frame",
    async (name, k) => {
      const still = await render(`still-${k}.png`, videoConfig({ ...config, still: { time: k / FPS } }), {
        format: "png",
      });
      const [frame] = await framesOf(still);
      const here = difference(frame!, single[k]!);
      // The boundary is animated there: the frames either side are much farther from it (the test can tell them apart).
      const neighbours = Math.min(difference(frame!, single[k - 1]!), difference(frame!, single[k + 1]!));
      if (process.env.DEBUG_WINDOWS)
        console.log(
          name,
          k,
          [-3, -2, -1, 0, 1, 2, 3].map((d) => difference(frame!, single[k + d]!).toFixed(1)).join(" "),
        );
      expect({ name, here: here < NOISE, moving: neighbours > here }).toEqual({
        name,
        here: true,
        moving: true,
      });
    },
    120_000,
  );

  it("chunks cut at each boundary kind join into the single render's frames", async () => {
    const windows = [0, 3, 17, 24, 33, 46, 59, 65];
    const joined: Buffer[] = [];
    for (let i = 0; i + 1 < windows.length; i++) {
      // A window over [start, end): the chunk of a split whose cuts are the boundary frames.
      const segment = await render(`seg${i}.mp4`, config, {
        segment: { start: windows[i]!, end: windows[i + 1]! },
      });
      joined.push(...(await framesOf(segment)));
    }
    expect(joined).toHaveLength(single.length);
    if (process.env.DEBUG_WINDOWS)
      console.log(joined.map((f, k) => `${k}:${difference(f, single[k]!).toFixed(1)}`).join(" "));
    const worst = Math.max(...joined.map((f, k) => difference(f, single[k]!)));
    expect(worst).toBeLessThan(NOISE);
  }, 300_000);

  it("a preview of a range draws the single render's frames there, with the mix of those seconds", async () => {
    const preview = await render("preview.mp4", videoConfig({ ...config, preview: { from: 3.2, to: 4.7 } }));
    const frames = await framesOf(preview);
    expect(frames).toHaveLength(15);
    frames.forEach((f, i) => expect(difference(f, single[32 + i]!), `frame ${32 + i}`).toBeLessThan(NOISE));
  }, 120_000);
});

describe("a window where a video layer holds its last frame (the file ran out before the layer)", () => {
  // 0.41 s of the 34.91 s file over a 2 s clip: the single render holds the file's last frame from frame 5 on.
  const config = videoConfig({
    width: W,
    height: H,
    fps: FPS,
    clips: [{ duration: 2, layers: [{ type: "video", path: `${FIXTURES}/kohlipe3.mp4`, cutFrom: 34.5 }] }],
  });
  let single: Buffer[];
  beforeAll(async () => {
    single = await framesOf(await render("held.mp4", config));
  }, 120_000);

  it("a still and a chunk inside the hold draw the held frame (before: a seek past the file's end drew none)", async () => {
    expect(single).toHaveLength(20);
    const still = await render("held-15.png", videoConfig({ ...config, still: { time: 1.5 } }), {
      format: "png",
    });
    const [frame] = await framesOf(still);
    expect(difference(frame!, single[15]!)).toBeLessThan(NOISE);
    const chunk = await framesOf(await render("held-seg.mp4", config, { segment: { start: 12, end: 20 } }));
    expect(chunk).toHaveLength(8);
    chunk.forEach((f, k) => expect(difference(f, single[12 + k]!), `frame ${12 + k}`).toBeLessThan(NOISE));
  }, 120_000);
});

/** Files a generated config may name: the shared fixtures, by the references the generator draws. */
const MEDIA: MediaChoices = {
  image: [`${FIXTURES}/img2.jpg`, `${FIXTURES}/emoji.png`],
  video: [`${FIXTURES}/kohlipe3.mp4`],
  audio: [`${FIXTURES}/winxp.mp3`],
  font: [`${FIXTURES}/PatuaOne-Regular.ttf`],
  captions: [],
  shader: [],
};

describe("generated configs: any window draws the single render's frames at its numbers", () => {
  const RUNS = Number(process.env.FC_WINDOWS ?? 4);
  const configs = fc
    .sample(withTinyCanvas(arbitraryOf(configJsonSchema("video") as unknown as Schema, MEDIA)), {
      seed: Number(process.env.FC_SEED ?? 41_2026),
      numRuns: RUNS * 40,
    })
    .flatMap((raw) => {
      // Accepted, at least 4 frames, drawn as mp4 (windows of a GIF or an audio file are not cut), no captions.
      const checked = validateJobConfig("video", { ...(raw as object), format: "mp4", autoSubtitles: false });
      if (!checked.valid || checked.type !== "video") return [];
      const c = checked.config;
      if (c.still || c.preview || c.fast || c.poster || c.thumbnails || c.captionsFile) return [];
      const frames = buildTimeline(c).totalFrames;
      return frames >= 4 && frames <= 60 ? [{ config: c, frames }] : [];
    })
    .slice(0, RUNS);

  let refused = 0;

  it("draws enough configs to be worth it", () => expect(configs).toHaveLength(RUNS));

  it.each(configs.map((c, i) => [i, c] as const))(
    "config %i",
    async (i, { config, frames }) => {
      const size = {
        w: Math.max(2, config.width! - (config.width! % 2)),
        h: Math.max(2, config.height! - (config.height! % 2)),
      };
      let whole: Buffer[];
      try {
        whole = await framesOf(await render(`gen${i}.mp4`, config), size.w, size.h);
      } catch {
        // A config the renderer refuses (its own fault, e.g. a shader that does not compile) has no frames to cut.
        refused++;
        return;
      }
      // Two windows a run: one from the start, one cut somewhere inside; seeded by the config's index.
      const cut = 1 + ((i * 7919) % (frames - 2));
      for (const [start, end] of [
        [0, cut],
        [cut, frames],
      ] as const) {
        const part = await framesOf(
          await render(`gen${i}-${start}.mp4`, config, { segment: { start, end } }),
          size.w,
          size.h,
        );
        expect(part, `config ${i} window [${start}, ${end})`).toHaveLength(end - start);
        part.forEach((f, k) =>
          expect(
            difference(f, whole[start + k]!),
            `config ${i} frame ${start + k}: ${JSON.stringify(config)}`,
          ).toBeLessThan(NOISE),
        );
      }
    },
    240_000,
  );

  it("rendered most of them (a refused one proves nothing about windows)", () =>
    expect(refused).toBeLessThanOrEqual(RUNS / 4));
});
