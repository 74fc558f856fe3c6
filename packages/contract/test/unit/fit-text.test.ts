import { describe, expect, it } from "vitest";
import { fitRange } from "../../src/fit-text.ts";
import { IMAGE_LAYER_TYPES } from "../../src/config/image-layer-types.ts";
import { applyLayerDefaults, validateJobConfig, type ImageConfig } from "../../src/config/index.ts";
import { VIDEO_LAYER_TYPES } from "../../src/config/video-layer-types.ts";
import { imageConfig, videoConfig } from "../helpers/examples.ts";

const pairs = (type: string, config: unknown) => {
  const result = validateJobConfig(type, config);
  if (result.valid) throw new Error("expected the config to be rejected");
  return result.errors.map((e) => [e.field, e.message]);
};
const valid = (type: "image" | "video", config: unknown) => {
  const result = validateJobConfig(type, config);
  if (!result.valid) throw new Error(JSON.stringify(result.errors));
  return result.config;
};
const validImage = (config: unknown) => valid("image", config) as ImageConfig;
const text = (extra: Record<string, unknown>) => ({ type: "text", text: "{{name}}", ...extra });
const title = (extra: Record<string, unknown>) => ({ type: "title", text: "Name", ...extra });
const video = (...layers: unknown[]) => videoConfig([{ duration: 2, layers }]);

describe("minFontSize and maxFontSize", () => {
  it("are accepted together on image text layers (with a width) and video title, subtitle and news-title layers, as written", () => {
    const image = validImage(imageConfig([text({ width: 400, minFontSize: 12, maxFontSize: 96 })]));
    expect(image.layers[0]).toMatchObject({ minFontSize: 12, maxFontSize: 96 });
    const layers = ["title", "title-background", "subtitle", "news-title"].map((type) => ({
      type,
      text: "Name",
      minFontSize: 20,
      maxFontSize: 120,
    }));
    const config = valid("video", video(...layers)) as { clips: { layers: object[] }[] };
    for (const layer of config.clips[0]!.layers)
      expect(layer).toMatchObject({ minFontSize: 20, maxFontSize: 120 });
  });

  it("are the two properties of image text and video title, subtitle and news-title layers, each with its rules", () => {
    const withThem = (table: Record<string, { entries: object }>) =>
      Object.entries(table)
        .filter(([, t]) => "minFontSize" in t.entries && "maxFontSize" in t.entries)
        .map(([type]) => type);
    expect(withThem(IMAGE_LAYER_TYPES)).toEqual(["text"]);
    expect(withThem(VIDEO_LAYER_TYPES)).toEqual(["title", "subtitle", "news-title", "title-background"]);
    for (const t of [...Object.values(IMAGE_LAYER_TYPES), ...Object.values(VIDEO_LAYER_TYPES)]) {
      expect("minFontSize" in t.entries).toBe("maxFontSize" in t.entries);
      // A type with them checks them on the layer as rendered (both bounds, in order).
      const rendered = (t as { renderedRules?: (l: object) => unknown[] }).renderedRules;
      expect(rendered?.({ minFontSize: 10 }).length ?? 0).toBe("minFontSize" in t.entries ? 1 : 0);
    }
  });

  it("need each other, on the layer or from defaults", () => {
    expect(pairs("image", imageConfig([text({ width: 400, minFontSize: 12 })]))).toEqual([
      [
        "config.layers[0].maxFontSize",
        'is required with "minFontSize": the text is fitted between the two (set both, on the layer or in defaults)',
      ],
    ]);
    expect(pairs("video", video(title({ maxFontSize: 90 })))).toEqual([
      [
        "config.clips[0].layers[0].minFontSize",
        'is required with "maxFontSize": the text is fitted between the two (set both, on the layer or in defaults)',
      ],
    ]);
    // One from defaults.layerType, the other on the layer: the layer as rendered has both.
    const defaults = { layerType: { title: { minFontSize: 24 } } };
    valid("video", { ...video(title({ maxFontSize: 90 })), defaults });
    // In globalLayers as in clips.
    expect(pairs("video", { ...video(title({})), globalLayers: [title({ minFontSize: 30 })] })).toEqual([
      [
        "config.globalLayers[0].maxFontSize",
        'is required with "minFontSize": the text is fitted between the two (set both, on the layer or in defaults)',
      ],
    ]);
  });

  it("keep the minimum at most the maximum (equal is one size)", () => {
    expect(pairs("image", imageConfig([text({ width: 400, minFontSize: 50, maxFontSize: 40 })]))).toEqual([
      ["config.layers[0].maxFontSize", "must be at least minFontSize (50)"],
    ]);
    expect(pairs("video", video(title({ minFontSize: 60, maxFontSize: 59.5 })))).toEqual([
      ["config.clips[0].layers[0].maxFontSize", "must be at least minFontSize (60)"],
    ]);
    valid("image", imageConfig([text({ width: 400, minFontSize: 40, maxFontSize: 40 })]));
  });

  it("stay within each type's font-size limits", () => {
    expect(pairs("image", imageConfig([text({ width: 400, minFontSize: 0, maxFontSize: 5000 })]))).toEqual([
      ["config.layers[0].minFontSize", "must be greater than 0"],
      ["config.layers[0].maxFontSize", "must be at most 4096"],
    ]);
    expect(pairs("video", video(title({ minFontSize: 4, maxFontSize: 501 })))).toEqual([
      ["config.clips[0].layers[0].minFontSize", "must be at least 8"],
      ["config.clips[0].layers[0].maxFontSize", "must be at most 500"],
    ]);
    expect(pairs("video", video(title({ minFontSize: "big", maxFontSize: 90 })))).toEqual([
      ["config.clips[0].layers[0].minFontSize", "must be a number (received string)"],
    ]);
  });

  it("need a width on an image text layer: the box the text is fitted into", () => {
    expect(pairs("image", imageConfig([text({ minFontSize: 10, maxFontSize: 40, height: 80 })]))).toEqual([
      [
        "config.layers[0].width",
        'is required with "minFontSize" and "maxFontSize": it is the box the text is fitted into (set it on the layer or in defaults)',
      ],
    ]);
    valid(
      "image",
      imageConfig([text({ minFontSize: 10, maxFontSize: 40 })], {
        defaults: { layerType: { text: { width: 300 } } },
      }),
    );
  });

  it("are not combined with fontSize on one object, but a more specific level's choice wins over a default", () => {
    expect(
      pairs("image", imageConfig([text({ width: 400, fontSize: 30, minFontSize: 10, maxFontSize: 40 })])),
    ).toEqual([
      [
        "config.layers[0].fontSize",
        'cannot be combined with "minFontSize" and "maxFontSize": the text is fitted between those, so use one or the other',
      ],
    ]);
    expect(
      pairs("video", { ...video(title({})), defaults: { layer: { fontSize: 30, maxFontSize: 40 } } }),
    ).toContainEqual([
      "config.defaults.layer.fontSize",
      'cannot be combined with "minFontSize" and "maxFontSize": the text is fitted between those, so use one or the other',
    ]);
    const defaults = {
      layer: { fontSize: 30 },
      layerType: { text: { minFontSize: 10, maxFontSize: 40, width: 300 } },
    };
    const config = validImage(imageConfig([text({}), text({ fontSize: 18 })], { defaults }));
    const [fitted, fixed] = config.layers.map((l) => applyLayerDefaults(config.defaults, l));
    expect(fitted).toMatchObject({ minFontSize: 10, maxFontSize: 40 });
    expect(fitted).not.toHaveProperty("fontSize");
    expect(fixed).toMatchObject({ fontSize: 18 });
    expect(fixed).not.toHaveProperty("minFontSize");
    expect(fixed).not.toHaveProperty("maxFontSize");
  });

  it("from defaults.layer are checked only on the types that have them: other layers ignore them", () => {
    const defaults = { layer: { minFontSize: 10 } };
    valid("image", imageConfig([{ type: "rectangle", width: 10, height: 10 }], { defaults }));
    valid("video", { ...video({ type: "slide-in-text", text: "a" }), defaults });
    expect(fitRange({ minFontSize: 10, maxFontSize: 20 })).toEqual({ min: 10, max: 20 });
    expect(fitRange({ minFontSize: 10 })).toBeNull();
    expect(fitRange({})).toBeNull();
  });
});
