/**
 * `subtitle`: a full-width band at the bottom, its text at 5 % of the shorter side on a translucent
 * background, fading in while it slides from the left on editly's eased banner clock.
 */
import type { LayerOf } from "../types.ts";
import { clamp, ffNumber } from "../values.ts";
import { bannerEase, cssColor, scaled, type TextType } from "./text-type.ts";

export const subtitle: TextType<LayerOf<"subtitle">> = {
  fontSize: (layer, W, H) => clamp(layer.fontSize ?? Math.min(W, H) / 20, 4, 500),
  boxCss: (layer, _size, W) =>
    `width:${W}px;box-sizing:border-box;text-align:center;background:${cssColor(layer.backgroundColor, "rgba(0,0,0,0.3)")};`,
  placement: (layer) => (layer.position !== undefined ? layer : { ...layer, position: "bottom" }),
  motion: (layer, win, box, frame) => {
    // editly: opacity and a slide from `padding` (5 % of the shorter side) to the left, both eased.
    // The opacity is a linear alpha fade over warped timestamps (pts = the eased value in seconds),
    // then the frame times are put back: a per-frame alpha without a per-pixel expression.
    const pad = 0.05 * Math.min(frame.W, frame.H);
    const post = [
      `settb=AVTB,setpts='(${bannerEase(layer, win, 1, "T")})/TB'`,
      "fade=t=in:st=0:d=1:alpha=1",
      `settb=1/${frame.fps},setpts=N+${win.startFrame + win.skip}`,
    ];
    return {
      pre: [],
      post,
      x: `${box.x}-${ffNumber(pad)}*(1-(${bannerEase(layer, win, 1, "t")}))`,
      y: box.y,
    };
  },
  revealSeconds: () => 0,
  zoomMargin: () => 0,
  scalePixels: (layer, s) => ({ ...layer, fontSize: scaled(layer.fontSize, s) }),
  fits: true,
};
