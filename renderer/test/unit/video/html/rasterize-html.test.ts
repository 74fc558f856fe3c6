/** An html layer's size and how many frames it captures. */
import { describe, expect, it } from "vitest";
import { htmlFrameCount, htmlLayerSize } from "../../../../src/video/html/rasterize-html.ts";

describe("html layer size and frames", () => {
  it("defaults to the video size, rounds down to even (evenDimension)", () => {
    expect(htmlLayerSize({ type: "html" }, 1280, 720)).toEqual({ w: 1280, h: 720 });
    expect(htmlLayerSize({ type: "html", width: 301, height: 99 }, 1280, 720)).toEqual({ w: 300, h: 98 });
  });

  it("static = 1 frame; animated = duration (5 s default, 30 s max) cut to the window", () => {
    expect(htmlFrameCount({ type: "html" }, 30, 10)).toBe(1);
    expect(htmlFrameCount({ type: "html", animated: true }, 30, 10)).toBe(150);
    expect(htmlFrameCount({ type: "html", animated: true, duration: 2 }, 30, 1)).toBe(30);
    expect(htmlFrameCount({ type: "html", animated: true, duration: 99 }, 10, 60)).toBe(300);
  });
});
