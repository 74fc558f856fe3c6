/** fitRangeOf (text-type.ts): which text layers are fitted into their box (minFontSize/maxFontSize). */
import { describe, expect, it } from "vitest";
import { isText, LAYER_TYPES, textTypeOf, type TextLayer } from "../../../../src/video/layers/index.ts";
import { fitRangeOf } from "../../../../src/video/layers/text-type.ts";

const range = { minFontSize: 12, maxFontSize: 60 };
const layer = (type: string, extra: object = range) => ({ type, text: "a", ...extra }) as TextLayer;

describe("fitRangeOf", () => {
  it("is the range of a layer with both bounds, of a type whose grammar has them", () => {
    const fitted = Object.keys(LAYER_TYPES).filter((type) => {
      const l = layer(type);
      return isText(l) && fitRangeOf(textTypeOf(l), l) !== null;
    });
    expect(fitted).toEqual(["title", "subtitle", "news-title", "title-background"]);
    expect(fitRangeOf(textTypeOf(layer("title")), layer("title"))).toEqual({ min: 12, max: 60 });
  });

  it("is null with one bound or none (drawn at the type's font size), and for slide-in-text, which has none", () => {
    expect(fitRangeOf(textTypeOf(layer("title")), layer("title", { maxFontSize: 60 }))).toBeNull();
    expect(fitRangeOf(textTypeOf(layer("subtitle")), layer("subtitle", {}))).toBeNull();
    expect(fitRangeOf(textTypeOf(layer("slide-in-text")), layer("slide-in-text"))).toBeNull();
  });
});
