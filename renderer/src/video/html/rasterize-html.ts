/**
 * Html layers in video jobs. Static: the page at virtual time `wait` captured once as a transparent
 * PNG of the layer's size. `animated: true`: frame n is the page at virtual time wait + n / fps
 * (never real time), for min(round(duration·fps), window frames) frames written as a PNG sequence
 * that the graph holds on its last frame when the layer window is longer (rasterLayer: tpad clone). A render of
 * a window of the timeline starting inside the layer (`skip` frames in) captures from there: the sequence's first
 * frame is the layer's frame `skip`.
 */
import { writeFile } from "node:fs/promises";
import type { Writable } from "node:stream";
import { join } from "node:path";
import {
  HTML_MAX_ANIMATED_DURATION,
  HTML_MAX_WAIT,
  VIDEO_DEFAULTS,
  VIDEO_MAX_SIZE,
  VIDEO_MIN_SIZE,
} from "@media-render/contract/config/limits";
import { evenDimension } from "@media-render/contract/geometry";
import type { KeyedLayer } from "../layers/index.ts";
import { placeBox } from "../position.ts";
import type { LayerOf, RasterAsset, VideoSpec } from "../types.ts";
import { clamp } from "../values.ts";
import type { RenderTools } from "../render-tools.ts";
import { captureFrames, type Deliver, type HtmlCapture, type HtmlCaptureStats } from "./capture-frames.ts";
import { htmlLayerDocument } from "./page.ts";

/** Date.now() at virtual time 0: fixed, so a page that prints the date renders the same every time. */
const EPOCH_MS = Date.UTC(2025, 0, 1);
/** PNG writes in flight while capturing continues. */
const MAX_PENDING_WRITES = 8;

type HtmlLayer = LayerOf<"html">;

/** Layer size in px (default: the video size), even, within the video size limits. */
export const htmlLayerSize = (
  layer: HtmlLayer,
  videoWidth: number,
  videoHeight: number,
): { w: number; h: number } => {
  const side = (v: number) => evenDimension(clamp(v, VIDEO_MIN_SIZE, VIDEO_MAX_SIZE));
  return { w: side(layer.width ?? videoWidth), h: side(layer.height ?? videoHeight) };
};

/**
 * Frames to capture: 1 when static; animated: `duration` (default 5 s, at most 30 s) at the video's
 * fps, cut to the layer window (frames past the window would never be shown).
 */
export const htmlFrameCount = (layer: HtmlLayer, fps: number, windowSeconds: number): number => {
  if (layer.animated !== true) return 1;
  const duration = clamp(
    layer.duration ?? VIDEO_DEFAULTS.htmlAnimatedDuration,
    1 / fps,
    HTML_MAX_ANIMATED_DURATION,
  );
  const windowFrames = Math.max(1, Math.round(windowSeconds * fps));
  return Math.max(1, Math.min(Math.round(duration * fps), windowFrames));
};

/**
 * Captures one html layer into `workDir` with the browser and capture settings of `tools`; `stats`
 * (optional) receives the capture speed. With `stream`, an animated layer is not captured now: the asset's
 * `stream` captures it into a pipe while ffmpeg encodes (capture and encoding overlap, and no frame
 * touches the disk).
 */
export const rasterizeHtmlLayer = async (
  spec: VideoSpec,
  k: KeyedLayer<HtmlLayer>,
  workDir: string,
  tools: RenderTools,
  options: { stats?: (s: HtmlCaptureStats) => void; stream?: boolean; signal?: AbortSignal } = {},
): Promise<RasterAsset> => {
  const layer = k.layer;
  const where = k.clip < 0 ? `globalLayers[${k.key.slice(1)}]` : `clips[${k.clip}] html layer`;
  if (layer.html === undefined) {
    throw new Error(
      `${where}: html layers cannot capture live pages here (pages get no network access); put the markup in "html" instead`,
    );
  }
  // Laid out and captured at its config size in CSS px; a preview (pixelScale < 1) draws the frames
  // smaller in the graph (begin-frame capture ignores a device scale factor below 1), same layout.
  const scale = spec.pixelScale;
  const css = htmlLayerSize(layer, spec.width / scale, spec.height / scale);
  const w = evenDimension(css.w * scale);
  const h = evenDimension(css.h * scale);
  const pos = placeBox(layer, spec.width, spec.height, w, h);
  const frames = htmlFrameCount(layer, spec.fps, k.window ?? spec.defaultDuration);
  // A window starting inside the layer captures from its first frame drawn (the held last frame, past the
  // animation): the clock still ticks through every frame before it, which is cheap without a capture.
  const from = Math.min(k.skip ?? 0, frames - 1);
  const stepMs = 1000 / spec.fps;
  const waitMs = clamp(layer.wait ?? 0, 0, HTML_MAX_WAIT) * 1000;
  const doc = htmlLayerDocument(layer, EPOCH_MS);
  const method = tools.htmlCapture;
  // Several begin-frame processes share the frames (n mod workers); each still steps the clock through
  // EVERY frame, so frame-by-frame scripts see the same sequence of ticks in every process.
  const workers = method === "beginframe" && frames - from >= 8 ? tools.htmlCaptureWorkers : 1;
  const path = (n: number) => join(workDir, `${k.key}-${String(n).padStart(5, "0")}.png`);
  const capture: HtmlCapture = { where, doc, css, method, frames, from, workers, waitMs, stepMs };
  const captureAll = (deliver: Deliver) => captureFrames(tools, capture, deliver, options);
  const first = { path: path(0), x: pos.x, y: pos.y, width: w, height: h, resize: scale !== 1 };
  if (options.stream && frames - from > 1) {
    // Captured while ffmpeg encodes: frames go to its pipe in order as they are drawn.
    const stream = async (out: Writable): Promise<void> => {
      const writer = orderedWriter(out);
      await captureAll(writer.put).catch((e: unknown) => {
        writer.abort(e);
        throw e;
      });
    };
    return { frames: [{ ...first, path: STREAMED }], times: [0], stream };
  }
  const pending = new Set<Promise<void>>();
  await captureAll(async (frameIndex, png) => {
    const write = writeFile(path(frameIndex), png).finally(() => pending.delete(write));
    pending.add(write);
    if (pending.size >= MAX_PENDING_WRITES) await Promise.race(pending);
  });
  await Promise.all(pending);
  if (frames - from === 1) return { frames: [first], times: [0] };
  return { frames: [first], times: [0], sequencePattern: join(workDir, `${k.key}-%05d.png`) };
};

/** Path of the first frame of a streamed layer: there is no file. */
const STREAMED = "(streamed)";

/**
 * Frames handed to the encoder's pipe and not yet read by it: the capture runs this far ahead of ffmpeg
 * instead of in lockstep with its reads (a 720p PNG is ~100 KB, the pipe holds 64 KB).
 */
const MAX_QUEUED_FRAMES = 24;

interface Waiting {
  done: () => void;
  failed: (e: unknown) => void;
}

/**
 * Writes frames to `out` in frame order whichever capture worker delivers them; `put` resolves once its
 * frame is queued on `out` with fewer than `maxQueued` frames still unread ahead of it, `abort` fails every
 * waiting frame (a worker failed, or the encoder stopped).
 */
export const orderedWriter = (
  out: Writable,
  maxQueued = MAX_QUEUED_FRAMES,
): {
  put: (n: number, png: Uint8Array) => Promise<void>;
  abort: (reason: unknown) => void;
} => {
  const ready = new Map<number, Waiting & { png: Uint8Array }>();
  const held: Waiting[] = [];
  let next = 0;
  let queued = 0;
  let aborted: { reason: unknown } | null = null;
  const abort = (reason: unknown) => {
    aborted ??= { reason };
    for (const frame of [...ready.values(), ...held.splice(0)]) frame.failed(reason);
    ready.clear();
  };
  const release = () => {
    while (held.length > 0 && queued < maxQueued) held.shift()!.done();
  };
  const pump = () => {
    for (let frame = ready.get(next); frame && !aborted; frame = ready.get(next)) {
      ready.delete(next);
      next++;
      if (out.destroyed || out.writableEnded) {
        const error = new Error("the encoder stopped reading the html frames");
        frame.failed(error);
        return abort(error);
      }
      queued++;
      out.write(frame.png, (e) => {
        queued--;
        if (e) abort(new Error("the encoder stopped reading the html frames"));
        else release();
      });
      if (queued < maxQueued) frame.done();
      else held.push(frame);
    }
  };
  const put = (frameIndex: number, png: Uint8Array) =>
    aborted
      ? Promise.reject(aborted.reason)
      : new Promise<void>((done, failed) => {
          ready.set(frameIndex, { png, done, failed });
          pump();
        });
  return { put, abort };
};
