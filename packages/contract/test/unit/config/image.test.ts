import { describe, expect, it } from "vitest";
import { limits, validateJobConfig } from "../../../src/config/index.ts";
import { imageConfig, imageLayers } from "../../helpers/examples.ts";

const errorsOf = (config: unknown) => {
  const result = validateJobConfig("image", config);
  if (result.valid) throw new Error("expected the config to be rejected");
  return result.errors;
};
const fields = (config: unknown) => errorsOf(config).map((e) => e.field);

describe("image config: accepted", () => {
  it("accepts every layer type with its documented properties", () => {
    const result = validateJobConfig("image", imageConfig());
    expect(result).toMatchObject({ valid: true, type: "image", outputFormat: "png", estimatedTokens: 8 });
  });

  it.each(Object.entries(imageLayers))("accepts a lone %s layer", (_, layer) => {
    expect(validateJobConfig("image", imageConfig([layer])).valid).toBe(true);
  });

  it("keeps the config as submitted (no defaults are filled in)", () => {
    const config = { width: 10, height: 10, layers: [{ type: "text", text: "x" }] };
    const result = validateJobConfig("image", config);
    expect(result.valid && result.config).toEqual(config);
  });

  it("accepts the nine position names, defaults per layer type and the background alias", () => {
    const names = [
      "center",
      "top",
      "bottom",
      "top-left",
      "top-right",
      "center-left",
      "center-right",
      "bottom-left",
      "bottom-right",
    ];
    const layers = names.map((position) => ({ type: "circle", position }));
    const defaults = {
      layer: { opacity: 0.5, catalogFont: "Open Sans" },
      layerType: { text: { fontSize: 30, color: "red" } },
    };
    expect(validateJobConfig("image", imageConfig(layers, { defaults, background: "white" })).valid).toBe(
      true,
    );
  });

  it("accepts the limits themselves", () => {
    const layers = Array.from({ length: limits.IMAGE_MAX_LAYERS }, () => ({ type: "rectangle" }));
    const config = {
      width: limits.IMAGE_MAX_SIZE,
      height: limits.IMAGE_MIN_SIZE,
      quality: 1,
      format: "jpg",
      layers,
    };
    expect(validateJobConfig("image", config)).toMatchObject({
      valid: true,
      outputFormat: "jpeg",
      estimatedTokens: 52,
    });
  });
});

describe("image config: rejected with field paths", () => {
  it("names the canvas limits", () => {
    const errors = errorsOf({ width: 0, height: 4097, quality: 101, layers: [{ type: "circle" }] });
    expect(errors).toEqual([
      { field: "config.width", message: "must be at least 1", code: "VALIDATION_ERROR" },
      { field: "config.height", message: "must be at most 4096", code: "VALIDATION_ERROR" },
      { field: "config.quality", message: "must be at most 100", code: "VALIDATION_ERROR" },
    ]);
  });

  it("requires integers for the canvas and 1..50 layers", () => {
    expect(errorsOf({ width: 10.5, height: 10, layers: [] })).toEqual([
      { field: "config.width", message: "must be an integer", code: "VALIDATION_ERROR" },
      { field: "config.layers", message: "must contain at least 1 layers", code: "VALIDATION_ERROR" },
    ]);
    const many = Array.from({ length: 51 }, () => ({ type: "circle" }));
    expect(fields({ width: 10, height: 10, layers: many })).toEqual(["config.layers"]);
  });

  it("points at the exact property of the exact layer", () => {
    const layers = [imageLayers.circle, imageLayers.rectangle, { ...imageLayers.image, width: -5 }];
    expect(errorsOf(imageConfig(layers))).toEqual([
      { field: "config.layers[2].width", message: "must be greater than 0", code: "VALIDATION_ERROR" },
    ]);
  });

  it("rejects unknown top-level keys, unknown layer keys and unknown layer types by name", () => {
    const errors = errorsOf(
      imageConfig([{ type: "text", text: "a", fontsize: 3 }, { type: "svg" }, { text: "no type" }], {
        foo: 1,
      }),
    );
    expect(errors.map((e) => [e.field, e.message])).toEqual([
      ["config.layers[0].fontsize", 'Unknown property "fontsize" in text layer'],
      [
        "config.layers[1].type",
        expect.stringContaining('Unknown layer type "svg" in an image job: expected one of "image", "text"'),
      ],
      ["config.layers[2].type", expect.stringContaining("is required: the layer type")],
      ["config.foo", 'Unknown property "foo" in the image config'],
    ]);
  });

  it("rejects wrong types with the received type in the message", () => {
    expect(errorsOf(imageConfig([{ type: "text", text: 5, fontSize: "big", wrap: "yes" }]))).toEqual([
      {
        field: "config.layers[0].text",
        message: "must be a string (received number)",
        code: "VALIDATION_ERROR",
      },
      {
        field: "config.layers[0].wrap",
        message: "must be true or false (received string)",
        code: "VALIDATION_ERROR",
      },
      {
        field: "config.layers[0].fontSize",
        message: "must be a number (received string)",
        code: "VALIDATION_ERROR",
      },
    ]);
  });

  it("rejects enum values outside the documented sets", () => {
    const layers = [
      { type: "image", path: "/i.png", fit: "crop" },
      { type: "text", text: "a", align: "justify" },
      { type: "gradient", gradient: { type: "conic", colors: ["red"] } },
    ];
    expect(errorsOf(imageConfig(layers, { format: "gif" })).map((e) => [e.field, e.message])).toEqual([
      ["config.format", 'must be one of "png", "jpeg", "jpg", "webp"'],
      ["config.layers[0].fit", 'must be one of "cover", "contain", "fill", "inside", "outside"'],
      ["config.layers[1].align", 'must be one of "left", "center", "right"'],
      ["config.layers[2].gradient.type", 'must be one of "linear", "radial"'],
      ["config.layers[2].gradient.colors", "must contain at least 2 colours"],
    ]);
  });

  it("rejects colours that are not colours (they end up in CSS)", () => {
    const layers = [{ type: "rectangle", fill: "red; background: url(https://evil.example)" }];
    expect(errorsOf(imageConfig(layers, { backgroundColor: "#12345" })).map((e) => e.field)).toEqual([
      "config.backgroundColor",
      "config.layers[0].fill",
    ]);
  });

  it("checks positions: names, fractions, origins", () => {
    const layers = [
      { type: "circle", position: "middle" },
      { type: "circle", position: { x: 1.5, y: 0 } },
      { type: "circle", position: { x: 0, y: 0, originX: "top" } },
      { type: "circle", position: { x: 0 } },
    ];
    expect(errorsOf(imageConfig(layers)).map((e) => [e.field, e.message])).toEqual([
      ["config.layers[0].position", expect.stringContaining('must be one of "center", "top"')],
      ["config.layers[1].position.x", "must be at most 1"],
      ["config.layers[2].position.originX", 'must be one of "left", "center", "right"'],
      ["config.layers[3].position.y", "is required"],
    ]);
  });

  it("rejects circle rotation and text borderRadius, which those types do not have", () => {
    const layers = [
      { type: "circle", rotation: 10 },
      { type: "text", text: "a", borderRadius: 4 },
    ];
    expect(fields(imageConfig(layers))).toEqual([
      "config.layers[0].rotation",
      "config.layers[1].borderRadius",
    ]);
  });
});
