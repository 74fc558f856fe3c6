/**
 * Every config the service accepts renders (issue 40), as a property over configs generated from the JSON Schemas
 * it publishes (config-arbitrary.ts): validation refuses a config with field errors or accepts it; an accepted one
 * is stored in normal form, which validates again unchanged and is what the renderer's request schema takes; its
 * plan builds (or is refused with field errors, as creation would refuse it); the estimate is a whole number of
 * tokens and is exactly what the job is charged for that length; and the renderer's compile step (its spec, the
 * output's shape, the timeline, the filter graphs of every pass, the ffmpeg arguments) builds without throwing.
 * Image configs likewise, up to the HTML page the image renderer screenshots.
 *
 * Seeded (FC_SEED, else a fixed seed) so a run is reproducible; a failure prints the shrunk config. The real
 * renders of generated configs are in renderer/test/video/generated-configs.test.ts.
 */
import fc from "fast-check";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import {
  estimateTokens,
  validateJobConfig,
  type ImageConfig,
  type VideoConfig,
} from "@media-render/contract/config";
import { videoJobTokens } from "@media-render/contract/config/estimate";
import { renderedSeconds } from "@media-render/contract/config/outputs";
import { firstDifference } from "@media-render/contract/config/normal-form";
import { NormalisedVideoConfig, RenderVideoRequest } from "@media-render/contract/wire";
import { ffmpegArgs } from "../renderer/src/video/args.ts";
import { captionMixGraph } from "../renderer/src/video/captions/captions.ts";
import type { GraphPass } from "../renderer/src/video/clip-joins.ts";
import { compileGraph } from "../renderer/src/video/compile.ts";
import { applyFastMode, videoSpec } from "../renderer/src/video/spec.ts";
import type { TransitionDrawer } from "../renderer/src/video/gl/drawn-transitions.ts";
import { isRaster, keyedLayers } from "../renderer/src/video/layers/index.ts";
import { outputTarget, renderWindow, shapeSpec } from "../renderer/src/video/outputs/target.ts";
import { synthesizeSpeech } from "../renderer/src/video/speech.ts";
import { timelineOf } from "../renderer/src/video/stages/lay-out.ts";
import type { MediaInfo, RasterAsset, VideoSpec } from "../renderer/src/video/types.ts";
import { compileImage } from "@media-render/image-page/compile-html";
import { plannedVideo } from "../src/jobs/planned-length.ts";
import { ValidationFailed } from "../src/lib/errors.ts";
import { configJsonSchema } from "../src/schemas/json-schemas.ts";
import { arbitraryOf, type MediaChoices, type Schema } from "./config-arbitrary.ts";

const SEED = Number(process.env.FC_SEED ?? 40_2026);
const RUNS = Number(process.env.FC_RUNS ?? 1500);

/** The demuxer a probe names for a file of each kind (the renderer's inputs name it: `-f`). */
const DEMUXER: Record<keyof MediaChoices, string> = {
  image: "image2",
  video: "mov",
  audio: "mp3",
  font: "",
  captions: "",
  shader: "",
};

/** What a probe says of a file of `kind`. */
const info = (
  kind: keyof MediaChoices,
  facts: Partial<MediaInfo>,
): MediaInfo & { kind: keyof MediaChoices } => {
  const base = { width: 0, height: 0, duration: 0, hasVideo: true, hasAudio: false, hasAlpha: false };
  return { kind, ...base, rotation: 0, videoCodec: null, orientation: 1, demuxer: DEMUXER[kind], ...facts };
};

/** Uploaded files as a config names them (storage paths), with what probing found in each (../shared/fixtures). */
const FILES: Record<string, MediaInfo & { kind: keyof MediaChoices }> = {
  "/storage/u/photo.jpg": info("image", { width: 4000, height: 3000, videoCodec: "mjpeg" }),
  "/storage/u/emoji.png": info("image", { width: 512, height: 512, hasAlpha: true, videoCodec: "png" }),
  "/storage/u/clip.mp4": info("video", { width: 600, height: 338, duration: 34.91, videoCodec: "hevc" }),
  "/storage/u/music.mp3": info("audio", { duration: 4.879625, hasVideo: false, hasAudio: true }),
  "/storage/u/voice.wav": info("audio", { duration: 4.63425, hasVideo: false, hasAudio: true }),
  "/storage/u/font.ttf": info("font", {}),
  "/storage/u/cues.srt": info("captions", {}),
  "/storage/u/wave.glsl": info("shader", {}),
};

const MEDIA: MediaChoices = { image: [], video: [], audio: [], font: [], captions: [], shader: [] };
for (const [path, f] of Object.entries(FILES)) MEDIA[f.kind].push(path);

/** What a stored file's probe said of its length (creation's durationOf): null for stills, fonts, text. */
const durationOf = (ref: string): number | null => FILES[ref]?.duration || null;

const schemaOf = (name: "image" | "video") => configJsonSchema(name) as unknown as Schema;

/** Stand-ins for what the renderer's browsers and voices produce: a frame per text layer, silence for speech. */
const rastersOf = (spec: VideoSpec): Map<string, RasterAsset> =>
  new Map(
    keyedLayers(spec)
      .filter((k) => isRaster(k.layer))
      .map((k) => [
        k.key,
        { frames: [{ path: `/raster/${k.key}.png`, x: 0, y: 0, width: 8, height: 8 }], times: [0] },
      ]),
  );
const silence: Parameters<typeof synthesizeSpeech>[2] = {
  backend: "espeak-ng",
  synthesize: (_request, path) => Promise.resolve({ path, words: [], duration: 1 }),
};
const drawer: TransitionDrawer = {
  readPairs: () => () => Promise.resolve(),
  writeDrawn: () => () => Promise.resolve(),
};

/** Every `[n:v]` / `[n:a]` a graph reads is one of its inputs. */
const expectInputsExist = (graph: { inputs: string[][]; filterGraph: string }) => {
  for (const [reference, n] of graph.filterGraph.matchAll(/\[(\d+):[va]\]/g))
    expect(Number(n), `${reference} of ${graph.inputs.length} inputs`).toBeLessThan(graph.inputs.length);
};

/** The renderer's compile step for an accepted config, as render.ts runs it up to ffmpeg (no browser, no tool). */
const compileAsRendered = async (config: VideoConfig, planned: ReturnType<typeof plannedVideo>) => {
  const target = outputTarget(config);
  const shaped = shapeSpec(applyFastMode(videoSpec(config, target.canvas)), target);
  // Downloaded: a gl layer's file read as its shader; speech said (into files the stand-in never writes).
  const read = <L extends VideoSpec["globalLayers"][number]>(l: L): L =>
    l.type === "gl" && l.fragmentPath !== undefined ? { ...l, fragmentShader: "void main() {}" } : l;
  const downloaded = {
    ...shaped,
    clips: shaped.clips.map((c) => ({ ...c, layers: c.layers.map(read) })),
    globalLayers: shaped.globalLayers.map(read),
  };
  const { spec, paths } = await synthesizeSpeech(downloaded, "/work", silence);
  const media = new Map<string, MediaInfo>(Object.entries(FILES));
  for (const p of paths) media.set(p, info("audio", { duration: 1, hasVideo: false, hasAudio: true }));
  const timeline = timelineOf(spec, media, planned.timeline);
  // Captions of the mix: its audio pass compiles the same spec before any frame is drawn, and runs without the
  // pipes (gl layers, html streams): every input it names must still be one of its own.
  if (spec.subtitles && !spec.subtitles.file) {
    const mix = captionMixGraph(spec, timeline, "job_generated", media);
    if (mix) expectInputsExist(mix);
  }
  const glLayers = { layerWriter: () => () => Promise.resolve() };
  // The render's own window (a still's, a preview's) and a window cut inside the timeline (a chunk's).
  const own = renderWindow(target, timeline);
  const cut = Math.floor(timeline.totalFrames / 3);
  const windows = [own, { start: cut, end: Math.max(cut + 1, timeline.totalFrames - cut) }];
  for (const window of windows) {
    const input = {
      spec,
      timeline,
      jobId: "job_generated",
      media,
      rasters: rastersOf(spec),
      glLayers,
      window,
    };
    const passes: GraphPass[] = [
      { kind: "plain" },
      { kind: "splice", drawer },
      ...timeline.clips.map((_, c): GraphPass => ({ kind: "taps", drawer, tapping: c })),
    ];
    for (const pass of passes) {
      const graph = compileGraph(input, pass);
      if (pass.kind !== "taps") expect(graph.filterGraph).toMatch(/\[vout\]/);
      // A window draws no sound (its mix is the whole graph's, window-mix.ts).
      if (window && pass.kind !== "taps") expect(graph.filterGraph).not.toMatch(/\[aout\]/);
      expectInputsExist(graph);
      const args = ffmpegArgs({
        inputs: graph.inputs,
        graphScript: "/work/graph.txt",
        format: target.format,
        alpha: target.alpha,
        still: target.stillTime !== undefined,
        fast: spec.fast,
        fps: spec.fps,
        duration: window ? (window.end - window.start) / spec.fps : timeline.duration,
        outPath: "/work/out",
      });
      expect(args.every((a) => typeof a === "string" && a.length > 0)).toBe(true);
    }
  }
};

/** A refusal names each field in `config...` with a message and a code. */
const expectFieldErrors = (errors: readonly { field?: string; message: string; code?: string }[]) => {
  expect(errors.length).toBeGreaterThan(0);
  for (const e of errors) {
    expect(e.field).toMatch(/^(config|type)/);
    expect(e.message.length).toBeGreaterThan(0);
  }
};

describe("generated video configs (from the published JSON Schema)", () => {
  it(`are refused with field errors or accepted, stored in normal form, planned, priced and compiled (${RUNS} cases)`, async () => {
    let accepted = 0;
    let planned = 0;
    await fc.assert(
      fc.asyncProperty(arbitraryOf(schemaOf("video"), MEDIA), async (raw) => {
        const checked = validateJobConfig("video", raw);
        if (!checked.valid) return expectFieldErrors(checked.errors);
        accepted++;
        if (checked.type !== "video") throw new Error("a video config parsed as an image");
        const config = checked.config;
        // The normal form: parsing it again changes nothing, and it is what the renderer's request takes.
        const again = validateJobConfig("video", config);
        expect(again.valid).toBe(true);
        expect(firstDifference(again.valid ? again.config : null, config)).toBeNull();
        expect(v.safeParse(NormalisedVideoConfig, config).success).toBe(true);
        let plan;
        try {
          plan = plannedVideo(config, durationOf);
        } catch (e) {
          // Creation refuses it the same way: field errors, nothing charged.
          if (!(e instanceof ValidationFailed)) throw e;
          return expectFieldErrors(e.errors);
        }
        planned++;
        expect(Number.isInteger(plan.estimatedTokens) && plan.estimatedTokens > 0).toBe(true);
        expect(plan.estimatedTokens).toBe(
          videoJobTokens(config, renderedSeconds(config, plan.timeline.duration)),
        );
        expect(plan.deadlineSeconds).toBeGreaterThan(0);
        // The render request as dispatch builds it passes the renderer's schema.
        const request = {
          jobId: "job_generated",
          config,
          timeline: plan.timeline,
          inputs: Object.fromEntries(Object.keys(FILES).map((p) => [p, `https://storage.test${p}?sig=1`])),
          output: { uploadUrl: "https://storage.test/out", format: checked.outputFormat },
          callbackUrl: "https://worker.test/callback",
          limits: { maxDurationSeconds: plan.seconds, deadlineSeconds: plan.deadlineSeconds },
        };
        const parsed = v.safeParse(RenderVideoRequest, request);
        expect(parsed.success, JSON.stringify(parsed.issues?.[0]?.message)).toBe(true);
        await compileAsRendered(config, plan);
      }),
      { seed: SEED, numRuns: RUNS },
    );
    if (process.env.FC_VERBOSE) console.log({ accepted, planned });
    // The generator must reach the interesting part: a good share of what it draws is accepted and planned.
    expect(accepted / RUNS).toBeGreaterThan(0.2);
    expect(planned / RUNS).toBeGreaterThan(0.15);
  }, 120_000);
});

describe("generated image configs (from the published JSON Schema)", () => {
  it(`are refused with field errors or accepted, stored in normal form, priced and compiled to a page (${RUNS} cases)`, () => {
    let accepted = 0;
    fc.assert(
      fc.property(arbitraryOf(schemaOf("image"), MEDIA), (raw) => {
        const checked = validateJobConfig("image", raw);
        if (!checked.valid) return expectFieldErrors(checked.errors);
        accepted++;
        const config = checked.config as ImageConfig;
        const again = validateJobConfig("image", config);
        expect(again.valid).toBe(true);
        expect(firstDifference(again.valid ? again.config : null, config)).toBeNull();
        expect(checked.estimatedTokens).toBe(estimateTokens("image", config));
        const sizes = new Map(
          Object.entries(FILES)
            .filter(([, f]) => f.kind === "image")
            .map(([p, f]) => [p, { width: f.width, height: f.height }]),
        );
        const page = compileImage(config, sizes);
        expect(page.html).toContain("<html");
      }),
      { seed: SEED, numRuns: RUNS },
    );
    expect(accepted / RUNS).toBeGreaterThan(0.2);
  }, 120_000);
});
