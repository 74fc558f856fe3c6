/**
 * Defensive parse of a video job config into a VideoSpec. The Worker already validated it; this
 * layer only applies the reference's defaults and ignores anything malformed instead of crashing.
 */
import type { AudioTrackSpec, ClipSpec, Layer, TransitionSpec, VideoSpec } from "./types.ts";
import { bool, clamp, num, obj, optNum, optStr, str } from "./values.ts";

/** Service default transition (README): editly uses `random`, we use a predictable fade. */
export const DEFAULT_TRANSITION: TransitionSpec = {
  name: "fade",
  duration: 0.5,
  audioOutCurve: "tri",
  audioInCurve: "tri",
};

const FORMATS = new Set(["mp4", "mov", "webm"]);

function even(v: number): number {
  return Math.max(2, Math.round(v / 2) * 2);
}

/** Deep-merges a clip's transition over the default (null/duration 0 → no transition). */
export function mergeTransition(own: unknown, base: TransitionSpec | null): TransitionSpec | null {
  if (own === null) return null;
  const o = obj(own);
  if (!o && !base) return null;
  const b = base ?? DEFAULT_TRANSITION;
  const t: TransitionSpec = {
    name: str(o?.name, b.name),
    duration: Math.max(0, num(o?.duration, b.duration)),
    audioOutCurve: str(o?.audioOutCurve, b.audioOutCurve),
    audioInCurve: str(o?.audioInCurve, b.audioInCurve),
  };
  const params = obj(o?.params) ?? b.params;
  if (params) t.params = params;
  return t.duration > 0 ? t : null;
}

function parseLayers(
  raw: unknown,
  layerDefaults: Record<string, unknown>,
  byType: Record<string, unknown>,
): Layer[] {
  const list = Array.isArray(raw) ? raw : obj(raw) ? [raw] : [];
  const out: Layer[] = [];
  for (const item of list) {
    const l = obj(item);
    if (!l || typeof l.type !== "string") continue;
    const typeDefaults = obj(byType[l.type]) ?? {};
    out.push({ ...layerDefaults, ...typeDefaults, ...l, type: l.type });
  }
  return out;
}

function parseTracks(raw: unknown): AudioTrackSpec[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((item): AudioTrackSpec[] => {
    const t = obj(item);
    const path = optStr(t?.path);
    if (!t || !path) return [];
    return [
      {
        path,
        mixVolume: Math.max(0, num(t.mixVolume, 1)),
        start: Math.max(0, num(t.start, 0)),
        cutFrom: Math.max(0, num(t.cutFrom, 0)),
        cutTo: optNum(t.cutTo),
      },
    ];
  });
}

/** Parses `config` (a video job config object) with the reference's defaults. */
export function parseVideoConfig(config: unknown, formatOverride?: string): VideoSpec {
  const c = obj(config) ?? {};
  const defaults = obj(c.defaults) ?? {};
  const layerDefaults = obj(defaults.layer) ?? {};
  const byType = obj(defaults.layerType) ?? {};
  const defaultTransition =
    defaults.transition === null ? null : mergeTransition(defaults.transition ?? {}, DEFAULT_TRANSITION);
  const clips: ClipSpec[] = (Array.isArray(c.clips) ? c.clips : []).flatMap((item): ClipSpec[] => {
    const clip = obj(item);
    if (!clip) return [];
    const duration = optNum(clip.duration);
    return [
      {
        duration: duration !== null && duration > 0 ? duration : null,
        transition:
          "transition" in clip ? mergeTransition(clip.transition, defaultTransition) : defaultTransition,
        layers: parseLayers(clip.layers, layerDefaults, byType),
      },
    ];
  });
  const format = formatOverride ?? str(c.format, "mp4");
  const norm = obj(c.audioNorm) ?? {};
  return {
    width: even(clamp(num(c.width, 1280), 2, 4096)),
    height: even(clamp(num(c.height, 720), 2, 4096)),
    fps: Math.round(clamp(num(c.fps, 25), 1, 120)),
    format: (FORMATS.has(format) ? format : "mp4") as VideoSpec["format"],
    fast: bool(c.fast, false),
    pixelScale: 1,
    defaultDuration: Math.max(0.1, num(defaults.duration, 4)),
    clips,
    globalLayers: parseLayers(c.globalLayers, layerDefaults, byType),
    audioFilePath: optStr(c.audioFilePath),
    loopAudio: bool(c.loopAudio, false),
    keepSourceAudio: bool(c.keepSourceAudio, false),
    clipsAudioVolume: Math.max(0, num(c.clipsAudioVolume, 1)),
    outputVolume: Math.max(0, num(c.outputVolume, 1)),
    audioTracks: parseTracks(c.audioTracks),
    audioNorm: {
      enable: bool(norm.enable, false),
      gaussSize: clamp(Math.round(num(norm.gaussSize, 5)), 1, 10),
      maxGain: clamp(num(norm.maxGain, 30), 0, 100),
    },
  };
}

/** Layer types drawn as text boxes, whose px properties scale with the preview. */
const TEXT_TYPES = new Set(["title", "subtitle", "news-title", "slide-in-text", "text", "title-background"]);

/** A layer's pixel-valued properties multiplied by `s` (font sizes, outline widths, text x/y/wrap width). */
export function scaleLayerPixels(layer: Layer, s: number): Layer {
  if (!TEXT_TYPES.has(layer.type)) return layer;
  const out: Layer = { ...layer };
  const keys = ["fontSize", "outlineWidth", ...(layer.type === "text" ? ["x", "y", "width"] : [])];
  for (const key of keys) {
    const value = out[key];
    // slide-in-text's fontSize ≤ 1 is a fraction of the width, which scales by itself.
    if (typeof value !== "number" || (key === "fontSize" && layer.type === "slide-in-text" && value <= 1))
      continue;
    out[key] = value * s;
  }
  return out;
}

/**
 * Preview mode (reference `fast`): about 250x250 pixels of area with the aspect kept, 15 fps. The
 * picture is the full render made smaller: pixel-valued text properties shrink with it and html pages
 * keep their layout (captured at `pixelScale`).
 */
export function applyFastMode(spec: VideoSpec): VideoSpec {
  if (!spec.fast) return spec;
  const aspect = spec.width / spec.height;
  const width = Math.min(even(Math.sqrt(62500 * aspect)), spec.width);
  const height = Math.min(even(width / aspect), spec.height);
  const s = width / spec.width;
  const scale = (layers: Layer[]) => layers.map((l) => scaleLayerPixels(l, s));
  return {
    ...spec,
    width,
    height,
    fps: Math.min(15, spec.fps),
    pixelScale: s,
    clips: spec.clips.map((clip) => ({ ...clip, layers: scale(clip.layers) })),
    globalLayers: scale(spec.globalLayers),
  };
}
