/** The text type registry (text-types.ts) and the rasterised types (raster-types.ts): which module draws which type. */
import { describe, expect, it } from "vitest";
import { newsTitle } from "../../../../src/video/layers/news-title.ts";
import { slideInText } from "../../../../src/video/layers/slide-in-text.ts";
import { subtitle } from "../../../../src/video/layers/subtitle.ts";
import { textMotion, textTypeOf } from "../../../../src/video/layers/text-types.ts";
import { title } from "../../../../src/video/layers/title.ts";
import type { RasterLayer, TextLayer } from "../../../../src/video/layers/raster-types.ts";

const WIN = { startFrame: 0, frames: 25, start: 0, duration: 1, skip: 0, drawn: 25 };
const BOX = { x: 3, y: 4, w: 10, h: 10 };
const FRAME = { W: 320, H: 180, fps: 25 };

describe("textTypeOf", () => {
  it("gives each text type its module, title-background's title the title's", () => {
    const of = (type: string) => textTypeOf({ type, text: "x" } as TextLayer);
    expect([
      of("title"),
      of("title-background"),
      of("subtitle"),
      of("news-title"),
      of("slide-in-text"),
    ]).toEqual([title, title, subtitle, newsTitle, slideInText]);
  });
});

describe("textMotion", () => {
  it("leaves an html layer where it was captured, unmoved", () => {
    expect(textMotion({ type: "html", html: "<p>x</p>" } as RasterLayer, WIN, BOX, FRAME)).toEqual({
      pre: [],
      post: [],
      x: 3,
      y: 4,
    });
  });

  it("asks the layer's text type for the others", () => {
    const layer = { type: "subtitle", text: "x" } as RasterLayer;
    expect(textMotion(layer, WIN, BOX, FRAME)).toEqual(subtitle.motion(layer as never, WIN, BOX, FRAME));
  });
});
