/**
 * `title` (title.ts, also title-background's title): its size, box and place, its fade-in (zooming by default) or its
 * word/letter reveal, and what a preview scales. The motion is asserted as the filters ffmpeg runs.
 */
import { describe, expect, it } from "vitest";
import { title, titleStyle, type TitleLayer } from "../../../../src/video/layers/title.ts";

const layer = (extra: Partial<TitleLayer> = {}) => ({ type: "title", text: "Hi", ...extra }) as TitleLayer;
/** A 1 s layer from 0.4 s of its clip at 25 fps, drawn whole. */
const WIN = { startFrame: 10, frames: 25, start: 0.4, duration: 1, skip: 0, drawn: 25 };
const BOX = { x: 10, y: 20, w: 100, h: 40 };
const FRAME = { W: 320, H: 180, fps: 25 };

describe("title", () => {
  it("is 10 % of the frame's shorter side (4-500 px), at most 80 % of its width, centred", () => {
    expect([
      title.fontSize(layer(), 320, 180),
      title.fontSize(layer(), 10, 10),
      title.fontSize(layer({ fontSize: 60 }), 320, 180),
    ]).toEqual([18, 4, 60]);
    expect(title.boxCss(layer(), 18, 320)).toBe("max-width:256px;text-align:center;");
    expect(title.placement(layer({ position: "top" }))).toMatchObject({ position: "top" });
  });

  it("fades in over 0.5 s (or animationDuration) from the layer's start, zooming in by default", () => {
    expect(title.motion(layer(), WIN, BOX, FRAME)).toEqual({
      pre: ["zoompan=z='1+0.1*((in+0)/24)':x='(iw-iw/zoom)/2':y='(ih-ih/zoom)/2':d=1:s=100x40:fps=25"],
      post: ["fade=t=in:st=0.4:d=0.5:alpha=1"],
      x: 10,
      y: 20,
    });
    expect(title.motion(layer({ zoomDirection: null, animationDuration: 2 }), WIN, BOX, FRAME)).toEqual({
      pre: [],
      // No longer than the layer.
      post: ["fade=t=in:st=0.4:d=1:alpha=1"],
      x: 10,
      y: 20,
    });
  });

  it("in a window, zooms from the layer's frame the window starts at", () => {
    expect(
      title.motion(layer({ zoomDirection: "out" }), { ...WIN, skip: 7, drawn: 18 }, BOX, FRAME).pre,
    ).toEqual([
      "zoompan=z='1+0.1*(1-((in+7)/24))':x='(iw-iw/zoom)/2':y='(ih-ih/zoom)/2':d=1:s=100x40:fps=25",
    ]);
  });

  it("neither zooms nor fades a word-by-word or letter-by-letter title: its states reveal it", () => {
    for (const style of ["word-by-word", "letter-by-letter"] as const) {
      expect(title.motion(layer({ style }), WIN, BOX, FRAME)).toEqual({ pre: [], post: [], x: 10, y: 20 });
      expect(title.zoomMargin(layer({ style }))).toBe(0);
    }
    expect(titleStyle(layer())).toBe("fade-in");
  });

  it("reveals over 60 % of the layer up to 2 s, or animationDuration, never longer than the layer", () => {
    expect(title.revealSeconds(layer({ style: "word-by-word" }), 1)).toBeCloseTo(0.6, 9);
    expect(title.revealSeconds(layer({ style: "word-by-word" }), 10)).toBe(2);
    expect(title.revealSeconds(layer({ style: "letter-by-letter", animationDuration: 3 }), 10)).toBe(3);
    expect(title.revealSeconds(layer({ style: "letter-by-letter", animationDuration: 3 }), 1)).toBe(1);
    expect(title.revealSeconds(layer(), 10)).toBe(0.5);
  });

  it("leaves room for its zoom, and scales its pixel sizes for a preview", () => {
    expect([
      title.zoomMargin(layer()),
      title.zoomMargin(layer({ zoomAmount: 0.3 })),
      title.zoomMargin(layer({ zoomDirection: null })),
    ]).toEqual([0.1, 0.3, 0]);
    expect(title.scalePixels(layer({ fontSize: 40, outlineWidth: 4 }), 0.5)).toMatchObject({
      fontSize: 20,
      outlineWidth: 2,
    });
    expect(title.scalePixels(layer(), 0.5)).toMatchObject({ fontSize: undefined, outlineWidth: undefined });
  });
});
