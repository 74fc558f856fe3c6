/**
 * The names of an image config's layers in the list (web/src/builder/image/layer-list.tsx). What a new layer starts
 * with is the contract's (image-layer-types.ts `newImageLayer`), tested there and in test/layer-type-recipe.test.ts.
 */
import { describe, expect, it } from "vitest";
import { layerLabel } from "../../../../src/builder/image/layer-list.tsx";

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
