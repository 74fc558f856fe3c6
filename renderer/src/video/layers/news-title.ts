/**
 * `news-title` (editly's news-title.ts): a banner, its text at 5 % of the shorter side on a red band
 * (`backgroundColor`), top-left at 8 % of the height, sliding in from the left on editly's banner clock
 * `(progress - delay) * speed * 3`.
 */
import type { LayerOf } from "../types.ts";
import { clamp } from "../values.ts";
import { bannerEase, cssColor, fitRangeOf, scaled, sizedLength, type TextType } from "./text-type.ts";

export const newsTitle: TextType<LayerOf<"news-title">> = {
  fontSize: (layer, W, H) => clamp(layer.fontSize ?? Math.min(W, H) * 0.05, 4, 500),
  boxCss: (layer, size) => {
    const fitted = fitRangeOf(newsTitle, layer) !== null;
    const pad = (k: number) => sizedLength(fitted, size, k, 0, "nearest");
    return `background:${cssColor(layer.backgroundColor, "#d02a42")};padding:${pad(0.4)} ${pad(0.8)};`;
  },
  placement: (layer) =>
    layer.position !== undefined
      ? layer
      : { ...layer, position: { x: 0, y: 0.08, originX: "left", originY: "top" } },
  // editly: the band slides in from the left on (progress - delay) * speed * 3.
  motion: (layer, win, box) => ({
    pre: [],
    post: [],
    x: `${box.x}-${box.x + box.w}*(1-(${bannerEase(layer, win, 3, "t")}))`,
    y: box.y,
  }),
  revealSeconds: () => 0,
  zoomMargin: () => 0,
  scalePixels: (layer, s) => ({ ...layer, fontSize: scaled(layer.fontSize, s) }),
  fits: true,
};
