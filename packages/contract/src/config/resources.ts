/**
 * The file references of a validated config: where they are (field paths), what they point at, and a way
 * to rewrite them (e.g. a downloaded public URL to its storage path) without knowing the grammar.
 */
import { kindOfReference, type FileKind } from "./file-ref.ts";
import type { JobType } from "./job-type.ts";

type Obj = Record<string, unknown>;

/** One file reference found in a config. */
export interface FileReference {
  /** Field path, e.g. `config.clips[0].layers[1].path`. */
  field: string;
  /** What the slot expects (`unknown` for `defaults.layer.path`, which applies to several layer types). */
  slot: FileKind | "unknown";
  /** The reference as written: a storage path (`/…`) or an http(s) URL. */
  url: string;
}

/** A resource as listed by `/jobs/validate` (`detectedResources`). */
export interface DetectedResource {
  type: FileKind | "unknown";
  url: string;
  size?: number;
}

const PATH_KIND: Record<string, FileKind> = {
  image: "image",
  "image-overlay": "image",
  video: "video",
  audio: "audio",
  "detached-audio": "audio",
};

const isObj = (value: unknown): value is Obj =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Calls `visit` for every file reference of a config that `validateJobConfig` accepted: defaults first,
 * then layers (clip by clip), then global layers and audio.
 * When `visit` returns a string, the reference is replaced by it (the config is modified in place: clone it
 * first to keep the original).
 */
export const forEachFileReference = (
  type: JobType,
  config: unknown,
  visit: (ref: FileReference) => string | void,
): void => {
  if (!isObj(config)) return;
  const at = (holder: Obj, key: string, field: string, slot: FileKind | "unknown") => {
    const url = holder[key];
    if (typeof url !== "string") return;
    const next = visit({ field: `${field}.${key}`, slot, url });
    if (typeof next === "string") holder[key] = next;
  };
  const layer = (value: unknown, field: string, layerType?: string) => {
    if (!isObj(value)) return;
    const t = layerType ?? (typeof value.type === "string" ? value.type : undefined);
    at(value, "path", field, (t && PATH_KIND[t]) || "unknown");
    at(value, "fontPath", field, "font");
    at(value, "fragmentPath", field, "shader");
  };
  const layers = (value: unknown, field: string) => {
    if (Array.isArray(value)) value.forEach((item, i) => layer(item, `${field}[${i}]`));
    // editly's single-layer form: `layers` is one layer object (the grammar reads it as [layer]).
    else layer(value, field);
  };

  if (isObj(config.defaults)) {
    layer(config.defaults.layer, "config.defaults.layer", "");
    if (isObj(config.defaults.layerType)) {
      for (const [t, entries] of Object.entries(config.defaults.layerType))
        layer(entries, `config.defaults.layerType.${t}`, t);
    }
  }
  if (type === "image") {
    layers(config.layers, "config.layers");
    return;
  }
  at(config, "audioFilePath", "config", "audio");
  if (Array.isArray(config.clips)) {
    config.clips.forEach((clip, i) => isObj(clip) && layers(clip.layers, `config.clips[${i}].layers`));
  }
  layers(config.globalLayers, "config.globalLayers");
  if (Array.isArray(config.audioTracks)) {
    config.audioTracks.forEach(
      (track, i) => isObj(track) && at(track, "path", `config.audioTracks[${i}]`, "audio"),
    );
  }
  if (isObj(config.autoSubtitlesStyle))
    at(config.autoSubtitlesStyle, "fontPath", "config.autoSubtitlesStyle", "font");
  at(config, "captionsFile", "config", "captions");
};

/** Every distinct file a config references, in config order, typed by the file (extension or storage folder). */
export const detectResources = (type: JobType, config: unknown): DetectedResource[] => {
  const seen = new Map<string, DetectedResource>();
  forEachFileReference(type, config, ({ url, slot }) => {
    if (seen.has(url)) return;
    const kind = kindOfReference(url);
    seen.set(url, { type: kind === "unknown" ? slot : kind, url });
  });
  return [...seen.values()];
};
