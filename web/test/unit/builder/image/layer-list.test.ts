/**
 * New layers of an image config and their names in the list (web/src/builder/image/layer-list.tsx): every type the
 * served schema lists starts as a layer the service accepts, in the middle of the canvas.
 */
import { describe, expect, it } from "vitest";
import { validateJobConfig } from "@media-render/contract/config";
import { configJsonSchema } from "../../../../../src/schemas/json-schemas.ts";
import { layerLabel, newImageLayer } from "../../../../src/builder/image/layer-list.tsx";
import { layerTypes, schemaAt, schemaDoc, type Schema } from "../../../../src/builder/schema/fields.ts";

describe("newImageLayer", () => {
  it("starts every layer type of the schema as one the service accepts, given a picture", () => {
    const served = schemaDoc(configJsonSchema("image") as unknown as Schema);
    const items = schemaAt(served, { layers: [] }, ["layers"])!.items as Schema;
    const refused = layerTypes(served, items).flatMap((type) => {
      const layer = newImageLayer(type, 1280, 720, "/image/2026-01-01/u/photo.png");
      const result = validateJobConfig("image", { width: 1280, height: 720, layers: [layer] });
      return result.valid ? [] : [`${type}: ${JSON.stringify(result.errors)}`];
    });
    expect(refused).toEqual([]);
  });

  it("centres a shape's box on the canvas, and a text's centre line", () => {
    expect(newImageLayer("circle", 1280, 720)).toEqual({
      type: "circle",
      x: 520,
      y: 240,
      width: 240,
      height: 240,
      fill: "#f59e0b",
    });
    expect(newImageLayer("text", 1280, 720)).toMatchObject({ x: 640, align: "center" });
    expect(newImageLayer("image", 1, 1)).toEqual({
      type: "image",
      x: 0,
      y: 0,
      width: 1,
      height: 1,
      fit: "cover",
    });
  });
});

describe("layerLabel", () => {
  it("names a layer by its type and what it shows", () => {
    expect(layerLabel({ type: "text", text: "Hello" })).toBe('text "Hello"');
    expect(layerLabel({ type: "text", text: "a".repeat(30) })).toBe(`text "${"a".repeat(24)}…"`);
    expect(layerLabel({ type: "image", path: "/image/2026/u/photo.png" })).toBe("image photo.png");
    expect(layerLabel({ type: "rectangle", fill: "#fff" })).toBe("rectangle #fff");
    expect([layerLabel({ type: "gradient" }), layerLabel({}), layerLabel(null)]).toEqual([
      "gradient",
      "no type",
      "not an object",
    ]);
  });
});
