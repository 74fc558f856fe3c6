/**
 * The service's image compile step (packages/image-page/src/compile-html.ts), run in the preview frame on the config as
 * it is being edited. The config is parsed by the same grammar the renderer parses a job with (aliases normalised,
 * bundled fonts), so what is drawn is what a job of this config draws. A config the grammar refuses is drawn
 * without the layers that are invalid on their own; one whose canvas itself is invalid is not drawn (the last
 * drawing stays). Without `scripts`, html layers are drawn as the service draws them without `enableLibraries`: their
 * markup and styles, none of their own scripts or libraries (the sandbox's policy admits only the page's own).
 */
import * as v from "valibot";
import { ImageConfigSchema, ImageLayerSchema, type ImageConfig } from "@media-render/contract/config";
import { applyLayerDefaults } from "@media-render/contract/config/rules";
import { compileImageParts, type CompiledParts } from "@media-render/image-page/compile-html";

export type { CompiledParts };

export interface Drawing {
  parts: CompiledParts;
  /** Indexes of the config's layers left out (invalid on their own); the others keep their index order. */
  skipped: number[];
  /** Config layer index of each drawn layer element. */
  drawn: number[];
  /** html layers that would run their scripts were drawn without them. */
  withheld: boolean;
}

/** A layer the grammar accepts, only to parse a canvas whose layers are all invalid (it is not drawn). */
const PLACEHOLDER = { type: "rectangle", width: 1, height: 1 };

const parse = (config: unknown): ImageConfig | null => {
  const parsed = v.safeParse(ImageConfigSchema, config);
  return parsed.success ? parsed.output : null;
};

/** Where the preview's files come from: the bundled ones on `origin`, stored ones as blob: URLs it made. */
export interface PreviewOrigins {
  origin: string;
  fileUrl: (storageUrl: string) => string;
}

/** `config` with every html layer's own scripts off (on the layer, so defaults cannot turn them back on). */
const withoutScripts = (config: ImageConfig): { config: ImageConfig; withheld: boolean } => {
  let withheld = false;
  const layers = config.layers.map((layer) => {
    if (layer.type !== "html") return layer;
    if (applyLayerDefaults(config.defaults, layer).enableLibraries === true) withheld = true;
    return { ...layer, enableLibraries: false };
  });
  return { config: { ...config, layers }, withheld };
};

/** The drawing of `config`, or null when its canvas is invalid; `scripts: false` withholds html layers' scripts. */
export const drawConfig = (
  config: unknown,
  sizes: ReadonlyMap<string, { width: number; height: number }>,
  { origin, fileUrl }: PreviewOrigins,
  scripts = true,
): Drawing | null => {
  const origins = { static: origin, asset: fileUrl, assetSources: "blob:" };
  const compile = (parsed: ImageConfig) => {
    const run = scripts ? { config: parsed, withheld: false } : withoutScripts(parsed);
    return { parts: compileImageParts(run.config, sizes, new Map(), origins), withheld: run.withheld };
  };
  const whole = parse(config);
  if (whole) {
    const drawn = whole.layers.map((_, i) => i);
    return { ...compile(whole), skipped: [], drawn };
  }
  if (typeof config !== "object" || config === null) return null;
  const layers: unknown[] = Array.isArray((config as { layers?: unknown }).layers)
    ? (config as { layers: unknown[] }).layers
    : [];
  const drawn: number[] = [];
  const skipped: number[] = [];
  layers.forEach((layer, i) => (v.safeParse(ImageLayerSchema, layer).success ? drawn : skipped).push(i));
  const kept = drawn.map((i) => layers[i]);
  const partial = parse({ ...config, layers: kept.length ? kept : [PLACEHOLDER] });
  if (!partial) return null;
  if (!kept.length) partial.layers = [];
  return { ...compile(partial), skipped, drawn };
};
