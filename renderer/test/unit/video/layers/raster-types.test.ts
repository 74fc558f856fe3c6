/** Which layers are rasterised before ffmpeg runs (raster-types.ts), and which of them are text on the sheet. */
import { describe, expect, it } from "vitest";
import { isRaster, isText, RASTER_TYPES } from "../../../../src/video/layers/raster-types.ts";
import type { Layer } from "../../../../src/video/types.ts";

describe("rasterised types", () => {
  it("rasterises the text types and html; html alone is captured page by page rather than drawn on the sheet", () => {
    const of = (type: string) => ({ type }) as Layer;
    expect(RASTER_TYPES.filter((t) => isText(of(t)))).toEqual([
      "title",
      "subtitle",
      "news-title",
      "slide-in-text",
      "title-background",
    ]);
    expect([isRaster(of("html")), isText(of("html"))]).toEqual([true, false]);
    expect(["image", "video", "gl", "fill-color"].some((t) => isRaster(of(t)))).toBe(false);
  });
});
