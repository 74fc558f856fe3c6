/**
 * `subtitle` (subtitle.ts): a full-width band at the bottom on a translucent background, sliding in from the left
 * and fading in on editly's eased banner clock. The fade is an alpha fade over timestamps warped to the eased value,
 * then put back on the frame grid: the chain ffmpeg runs is asserted whole.
 */
import { describe, expect, it } from "vitest";
import { subtitle } from "../../../../src/video/layers/subtitle.ts";
import type { LayerOf } from "../../../../src/video/types.ts";

const layer = (extra: Partial<LayerOf<"subtitle">> = {}) =>
  ({ type: "subtitle", text: "Hi", ...extra }) as LayerOf<"subtitle">;
const WIN = { startFrame: 10, frames: 50, start: 0.4, duration: 2, skip: 0, drawn: 50 };
const BOX = { x: 0, y: 140, w: 320, h: 30 };
const FRAME = { W: 320, H: 180, fps: 25 };

describe("subtitle", () => {
  it("is 5 % of the shorter side, as wide as the frame, on a 30 % black band unless given a colour", () => {
    expect(subtitle.fontSize(layer(), 320, 180)).toBe(9);
    expect(subtitle.boxCss(layer(), 9, 320)).toBe(
      "width:320px;box-sizing:border-box;text-align:center;background:rgba(0,0,0,0.3);",
    );
    expect(subtitle.boxCss(layer({ backgroundColor: "#ff000080" }), 9, 320)).toContain(
      "background:#ff000080;",
    );
  });

  it("sits at the bottom unless it names a position", () => {
    expect(subtitle.placement(layer()).position).toBe("bottom");
    expect(subtitle.placement(layer({ position: "top" })).position).toBe("top");
  });

  it("slides 5 % of the shorter side in from the left and fades in on the eased clock, by delay and speed", () => {
    const ease = (time: string) =>
      `if(gte(clip(((${time}-0.4)/2-0.25)*2,0,1),1),1,1-pow(2,-10*clip(((${time}-0.4)/2-0.25)*2,0,1)))`;
    expect(
      subtitle.motion(layer({ delay: 0.25, speed: 2 }), { ...WIN, skip: 5, drawn: 45 }, BOX, FRAME),
    ).toEqual({
      pre: [],
      post: [`settb=AVTB,setpts='(${ease("T")})/TB'`, "fade=t=in:st=0:d=1:alpha=1", "settb=1/25,setpts=N+15"],
      x: `0-9*(1-(${ease("t")}))`,
      y: 140,
    });
  });

  it("reveals nothing word by word, needs no zoom margin, and scales its font size for a preview", () => {
    expect([subtitle.revealSeconds(layer(), 2), subtitle.zoomMargin(layer())]).toEqual([0, 0]);
    expect(subtitle.scalePixels(layer({ fontSize: 30 }), 0.5).fontSize).toBe(15);
  });
});
