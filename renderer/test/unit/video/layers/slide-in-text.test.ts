/** `slide-in-text` (slide-in-text.ts): editly's spaced-out text, sliding in at 10-30 % of its layer, out at 80-90 %. */
import { describe, expect, it } from "vitest";
import { slideInText } from "../../../../src/video/layers/slide-in-text.ts";
import type { LayerOf } from "../../../../src/video/types.ts";

const layer = (extra: Partial<LayerOf<"slide-in-text">> = {}) =>
  ({ type: "slide-in-text", text: "Slide", ...extra }) as LayerOf<"slide-in-text">;

describe("slide-in-text", () => {
  it("sizes its font as a fraction of the frame's width (default 5 %), spaced by charSpacing", () => {
    expect([
      slideInText.fontSize(layer(), 320, 180),
      slideInText.fontSize(layer({ fontSize: 0.1 }), 320, 180),
    ]).toEqual([16, 32]);
    expect(slideInText.boxCss(layer(), 16, 320)).toBe("letter-spacing:0.1em;white-space:pre;");
    expect(slideInText.boxCss(layer({ charSpacing: 0.5 }), 16, 320)).toBe(
      "letter-spacing:0.5em;white-space:pre;",
    );
  });

  it("slides 10 % of the frame's width in with ease-out-expo, fading in with it and out near the end", () => {
    const win = { startFrame: 25, frames: 50, start: 1, duration: 2, skip: 0, drawn: 50 };
    expect(
      slideInText.motion(layer(), win, { x: 50, y: 60, w: 200, h: 30 }, { W: 320, H: 180, fps: 25 }),
    ).toEqual({
      pre: [],
      post: ["fade=t=in:st=1.2:d=0.4:alpha=1", "fade=t=out:st=2.6:d=0.2:alpha=1"],
      x: "50-32*(1-(1-pow(2,-10*min(1,max(0,(t-1.2)/0.4)))))",
      y: 60,
    });
  });

  it("scales nothing for a preview: its size is already a fraction of the frame", () => {
    const l = layer({ fontSize: 0.1 });
    expect(slideInText.scalePixels(l, 0.5)).toBe(l);
  });
});
