/**
 * `slide-in-text` (editly's slide-in-text.ts): spaced-out text whose size is a fraction of the frame width,
 * revealed between 10 % and 30 % of its window with an ease-out-expo slide, held, faded out from 80 % to 90 %.
 */
import type { LayerOf } from "../types.ts";
import { clamp, ffNumber } from "../values.ts";
import { easeOutExpo, fadeIn, fadeOut, type TextType } from "./text-type.ts";

export const slideInText: TextType<LayerOf<"slide-in-text">> = {
  // editly: a fraction of the frame width (JC-vid says height; we follow the engine).
  fontSize: (layer, W) => clamp((layer.fontSize ?? 0.05) * W, 4, 500),
  boxCss: (layer) => `letter-spacing:${layer.charSpacing ?? 0.1}em;white-space:pre;`,
  placement: (layer) => layer,
  motion: (_layer, win, box, frame) => {
    const start = win.start;
    const duration = win.duration;
    const dx = frame.W * 0.1;
    const progress = `min(1,max(0,(t-${ffNumber(start + duration * 0.1)})/${ffNumber(Math.max(0.001, duration * 0.2))}))`;
    return {
      pre: [],
      post: [
        fadeIn(frame.fps, start + duration * 0.1, duration * 0.2),
        fadeOut(frame.fps, start + duration * 0.8, duration * 0.1),
      ],
      x: `${box.x}-${ffNumber(dx)}*(1-${easeOutExpo(progress)})`,
      y: box.y,
    };
  },
  revealSeconds: () => 0,
  zoomMargin: () => 0,
  // Its fontSize is a fraction of the frame width, which scales by itself.
  scalePixels: (layer) => layer,
};
