/**
 * fast-check arbitraries of layer stacks for the graph compiler's property tests: tiny videos (at most 96 px, 12 fps,
 * 1.5 s a clip) of one to three clips with any transition, each clip one to four layers of every type the compilers
 * draw with the options they branch on (resize modes, Ken Burns directions, positions, colours with and without
 * alpha, cuts and speeds, text styles, timing), global layers, mp4 or webm, and a window of the timeline or none.
 * The files they name are probed stand-ins (LAYER_MEDIA); rasterised text and html come as the rasteriser would hand
 * them over (stacksRasters). The unit tier checks the graphs' shape (renderer/test/unit/video/compile.test.ts), the
 * renderer suite runs a few through ffmpeg (renderer/test/video/layer-graphs.test.ts).
 */
import fc from "fast-check";
import { TRANSITION_NAMES } from "@media-render/contract/config/transitions";
import { buildTimeline } from "@media-render/contract/timeline";
import { compileGraph, type CompiledGraph, type RenderWindow } from "../../src/video/compile.ts";
import { isRaster, keyedLayers } from "../../src/video/layers/index.ts";
import { STDIN_PATH, type MediaInfo, type RasterAsset, type VideoSpec } from "../../src/video/types.ts";
import { LOGO, probed, specOf } from "./graph-spec.ts";

/** What the probe found in each file a generated layer may name. */
export const LAYER_MEDIA: Record<string, MediaInfo> = {
  "/in/photo.jpg": probed({
    width: 400,
    height: 300,
    duration: 0,
    hasAudio: false,
    videoCodec: "mjpeg",
    demuxer: "image2",
  }),
  "/in/turned.jpg": probed({
    width: 300,
    height: 400,
    duration: 0,
    hasAudio: false,
    videoCodec: "mjpeg",
    demuxer: "image2",
    orientation: 6,
  }),
  "/in/logo.png": LOGO,
  "/in/clip.mp4": probed({ width: 64, height: 36, duration: 3 }),
  "/in/alpha.webm": probed({
    width: 48,
    height: 48,
    duration: 2,
    hasAudio: false,
    hasAlpha: true,
    videoCodec: "vp9",
    demuxer: "matroska,webm",
  }),
  "/in/song.mp3": probed({
    width: 0,
    height: 0,
    duration: 3,
    hasVideo: false,
    videoCodec: null,
    demuxer: "mp3",
  }),
};

const seconds = (max: number) => fc.integer({ min: 0, max: max * 10 }).map((n) => n / 10);
/** Drops the undefined entries of a record, and a `stop` not after `start` (the grammar refuses it). */
const defined = (record: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(record).filter(
      ([k, v]) => v !== undefined && !(k === "stop" && (v as number) <= ((record.start as number) ?? 0)),
    ),
  );
/** A layer of `type`: each of `entries` present or not, each of `required` always. */
const layer = (
  type: string,
  entries: Record<string, fc.Arbitrary<unknown>>,
  required: Record<string, fc.Arbitrary<unknown>> = {},
) =>
  fc
    .tuple(fc.record({ type: fc.constant(type), ...required }), fc.record(entries, { requiredKeys: [] }))
    .map(([always, maybe]) => defined({ ...always, ...maybe }));

const timing = { start: seconds(1), stop: fc.integer({ min: 2, max: 20 }).map((n) => n / 10) };
const color = fc.constantFrom("#336699", "tomato", "rgba(255, 0, 0, 0.5)", "#00ff0080", "hsl(200, 50%, 40%)");
const position = fc.oneof(
  fc.constantFrom(
    "center",
    "top",
    "bottom",
    "top-left",
    "top-right",
    "center-left",
    "center-right",
    "bottom-left",
    "bottom-right",
  ),
  fc
    .record(
      {
        x: fc.double({ min: 0, max: 1, noNaN: true }),
        y: fc.double({ min: 0, max: 1, noNaN: true }),
        originX: fc.constantFrom("left", "center", "right"),
        originY: fc.constantFrom("top", "center", "bottom"),
      },
      { requiredKeys: ["x", "y"] },
    )
    .map(defined),
);
const fraction = fc.integer({ min: 1, max: 10 }).map((n) => n / 10);
const zoom = {
  zoomDirection: fc.constantFrom(null, "in", "out", "left", "right", "up", "down"),
  zoomAmount: fc.integer({ min: 0, max: 5 }).map((n) => n / 10),
};
const resizeMode = fc.constantFrom("contain", "contain-blur", "cover", "stretch");
const text = fc.constantFrom("Hi", "two words", "three short words");
const font = { fontSize: fc.integer({ min: 8, max: 40 }), textColor: color };

/** A layer of a clip, of any type the compilers draw. */
export const clipLayer: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  layer("fill-color", { color, ...timing }),
  layer("pause", { color, ...timing }),
  layer("linear-gradient", {
    colors: fc.array(color, { minLength: 2, maxLength: 10 }),
    direction: fc.constantFrom("horizontal", "vertical", "diagonal"),
    ...timing,
  }),
  layer("radial-gradient", { colors: fc.array(color, { minLength: 2, maxLength: 4 }), ...timing }),
  layer("rainbow-colors", timing),
  layer(
    "image",
    {
      resizeMode,
      position,
      width: fraction,
      height: fraction,
      ...zoom,
      ...timing,
    },
    { path: fc.constantFrom("/in/photo.jpg", "/in/turned.jpg", "/in/logo.png") },
  ),
  layer(
    "image-overlay",
    {
      position,
      width: fc.oneof(fraction, fc.integer({ min: 2, max: 64 })),
      height: fraction,
      ...zoom,
      ...timing,
    },
    { path: fc.constantFrom("/in/photo.jpg", "/in/logo.png") },
  ),
  layer(
    "video",
    {
      resizeMode,
      cutFrom: seconds(3),
      cutTo: fc.integer({ min: 1, max: 40 }).map((n) => n / 10),
      width: fraction,
      height: fraction,
      position,
      mixVolume: fc.integer({ min: 0, max: 20 }).map((n) => n / 10),
      ...zoom,
      ...timing,
    },
    { path: fc.constantFrom("/in/clip.mp4", "/in/alpha.webm") },
  ).filter((l) => l.cutTo === undefined || (l.cutTo as number) > ((l.cutFrom as number | undefined) ?? 0)),
  layer(
    "audio",
    { cutFrom: seconds(2), mixVolume: fc.integer({ min: 0, max: 20 }).map((n) => n / 10), ...timing },
    { path: fc.constant("/in/song.mp3") },
  ),
  layer("detached-audio", { start: seconds(1), cutFrom: seconds(2) }, { path: fc.constant("/in/song.mp3") }),
  layer(
    "title",
    {
      ...font,
      position,
      style: fc.constantFrom("fade-in", "word-by-word", "letter-by-letter"),
      ...zoom,
      ...timing,
    },
    { text },
  ),
  layer(
    "subtitle",
    {
      ...font,
      backgroundColor: color,
      delay: seconds(0.5),
      speed: fc.integer({ min: 1, max: 30 }).map((n) => n / 10),
      ...timing,
    },
    { text },
  ),
  layer("news-title", { ...font, ...timing }, { text }),
  layer("slide-in-text", { charSpacing: fraction, ...timing }, { text }),
  layer(
    "title-background",
    {
      background: fc.constantFrom(
        { type: "fill-color", color: "#123456" },
        { type: "linear-gradient", colors: ["red", "blue"], direction: "vertical" },
        { type: "radial-gradient", colors: ["#ffffff", "#000000"] },
      ),
      ...timing,
    },
    { text },
  ),
  layer("html", { animated: fc.boolean(), ...timing }, { html: fc.constant("<p>x</p>") }),
  layer("gl", timing, { fragmentShader: fc.constant("void main() { gl_FragColor = vec4(1.0); }") }),
);

/** A global layer (the grammar keeps video and audio out of globalLayers). */
const globalLayer = clipLayer.filter((l) => !["video", "audio", "detached-audio"].includes(l.type as string));

/** A config of tiny clips built from generated layers, and a window of its timeline (fractions) or none. */
export const layerStack = fc.record({
  config: fc.record({
    width: fc.integer({ min: 8, max: 48 }).map((n) => 2 * n),
    height: fc.integer({ min: 8, max: 48 }).map((n) => 2 * n),
    fps: fc.integer({ min: 5, max: 12 }),
    keepSourceAudio: fc.boolean(),
    clips: fc.array(
      fc.record(
        {
          duration: fc.integer({ min: 4, max: 15 }).map((n) => n / 10),
          transition: fc.record({
            name: fc.constantFrom(...TRANSITION_NAMES),
            duration: fc.integer({ min: 1, max: 3 }).map((n) => n / 10),
          }),
          layers: fc.array(clipLayer, { minLength: 1, maxLength: 4 }),
        },
        { requiredKeys: ["duration", "layers"] },
      ),
      { minLength: 1, maxLength: 3 },
    ),
    globalLayers: fc.array(globalLayer, { maxLength: 2 }),
  }),
  format: fc.constantFrom("mp4", "webm") as fc.Arbitrary<"mp4" | "webm">,
  window: fc.option(
    fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true })),
    { nil: undefined },
  ),
});
export type LayerStack = typeof layerStack extends fc.Arbitrary<infer T> ? T : never;

/** What the rasteriser would hand over for each rasterised layer of `spec`: a still, reveal states or html frames. */
export const stackRasters = (spec: VideoSpec): Map<string, RasterAsset> => {
  const out = new Map<string, RasterAsset>();
  const w = Math.max(2, Math.floor(spec.width / 2));
  const h = Math.max(2, Math.floor(spec.height / 4));
  for (const { key, layer } of keyedLayers(spec).filter((k) => isRaster(k.layer))) {
    const box = { x: 1, y: 2, width: w, height: h };
    if (layer.type === "html")
      out.set(
        key,
        layer.animated
          ? {
              frames: [{ ...box, path: `/w/${key}-00000.png` }],
              times: [0],
              sequencePattern: `/w/${key}-%05d.png`,
            }
          : { frames: [{ ...box, path: `/w/${key}.png` }], times: [0] },
      );
    else if ("style" in layer && layer.style !== undefined && layer.style !== "fade-in")
      out.set(key, {
        frames: [0, 1, 2].map((n) => ({ ...box, path: STDIN_PATH, crop: { x: 0, y: n * h } })),
        times: [0, 0.1, 0.2],
      });
    else out.set(key, { frames: [{ ...box, path: STDIN_PATH, crop: { x: 0, y: 0 } }], times: [0] });
  }
  return out;
};

/** The compiled graph of a generated stack (with its window, if any), and the frames it must output. */
export const compileStack = (
  stack: LayerStack,
): { graph: CompiledGraph; frames: number; spec: VideoSpec } => {
  const spec = specOf(stack.config, stack.format);
  const timeline = buildTimeline(spec);
  let window: RenderWindow | undefined;
  if (stack.window) {
    const [a, b] = stack.window.map((x) => Math.floor(x * timeline.totalFrames)) as [number, number];
    const [start, end] = [Math.min(a, b), Math.max(a, b)];
    window = { start: Math.min(start, timeline.totalFrames - 1), end: Math.max(end, start + 1) };
    window.end = Math.min(window.end, timeline.totalFrames);
  }
  const graph = compileGraph({
    spec,
    timeline,
    jobId: "job",
    media: new Map(Object.entries(LAYER_MEDIA)),
    rasters: stackRasters(spec),
    glLayers: { layerWriter: () => async () => {} },
    window,
  });
  return { graph, frames: window ? window.end - window.start : timeline.totalFrames, spec };
};
