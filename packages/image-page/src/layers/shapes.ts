/**
 * `rectangle`, `circle` and `gradient` layers (config reference §1.5). Strokes are drawn inside the box
 * (border-box), so a shape covers exactly its x/y/width/height. Defaults the sources leave open: a shape
 * with neither `fill` nor `stroke` is filled black (with a `stroke` alone it is an outline); `strokeWidth`
 * defaults to 1. Gradient colours are spread evenly; `diagonal` runs from the top-left to the bottom-right
 * corner; `radial` goes from the centre (first colour) to the farthest corner (last colour).
 */
import { IMAGE_DEFAULTS } from "@media-render/contract/config/limits";
import { placement, type Placeable } from "../placement.ts";
import { css, effects, esc } from "../style.ts";

export interface ShapeLayerInput extends Placeable {
  type: "rectangle" | "circle";
  width?: number;
  height?: number;
  fill?: string;
  stroke?: string;
  strokeWidth?: number;
  opacity?: number;
  blur?: number;
  borderRadius?: number;
}

export interface GradientLayerInput extends Placeable {
  width?: number;
  height?: number;
  gradient: {
    type?: "linear" | "radial";
    colors: string[];
    direction?: "horizontal" | "vertical" | "diagonal";
  };
  opacity?: number;
  blur?: number;
}

type Canvas = { width: number; height: number };

export const shapeLayerHtml = (layer: ShapeLayerInput, canvas: Canvas): string => {
  const size = layer.type === "circle" ? IMAGE_DEFAULTS.circleSize : IMAGE_DEFAULTS.rectangleSize;
  const circle = layer.type === "circle";
  const style = css({
    // Circles have no rotation in the grammar.
    ...placement(circle ? { ...layer, rotation: undefined } : layer, canvas),
    width: layer.width ?? size,
    height: layer.height ?? size,
    background: layer.fill ?? (layer.stroke ? undefined : "#000000"),
    border: layer.stroke ? `${layer.strokeWidth ?? 1}px solid ${layer.stroke}` : undefined,
    "border-radius": circle ? "50%" : layer.borderRadius || undefined,
    ...effects(layer),
  });
  return `<div class="l" style="${esc(style)}"></div>`;
};

const DIRECTION = { horizontal: "to right", vertical: "to bottom", diagonal: "to bottom right" } as const;

/** The CSS gradient of a gradient layer. */
export const gradientCss = (gradient: GradientLayerInput["gradient"]): string => {
  const stops = gradient.colors.join(",");
  if ((gradient.type ?? IMAGE_DEFAULTS.gradientType) === "radial")
    return `radial-gradient(ellipse farthest-corner at center,${stops})`;
  return `linear-gradient(${DIRECTION[gradient.direction ?? IMAGE_DEFAULTS.gradientDirection]},${stops})`;
};

export const gradientLayerHtml = (layer: GradientLayerInput, canvas: Canvas): string => {
  const style = css({
    ...placement(layer, canvas),
    width: layer.width ?? canvas.width,
    height: layer.height ?? canvas.height,
    background: gradientCss(layer.gradient),
    ...effects(layer),
  });
  return `<div class="l" style="${esc(style)}"></div>`;
};
