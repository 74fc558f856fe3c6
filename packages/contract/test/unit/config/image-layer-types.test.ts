/**
 * The table of image layer types (image-layer-types.ts): the grammar's union, the caps and the files a type
 * references come from it, and what the builder starts each type with is a valid layer in the middle of the canvas.
 */
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { ImageLayerSchema } from "../../../src/config/image.ts";
import {
  IMAGE_LAYER_TYPES,
  newImageLayer,
  type ImageLayerType,
} from "../../../src/config/image-layer-types.ts";
import { validateJobConfig } from "../../../src/config/index.ts";
import { starterFiles } from "../../../src/config/layer-set.ts";
import { HTML_MAX_LAYERS_PER_JOB } from "../../../src/config/limits.ts";

const TYPES = Object.keys(IMAGE_LAYER_TYPES) as ImageLayerType[];

type Union = { pipe: [{ options: { entries: { type: { literal: string } } }[] }] };

const errorsOf = (config: unknown) => {
  const result = validateJobConfig("image", config);
  return result.valid ? [] : result.errors.map((e) => `${e.field}: ${e.message}`);
};

describe("IMAGE_LAYER_TYPES", () => {
  it("keys every entry by its type, and the grammar's union lists them all in its order", () => {
    for (const type of TYPES)
      expect((IMAGE_LAYER_TYPES[type].entries.type as v.LiteralSchema<string, undefined>).literal).toBe(type);
    const union = (ImageLayerSchema as unknown as Union).pipe[0];
    expect(union.options.map((o) => o.entries.type.literal)).toEqual(TYPES);
  });

  it("reads the files each type references off its properties", () => {
    expect(TYPES.map((t) => [t, IMAGE_LAYER_TYPES[t].files])).toEqual([
      ["image", { path: "image" }],
      ["text", { fontPath: "font" }],
      ["rectangle", {}],
      ["circle", {}],
      ["gradient", {}],
      ["html", {}],
    ]);
  });

  it("caps html layers per job", () => {
    const layers = Array(HTML_MAX_LAYERS_PER_JOB + 1).fill({ type: "html", html: "<p>x</p>" });
    expect(errorsOf({ width: 100, height: 100, layers })).toEqual([
      `config.layers[${HTML_MAX_LAYERS_PER_JOB}]: at most ${HTML_MAX_LAYERS_PER_JOB} html layers are allowed per job`,
    ]);
  });

  it("starts every type in the builder as a valid layer inside the canvas", () => {
    const canvas = { width: 900, height: 600 };
    for (const type of TYPES) {
      const entry = IMAGE_LAYER_TYPES[type];
      const layer = {
        type,
        ...starterFiles(entry, () => "/image/2024-01-15/u/a.png"),
        ...entry.starter(canvas),
      };
      expect(errorsOf({ ...canvas, layers: [layer] }), type).toEqual([]);
      const { x, y } = layer as { x: number; y: number };
      expect(x >= 0 && x < canvas.width && y >= 0 && y < canvas.height, type).toBe(true);
    }
    expect(IMAGE_LAYER_TYPES.rectangle.starter(canvas)).toEqual({
      x: 300,
      y: 200,
      width: 300,
      height: 200,
      fill: "#1d4ed8",
    });
  });

  it("gives the builder a new layer of each type: a required picture, its starter, in the middle of the canvas", () => {
    const photo = "/image/2026-01-01/u/photo.png";
    const fileFor = (kind: string) => (kind === "image" ? photo : undefined);
    expect(newImageLayer("circle", { width: 1280, height: 720 }, fileFor)).toEqual({
      type: "circle",
      x: 520,
      y: 240,
      width: 240,
      height: 240,
      fill: "#f59e0b",
    });
    expect(newImageLayer("text", { width: 1280, height: 720 }, fileFor)).toMatchObject({
      x: 640,
      align: "center",
    });
    expect(newImageLayer("image", { width: 1, height: 1 }, fileFor)).toEqual({
      type: "image",
      path: photo,
      x: 0,
      y: 0,
      width: 1,
      height: 1,
      fit: "cover",
    });
    // No picture to point at: left for the user to pick; a name the grammar lacks: only its type.
    expect(newImageLayer("image", { width: 1, height: 1 }, () => undefined)).not.toHaveProperty("path");
    expect(newImageLayer("toString", { width: 1, height: 1 }, fileFor)).toEqual({ type: "toString" });
  });
});
