/**
 * `image` layers (config reference §1.3). With the picture's natural size known (media_files keeps it) the
 * geometry is computed here, exactly as sharp's `fit` names describe it; the box (what `position`,
 * `rotation` and `borderRadius` apply to) clips the picture:
 * - `fill`: stretched to the box; `cover`: ratio kept, centred, cropped to the box;
 * - `contain`: ratio kept, centred in the box with transparent margins;
 * - `inside`: ratio kept, fits the box but is never enlarged; the box is the picture itself;
 * - `outside`: ratio kept, the smallest size covering the box, not cropped; the box is the picture itself.
 * Only `width` or only `height` keeps the ratio; neither keeps the natural size.
 */
import { assetUrl } from "../page-origins.ts";
import { placement, type Placeable } from "../placement.ts";
import { css, effects, esc } from "../style.ts";

export type Fit = "cover" | "contain" | "fill" | "inside" | "outside";

export interface ImageLayerInput extends Placeable {
  path: string;
  width?: number;
  height?: number;
  fit?: Fit;
  opacity?: number;
  blur?: number;
  borderRadius?: number;
}

export interface Rect {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** The layer box and the picture's rectangle inside it. `natural` is the picture's pixel size. */
export const imageGeometry = (
  layer: Pick<ImageLayerInput, "width" | "height" | "fit">,
  natural: { width: number; height: number },
): { box: { width: number; height: number }; picture: Rect } => {
  const { width: nw, height: nh } = natural;
  const w = layer.width ?? (layer.height ? (layer.height * nw) / nh : nw);
  const h = layer.height ?? (layer.width ? (layer.width * nh) / nw : nh);
  const scaled = (s: number) => ({ width: nw * s, height: nh * s });
  const centred = (size: { width: number; height: number }): Rect => ({
    left: (w - size.width) / 2,
    top: (h - size.height) / 2,
    ...size,
  });
  switch (layer.fit ?? "fill") {
    case "cover":
      return { box: { width: w, height: h }, picture: centred(scaled(Math.max(w / nw, h / nh))) };
    case "contain":
      return { box: { width: w, height: h }, picture: centred(scaled(Math.min(w / nw, h / nh))) };
    case "inside": {
      const size = scaled(Math.min(1, w / nw, h / nh));
      return { box: size, picture: { left: 0, top: 0, ...size } };
    }
    case "outside": {
      const size = scaled(Math.max(w / nw, h / nh));
      return { box: size, picture: { left: 0, top: 0, ...size } };
    }
    default:
      return { box: { width: w, height: h }, picture: { left: 0, top: 0, width: w, height: h } };
  }
};

/** CSS object-fit for pictures whose natural size is unknown (the browser then does the geometry). */
const OBJECT_FIT: Record<Fit, string> = {
  cover: "cover",
  contain: "contain",
  fill: "fill",
  inside: "scale-down",
  outside: "cover",
};

export const imageLayerHtml = (
  layer: ImageLayerInput,
  canvas: { width: number; height: number },
  natural?: { width: number; height: number },
  url: (storageUrl: string) => string = assetUrl,
): string => {
  const src = esc(url(layer.path));
  const round = layer.borderRadius ? layer.borderRadius : undefined;
  if (natural && natural.width > 0 && natural.height > 0) {
    const { box, picture } = imageGeometry(layer, natural);
    const outer = css({
      ...placement(layer, canvas),
      width: box.width,
      height: box.height,
      overflow: "hidden",
      "border-radius": round,
      ...effects(layer),
    });
    const inner = css({ position: "absolute", ...picture, "max-width": "none" });
    return `<div class="l" style="${esc(outer)}"><img src="${src}" style="${esc(inner)}" alt=""></div>`;
  }
  const style = css({
    ...placement(layer, canvas),
    width: layer.width,
    height: layer.height,
    "object-fit": OBJECT_FIT[layer.fit ?? "fill"],
    "border-radius": round,
    ...effects(layer),
  });
  return `<img class="l" src="${src}" style="${esc(style)}" alt="">`;
};
