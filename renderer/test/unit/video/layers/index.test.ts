/**
 * The layer registry (layers/index.ts): a compiler for every type that draws, the expansion of title-background and
 * editly-banner into the layers they are made of, and the keys and config paths every layer is known by.
 */
import { describe, expect, it } from "vitest";
import { VIDEO_LAYER_TYPES } from "@media-render/contract/config/video-layer-types";
import {
  COMPILERS,
  compileLayer,
  EDITLY_BANNER_TEXT,
  expandLayers,
  keyedLayers,
  keyedOf,
} from "../../../../src/video/layers/index.ts";
import { RASTER_TYPES } from "../../../../src/video/layers/raster-types.ts";
import type { Layer } from "../../../../src/video/types.ts";
import { contextOf, specOf } from "../../../helpers/graph-spec.ts";

describe("COMPILERS", () => {
  it("has a compiler for every layer type of the grammar but those that become audio tracks", () => {
    const types = Object.keys(VIDEO_LAYER_TYPES).sort();
    const compiled = Object.keys(COMPILERS).sort();
    expect(types.filter((t) => !compiled.includes(t))).toEqual(["detached-audio", "editly-banner", "speech"]);
    expect(compiled.filter((t) => !types.includes(t))).toEqual([]);
    for (const t of RASTER_TYPES) expect(COMPILERS[t]).toBe(COMPILERS.title);
  });

  it("compiles a type without a compiler to nothing", () => {
    const spec = specOf({ clips: [{ duration: 1, layers: [{ type: "pause" }] }] });
    const ctx = contextOf(spec);
    const win = { startFrame: 0, frames: 25, start: 0, duration: 1, skip: 0, drawn: 25 };
    const detached = { type: "detached-audio", path: "/in/a.mp3" } as Layer;
    expect(compileLayer(detached, win, ctx, "c0l0")).toBeNull();
    expect(ctx.filters).toEqual([]);
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
