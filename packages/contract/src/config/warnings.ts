/**
 * The warnings of a config (`data.warnings` of job validation and creation): every property present that the
 * grammar accepts but that changes nothing here (declared with `ignored`, ignored.ts). Walks the config as
 * written, so fields are named the way the caller wrote them (editly's single-layer `clips[0].layers.duration`).
 */
import type * as v from "valibot";
import type { FieldWarning } from "../field-errors.ts";
import { ignoredMessage } from "./ignored.ts";
import { entryOf } from "./layer-set.ts";
import { IMAGE_LAYER_TYPES } from "./image-layer-types.ts";
import type { JobType } from "./job-type.ts";
import { videoConfigEntries } from "./video.ts";
import { VIDEO_LAYER_TYPES } from "./video-layer-types.ts";

type Obj = Record<string, unknown>;
type Entries = Readonly<Record<string, v.GenericSchema>>;

const isObj = (value: unknown): value is Obj =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Warnings for the properties of `object` whose entries are declared ignored; `field` names the object. */
const ignoredIn = (object: unknown, entries: Entries | undefined, field: string): FieldWarning[] => {
  if (!isObj(object) || !entries) return [];
  return Object.keys(object).flatMap((key): FieldWarning[] => {
    const message = ignoredMessage(entries[key]);
    return message && object[key] !== undefined
      ? [{ field: `${field}.${key}`, message, code: "IGNORED_PROPERTY" }]
      : [];
  });
};

/** Every `IGNORED_PROPERTY` warning of a config, defaults first, then top level, then layers in order. */
export const configWarnings = (type: JobType, config: unknown): FieldWarning[] => {
  if (!isObj(config)) return [];
  const table: Readonly<Record<string, { entries: Entries }>> =
    type === "image" ? IMAGE_LAYER_TYPES : VIDEO_LAYER_TYPES;
  const layer = (value: unknown, field: string) =>
    isObj(value) && typeof value.type === "string"
      ? ignoredIn(value, entryOf(table, value.type)?.entries, field)
      : [];
  const layers = (value: unknown, field: string) =>
    Array.isArray(value) ? value.flatMap((item, i) => layer(item, `${field}[${i}]`)) : layer(value, field);

  const out: FieldWarning[] = [];
  const defaults = config.defaults;
  if (isObj(defaults) && isObj(defaults.layerType)) {
    for (const [t, entries] of Object.entries(defaults.layerType))
      out.push(...ignoredIn(entries, entryOf(table, t)?.entries, `config.defaults.layerType.${t}`));
  }
  if (type === "image") return [...out, ...layers(config.layers, "config.layers")];
  out.push(...ignoredIn(config, videoConfigEntries, "config"));
  if (Array.isArray(config.clips))
    config.clips.forEach(
      (clip, i) => isObj(clip) && out.push(...layers(clip.layers, `config.clips[${i}].layers`)),
    );
  out.push(...layers(config.globalLayers, "config.globalLayers"));
  return out;
};
