/**
 * The file references of a validated config: where they are (field paths), what they point at, and a way
 * to rewrite them (e.g. a downloaded public URL to its storage path) without knowing the grammar.
 */
import { kindOfReference, type FileKind } from "./file-ref.ts";
import { IMAGE_LAYER_TYPES } from "./image-layer-types.ts";
import type { JobType } from "./job-type.ts";
import { entryOf } from "./layer-set.ts";
import { VIDEO_LAYER_TYPES } from "./video-layer-types.ts";

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

type Slot = FileKind | "unknown";

/** The files each layer type references, by job type (video-layer-types.ts, image-layer-types.ts). */
const LAYER_FILES: Record<
  JobType,
  Readonly<Record<string, { files: Readonly<Record<string, FileKind>> }>>
> = {
  image: IMAGE_LAYER_TYPES,
  video: VIDEO_LAYER_TYPES,
};

/**
 * Every file property of any layer type, with the kind every type that has it agrees on (`fontPath`: a font), else
 * `unknown` (`path`): the slot of the property where the layer's type does not say (`defaults.layer`).
 */
const FILE_PROPERTIES = new Map<string, Slot>();
for (const table of Object.values(LAYER_FILES))
  for (const { files } of Object.values(table))
    for (const [key, kind] of Object.entries(files))
      FILE_PROPERTIES.set(key, (FILE_PROPERTIES.get(key) ?? kind) === kind ? kind : "unknown");

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
  const at = (holder: Obj, key: string, field: string, slot: Slot) => {
    const url = holder[key];
    if (typeof url !== "string") return;
    const next = visit({ field: `${field}.${key}`, slot, url });
    if (typeof next === "string") holder[key] = next;
  };
  const layer = (value: unknown, field: string, layerType?: string) => {
    if (!isObj(value)) return;
    const typeName = layerType ?? (typeof value.type === "string" ? value.type : undefined);
    const files = typeName ? entryOf(LAYER_FILES[type], typeName)?.files : undefined;
    for (const [key, slot] of FILE_PROPERTIES) at(value, key, field, files?.[key] ?? slot);
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
