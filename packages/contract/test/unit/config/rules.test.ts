import { describe, expect, it } from "vitest";
import { applyLayerDefaults, validateJobConfig } from "../../../src/config/index.ts";
import { FONT, imageConfig, videoConfig } from "../../helpers/examples.ts";

const errorsOf = (type: string, config: unknown) => {
  const result = validateJobConfig(type, config);
  if (result.valid) throw new Error("expected the config to be rejected");
  return result.errors;
};
const pairs = (type: string, config: unknown) => errorsOf(type, config).map((e) => [e.field, e.message]);

describe("type and config are checked before the grammar", () => {
  it.each([["IMAGE"], ["audio"], [undefined], [3]])("rejects type %s with INVALID_JOB_TYPE", (type) => {
    expect(validateJobConfig(type, "not even an object")).toEqual({
      valid: false,
      errors: [{ field: "type", message: 'type must be "image" or "video"', code: "INVALID_JOB_TYPE" }],
      warnings: [],
    });
  });

  it.each([[null], [[]], ["{}"], [42], [undefined]])(
    "rejects config %j with INVALID_CONFIG_TYPE",
    (config) => {
      expect(validateJobConfig("video", config)).toEqual({
        valid: false,
        errors: [{ field: "config", message: "config must be an object", code: "INVALID_CONFIG_TYPE" }],
        warnings: [],
      });
    },
  );

  it("reports grammar problems with VALIDATION_ERROR only after both pass", () => {
    const errors = errorsOf("image", {});
    expect(errors.every((e) => e.code === "VALIDATION_ERROR")).toBe(true);
    expect(errors.map((e) => [e.field, e.message])).toEqual([
      ["config.width", "is required"],
      ["config.height", "is required"],
      ["config.layers", "is required"],
    ]);
  });
});

describe("fonts", () => {
  it("does not combine fontPath and googleFont (or its alias) in one layer, nor in one defaults object", () => {
    const layers = [{ type: "text", text: "a", fontPath: FONT, googleFont: "Roboto" }];
    const defaults = { layer: { fontPath: FONT, catalogFont: "Roboto:400" } };
    expect(pairs("image", imageConfig(layers, { defaults }))).toEqual([
      ["config.layers[0].googleFont", '"fontPath" and "googleFont" cannot be combined in one layer: use one'],
      [
        "config.defaults.layer.catalogFont",
        '"fontPath" and "catalogFont" cannot be combined in one layer: use one',
      ],
    ]);
    const title = { type: "title", text: "a", fontPath: FONT, googleFont: "Roboto" };
    expect(errorsOf("video", videoConfig([{ layers: [title] }])).map((e) => e.field)).toEqual([
      "config.clips[0].layers[0].googleFont",
    ]);
  });

  it("refuses googleFont and its alias catalogFont together, wherever a font may go", () => {
    const both = { googleFont: "Roboto", catalogFont: "Lato" };
    const message = '"catalogFont" is another name for "googleFont": use one of them, not both';
    expect(pairs("image", imageConfig([{ type: "text", text: "a", ...both }]))).toEqual([
      ["config.layers[0].catalogFont", message],
    ]);
    const video = videoConfig([{ layers: [{ type: "subtitle", text: "a", ...both }] }], {
      defaults: { layer: both, layerType: { title: both } },
      autoSubtitles: true,
      autoSubtitlesStyle: both,
    });
    expect(pairs("video", video)).toEqual(
      expect.arrayContaining([
        ["config.clips[0].layers[0].catalogFont", message],
        ["config.defaults.layer.catalogFont", message],
        ["config.defaults.layerType.title.catalogFont", message],
        ["config.autoSubtitlesStyle.catalogFont", message],
      ]),
    );
  });

  it("lets a layer's own font replace a default of the other kind, or under the other name", () => {
    const defaults = { layer: { googleFont: "Roboto:700" } };
    const layer = { type: "text", text: "a", fontPath: FONT };
    expect(validateJobConfig("image", imageConfig([layer], { defaults })).valid).toBe(true);
    expect(applyLayerDefaults(defaults, layer)).toEqual({ type: "text", text: "a", fontPath: FONT });
    const alias = { type: "text", text: "a", catalogFont: "Lato" };
    expect(applyLayerDefaults(defaults, alias)).toEqual(alias);
  });

  it("reads catalogFont as googleFont in the parsed config", () => {
    const result = validateJobConfig(
      "image",
      imageConfig([{ type: "text", text: "a", catalogFont: "Lato:700" }], {
        defaults: { layer: { catalogFont: "Roboto" } },
      }),
    );
    if (!result.valid || result.type !== "image") throw new Error(JSON.stringify(result));
    expect(result.config.layers[0]).toEqual({ type: "text", text: "a", googleFont: "Lato:700" });
    expect(result.config.defaults?.layer).toEqual({ googleFont: "Roboto" });
  });

  it.each([["Montserrat"], ["Montserrat:700"], ["Open Sans:300"], ["Noto Sans:900"]])(
    "accepts googleFont %s",
    (font) => {
      expect(
        validateJobConfig("image", imageConfig([{ type: "text", text: "a", googleFont: font }])).valid,
      ).toBe(true);
    },
  );

  it.each([
    ["Montserrat:750"],
    ["Montserrat:1000"],
    ["Montserrat:bold"],
    [":700"],
    ["Roboto;x"],
    ["Roboto:0"],
  ])("rejects googleFont %s, and the same under catalogFont", (font) => {
    for (const key of ["googleFont", "catalogFont"]) {
      expect(pairs("image", imageConfig([{ type: "text", text: "a", [key]: font }]))).toEqual([
        [`config.layers[0].${key}`, expect.stringContaining("weight of 100..900 in steps of 100")],
      ]);
    }
  });
});

describe("text wrap", () => {
  it("needs width when wrap is true", () => {
    expect(pairs("image", imageConfig([{ type: "text", text: "a", wrap: true }]))).toEqual([
      [
        "config.layers[0].width",
        '"width" is required when "wrap" is true (set it on the layer or in defaults)',
      ],
    ]);
  });

  it("takes width or wrap from the defaults, by priority", () => {
    const wrapOnly = { layerType: { text: { wrap: true } } };
    expect(
      errorsOf("image", imageConfig([{ type: "text", text: "a" }], { defaults: wrapOnly })).map(
        (e) => e.field,
      ),
    ).toEqual(["config.layers[0].width"]);
    const withWidth = { layer: { width: 300 }, layerType: { text: { wrap: true } } };
    expect(
      validateJobConfig("image", imageConfig([{ type: "text", text: "a" }], { defaults: withWidth })).valid,
    ).toBe(true);
    const unwrapped = { layerType: { text: { wrap: true } } };
    expect(
      validateJobConfig(
        "image",
        imageConfig([{ type: "text", text: "a", wrap: false }], { defaults: unwrapped }),
      ).valid,
    ).toBe(true);
  });
});

describe("html layers", () => {
  const html = (extra: Record<string, unknown>) => ({ type: "html", ...extra });

  it("needs exactly one of html and src", () => {
    expect(
      pairs("image", imageConfig([html({}), html({ html: "<b>x</b>", src: "https://example.com" })])),
    ).toEqual([
      ["config.layers[0].html", 'an html layer needs "html" (markup) or "src" (an https URL)'],
      ["config.layers[1].src", '"html" and "src" cannot be combined: use one'],
    ]);
  });

  it("renames allowJavaScript to enableLibraries in its message", () => {
    expect(pairs("image", imageConfig([html({ html: "<b>x</b>", allowJavaScript: true })]))).toEqual([
      [
        "config.layers[0].allowJavaScript",
        '"allowJavaScript" was renamed "enableLibraries" in version 1.4.0: use "enableLibraries"',
      ],
    ]);
    const clip = { duration: 2, layers: [html({ src: "https://example.com", allowJavaScript: false })] };
    expect(errorsOf("video", videoConfig([clip]))[0]!.message).toContain('"enableLibraries"');
  });

  it("caps html at 100 KB, css at 50 KB, counting UTF-8 bytes", () => {
    const kb = (n: number, ch = "a") => ch.repeat(n * 1024);
    expect(validateJobConfig("image", imageConfig([html({ html: kb(100), css: kb(50) })])).valid).toBe(true);
    expect(pairs("image", imageConfig([html({ html: kb(100) + "a", css: kb(50) + "a" })]))).toEqual([
      ["config.layers[0].html", "must be at most 100 KB"],
      ["config.layers[0].css", "must be at most 50 KB"],
    ]);
    // 60 Ki characters of a 2-byte letter: under the character cap, over the byte cap.
    expect(pairs("image", imageConfig([html({ html: kb(60, "é") })]))).toEqual([
      ["config.layers[0].html", "must be at most 100 KB (UTF-8)"],
    ]);
  });

  it("accepts only https src of at most 2048 characters", () => {
    const long = `https://example.com/${"a".repeat(2048 - 20)}`;
    expect(long).toHaveLength(2048);
    expect(validateJobConfig("image", imageConfig([html({ src: long })])).valid).toBe(true);
    expect(
      pairs("image", imageConfig([html({ src: `${long}a` }), html({ src: "http://example.com" })])),
    ).toEqual([
      ["config.layers[0].src", "must be at most 2048 characters"],
      ["config.layers[1].src", "must be an https URL"],
    ]);
  });

  it("limits wait, animated duration and googleFonts", () => {
    const fonts = Array.from({ length: 11 }, (_, i) => `Font${i}`);
    const layer = html({
      src: "https://example.com",
      wait: 5.5,
      animated: true,
      duration: 31,
      googleFonts: fonts,
    });
    expect(pairs("video", videoConfig([{ duration: 2, layers: [layer] }]))).toEqual([
      ["config.clips[0].layers[0].googleFonts", "must contain at most 10 font families"],
      ["config.clips[0].layers[0].wait", "must be at most 5"],
      ["config.clips[0].layers[0].duration", "must be at most 30"],
    ]);
  });

  it("keeps video-only and image-only html properties apart", () => {
    expect(pairs("image", imageConfig([html({ html: "x", animated: true })]))).toEqual([
      ["config.layers[0].animated", 'Unknown property "animated" in html layer'],
    ]);
    expect(pairs("video", videoConfig([{ layers: [html({ html: "x", x: 10 })] }]))).toEqual([
      ["config.clips[0].layers[0].x", 'Unknown property "x" in html layer'],
    ]);
  });

  it("allows at most 5 html layers per job, counting clips and global layers", () => {
    const five = Array.from({ length: 5 }, () => html({ html: "<i>x</i>" }));
    expect(validateJobConfig("image", imageConfig(five)).valid).toBe(true);
    expect(pairs("image", imageConfig([...five, html({ html: "<i>6</i>" })]))).toEqual([
      ["config.layers[5]", "at most 5 html layers are allowed per job"],
    ]);
    const clips = [{ layers: five.slice(0, 3) }, { layers: five.slice(0, 2) }];
    expect(pairs("video", videoConfig(clips, { globalLayers: [html({ html: "<i>g</i>" })] }))).toEqual([
      ["config.globalLayers[0]", "at most 5 html layers are allowed per job"],
    ]);
  });
});
