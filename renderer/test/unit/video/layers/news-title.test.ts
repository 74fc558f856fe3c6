/** `news-title` (news-title.ts): editly's banner, red band at 8 % of the height, sliding in from the left. */
import { describe, expect, it } from "vitest";
import { newsTitle } from "../../../../src/video/layers/news-title.ts";
import type { LayerOf } from "../../../../src/video/types.ts";

const layer = (extra: Partial<LayerOf<"news-title">> = {}) =>
  ({ type: "news-title", text: "News", ...extra }) as LayerOf<"news-title">;

describe("news-title", () => {
  it("is 5 % of the shorter side on a band padded by its size, red unless given a colour", () => {
    expect(newsTitle.fontSize(layer(), 320, 180)).toBe(9);
    expect(newsTitle.boxCss(layer(), 10, 320)).toBe("background:#d02a42;padding:4px 8px;");
    expect(newsTitle.boxCss(layer({ backgroundColor: "navy" }), 10, 320)).toBe(
      "background:navy;padding:4px 8px;",
    );
  });

  it("pads a fitted band (minFontSize/maxFontSize) by the size the page fits it to", () => {
    expect(newsTitle.boxCss(layer({ minFontSize: 8, maxFontSize: 40 }), 40, 320)).toBe(
      "background:#d02a42;padding:round(nearest, 0.4em + 0px, 1px) round(nearest, 0.8em + 0px, 1px);",
    );
  });

  it("sits at the left edge, 8 % down, unless it names a position", () => {
    expect(newsTitle.placement(layer()).position).toEqual({ x: 0, y: 0.08, originX: "left", originY: "top" });
    expect(newsTitle.placement(layer({ position: "bottom" })).position).toBe("bottom");
  });

  it("slides in from beyond the left edge on editly's banner clock, three times as fast as a subtitle", () => {
    const win = { startFrame: 0, frames: 25, start: 1, duration: 1, skip: 3, drawn: 22 };
    const motion = newsTitle.motion(
      layer({ delay: 0.1 }),
      win,
      { x: 0, y: 14, w: 120, h: 20 },
      { W: 320, H: 180, fps: 25 },
    );
    const x = "clip(((t-1)/1-0.1)*3,0,1)";
    expect(motion).toEqual({
      pre: [],
      post: [],
      x: `0-120*(1-(if(gte(${x},1),1,1-pow(2,-10*${x}))))`,
      y: 14,
    });
  });
});
