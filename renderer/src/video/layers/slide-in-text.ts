/**
 * `slide-in-text` (editly's slide-in-text.ts): spaced-out text whose size is a fraction of the frame width,
 * revealed between 10 % and 30 % of its window with an ease-out-expo slide, held, faded out from 80 % to 90 %.
 */
import type { LayerOf } from "../types.ts";
import { clamp, f } from "../values.ts";
import { easeOutExpo, fadeIn, fadeOut, type TextType } from "./text-type.ts";

export const slideInText: TextType<LayerOf<"slide-in-text">> = {
  // editly: a fraction of the frame width (JC-vid says height; we follow the engine).
  fontSize: (layer, W) => clamp((layer.fontSize ?? 0.05) * W, 4, 500),
  boxCss: (layer) => `letter-spacing:${layer.charSpacing ?? 0.1}em;white-space:pre;`,
  placement: (layer) => layer,
  motion: (_layer, win, box, frame) => {
    const s = win.start;
    const d = win.duration;
    const dx = frame.W * 0.1;
    const p = `min(1,max(0,(t-${f(s + d * 0.1)})/${f(Math.max(0.001, d * 0.2))}))`;
    return {
      pre: [],
      post: [fadeIn(frame.fps, s + d * 0.1, d * 0.2), fadeOut(frame.fps, s + d * 0.8, d * 0.1)],
      x: `${box.x}-${f(dx)}*(1-${easeOutExpo(p)})`,
      y: box.y,
    };
  },
  revealSeconds: () => 0,
  zoomMargin: () => 0,
  // Its fontSize is a fraction of the frame width, which scales by itself.
  scalePixels: (layer) => layer,
};
