/**
 * The layer registry (layers/index.ts): an entry for every type of the grammar (complete by type), a compiler for
 * every type that draws, which types are rasterised (text on the sheet, with their text type, or html pages), what
 * each sounds like, the expansion of title-background and editly-banner into the layers they are made of, and the
 * keys and config paths every layer is known by.
 */
import { describe, expect, it } from "vitest";
import { VIDEO_LAYER_TYPES } from "@media-render/contract/config/video-layer-types";
import {
  compileLayer,
  EDITLY_BANNER_TEXT,
  expandLayers,
  isRaster,
  isText,
  isTitle,
  keyedLayers,
  keyedOf,
  LAYER_TYPES,
  soundOf,
  textTypeOf,
  type LayerTypeEntry,
  type TextLayer,
} from "../../../../src/video/layers/index.ts";
import { newsTitle } from "../../../../src/video/layers/news-title.ts";
import { slideInText } from "../../../../src/video/layers/slide-in-text.ts";
import { subtitle } from "../../../../src/video/layers/subtitle.ts";
import { title } from "../../../../src/video/layers/title.ts";
import type { Layer, LayerOf, LayerType } from "../../../../src/video/types.ts";
import { contextOf, specOf } from "../../../helpers/graph-spec.ts";

const TYPES = Object.keys(VIDEO_LAYER_TYPES) as LayerType[];
const of = (type: string) => ({ type, text: "x" }) as Layer;

describe("LAYER_TYPES", () => {
  it("has an entry for every type of the grammar, in its order, and the typecheck holds it complete", () => {
    expect(Object.keys(LAYER_TYPES)).toEqual(TYPES);
    const { gl: _gl, ...withoutGl } = LAYER_TYPES;
    // @ts-expect-error: a type of the grammar without an entry
    const incomplete: { readonly [T in LayerType]: LayerTypeEntry<LayerOf<T>> } = withoutGl;
    expect(Object.keys(incomplete)).not.toContain("gl");
  });

  it("compiles every type but those expanded or made tracks before compiling", () => {
    const compiled = TYPES.filter((t) => "compile" in LAYER_TYPES[t]);
    expect(TYPES.filter((t) => !compiled.includes(t))).toEqual(["detached-audio", "speech", "editly-banner"]);
    expect(TYPES.filter((t) => "expand" in LAYER_TYPES[t])).toEqual(["title-background", "editly-banner"]);
  });

  it("compiles a type without a compiler to nothing", () => {
    const spec = specOf({ clips: [{ duration: 1, layers: [{ type: "pause" }] }] });
    const ctx = contextOf(spec);
    const win = { startFrame: 0, frames: 25, start: 0, duration: 1, skip: 0, drawn: 25 };
    const detached = { type: "detached-audio", path: "/in/a.mp3" } as Layer;
    expect(compileLayer(detached, win, ctx, "c0l0")).toBeNull();
    expect(ctx.filters).toEqual([]);
  });

  it("rasterises the text types and html; html alone is captured page by page rather than drawn on the sheet", () => {
    expect(TYPES.filter((t) => isText(of(t)))).toEqual([
      "title",
      "subtitle",
      "news-title",
      "title-background",
      "slide-in-text",
    ]);
    expect(TYPES.filter((t) => isRaster(of(t)) && !isText(of(t)))).toEqual(["html"]);
  });

  it("gives each text type its module, title-background's title the title's", () => {
    const text = (type: string) => textTypeOf(of(type) as TextLayer);
    expect(["title", "title-background", "subtitle", "news-title", "slide-in-text"].map(text)).toEqual([
      title,
      title,
      subtitle,
      newsTitle,
      slideInText,
    ]);
    expect(TYPES.filter((t) => isTitle(of(t)))).toEqual(["title", "title-background"]);
  });

  it("says what each type sounds like", () => {
    expect(Object.fromEntries(TYPES.flatMap((t) => (soundOf(of(t)) ? [[t, soundOf(of(t))]] : [])))).toEqual({
      video: "source",
      audio: "clip",
      "detached-audio": "track",
      speech: "track",
    });
  });
});

describe("expandLayers", () => {
  it("puts title-background's background under its title, with the layer's timing", () => {
    const layer = {
      type: "title-background",
      text: "x",
      start: 1,
      stop: 2,
      background: { type: "radial-gradient", colors: ["red", "blue"] },
    } as Layer;
    expect(expandLayers([layer])).toEqual([
      { type: "radial-gradient", colors: ["red", "blue"], start: 1, stop: 2 },
      layer,
    ]);
    const fill = { ...layer, background: { type: "fill-color", color: "#102030" } } as Layer;
    expect(expandLayers([fill])[0]).toEqual({ type: "fill-color", color: "#102030", start: 1, stop: 2 });
    // Without a background: a linear gradient of seeded colours.
    const bare = { type: "title-background", text: "x" } as Layer;
    expect(expandLayers([bare])[0]).toEqual({
      type: "linear-gradient",
      colors: undefined,
      direction: undefined,
      start: undefined,
      stop: undefined,
    });
  });

  it("draws editly-banner as editly's gradient under a title of its three lines, in the layer's font", () => {
    const banner = { type: "editly-banner", fontFamily: "Lobster", start: 0.5 } as Layer;
    expect(expandLayers([banner])).toEqual([
      { type: "linear-gradient", start: 0.5, stop: undefined },
      { type: "title", fontFamily: "Lobster", start: 0.5, text: EDITLY_BANNER_TEXT },
    ]);
    expect(EDITLY_BANNER_TEXT).toBe("Made with\nEDITLY\nmifi.no");
  });

  it("passes every other layer through as it is", () => {
    const layers = [{ type: "pause" }, { type: "title", text: "x" }] as Layer[];
    const out = expandLayers(layers);
    expect(out).toEqual(layers);
    expect(out[1]).toBe(layers[1]);
  });
});

describe("keyedLayers", () => {
  it("keys clip layers c<clip>l<n> and global ones g<n>, each expanded layer with its config layer's path", () => {
    const spec = specOf({
      clips: [
        { duration: 1, layers: [{ type: "pause" }, { type: "title-background", text: "x" }] },
        { duration: 1, layers: [{ type: "fill-color" }] },
      ],
      globalLayers: [{ type: "title", text: "g" }],
    });
    expect(keyedLayers(spec).map(({ key, path, clip, layer }) => [key, path, clip, layer.type])).toEqual([
      ["c0l0", "clips[0].layers[0]", 0, "pause"],
      ["c0l1", "clips[0].layers[1]", 0, "linear-gradient"],
      ["c0l2", "clips[0].layers[1]", 0, "title-background"],
      ["c1l0", "clips[1].layers[0]", 1, "fill-color"],
      ["g0", "globalLayers[0]", -1, "title"],
    ]);
    expect(
      keyedLayers(spec)
        .filter(keyedOf("pause", "fill-color"))
        .map((k) => k.key),
    ).toEqual(["c0l0", "c1l0"]);
  });
});
