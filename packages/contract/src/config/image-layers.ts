/**
 * The properties of each layer type of image jobs (config reference §1.2-1.6); the table of the types is
 * image-layer-types.ts. Positions are pixels from the top-left unless a
 * `position` preset or object is given (which then wins). Absent properties keep their documented
 * defaults (`IMAGE_DEFAULTS`); the schema does not fill them in, so a stored config stays as submitted.
 */
import * as v from "valibot";
import {
  BorderRadius,
  Blur,
  bool,
  BundledCatalogFont,
  catalogFontEntries,
  Color,
  FontFamily,
  list,
  numberAbove,
  numberIn,
  oneOf,
  Opacity,
  PositivePx,
  Position,
  Px,
  Rotation,
  strict,
  text,
} from "./common.ts";
import { FontRef, ImageRef } from "./file-ref.ts";
import { fitFontSizeEntries } from "../fit-text.ts";
import { htmlCommonEntries } from "./html-layer.ts";
import {
  GRADIENT_MAX_COLORS,
  GRADIENT_MIN_COLORS,
  IMAGE_MAX_FONT_SIZE,
  MAX_LINE_HEIGHT,
  MAX_STROKE_WIDTH,
  MAX_TEXT_LENGTH,
} from "./limits.ts";
import type { RuleIssue } from "./rules.ts";

const o = v.optional;

const placement = { x: o(Px), y: o(Px), position: o(Position) };
const box = { width: o(PositivePx), height: o(PositivePx) };

export const imageLayerEntries = {
  type: v.literal("image"),
  path: ImageRef,
  ...placement,
  ...box,
  /** How the picture fills its box; the names of sharp's `fit`. Default `fill`. */
  fit: o(oneOf(["cover", "contain", "fill", "inside", "outside"])),
  opacity: o(Opacity),
  rotation: o(Rotation),
  blur: o(Blur),
  borderRadius: o(BorderRadius),
};

/** A text that wraps needs a width, its own or from the defaults (a rule over the layer as rendered). */
export const textWrapIssues = (layer: Record<string, unknown>): RuleIssue[] =>
  layer.wrap === true && layer.width === undefined
    ? [
        {
          path: ["width"],
          message: '"width" is required when "wrap" is true (set it on the layer or in defaults)',
        },
      ]
    : [];

export const textLayerEntries = {
  type: v.literal("text"),
  text: text(MAX_TEXT_LENGTH),
  ...placement,
  /** Relative to `x`: left edge, centre or right edge. */
  align: o(oneOf(["left", "center", "right"])),
  /** Wrap width; required when `wrap` is true. */
  width: o(PositivePx),
  wrap: o(bool()),
  lineHeight: o(numberAbove(0, MAX_LINE_HEIGHT)),
  /** Only sizes the blur area; layout ignores it. */
  height: o(PositivePx),
  fontSize: o(numberAbove(0, IMAGE_MAX_FONT_SIZE)),
  ...fitFontSizeEntries(
    numberAbove(0, IMAGE_MAX_FONT_SIZE),
    "its width (required), and its height when given",
  ),
  color: o(Color),
  fontFamily: o(FontFamily),
  fontPath: o(FontRef),
  ...catalogFontEntries(BundledCatalogFont),
  /** Box behind the text; single-line text only. */
  backgroundColor: o(Color),
  opacity: o(Opacity),
  rotation: o(Rotation),
  blur: o(Blur),
};

const shape = {
  ...placement,
  ...box,
  fill: o(Color),
  stroke: o(Color),
  strokeWidth: o(numberIn(0, MAX_STROKE_WIDTH)),
  opacity: o(Opacity),
  blur: o(Blur),
};

export const rectangleLayerEntries = {
  type: v.literal("rectangle"),
  ...shape,
  rotation: o(Rotation),
  borderRadius: o(BorderRadius),
};

/** Circles have no rotation and no border radius; unequal width/height draw an ellipse. */
export const circleLayerEntries = { type: v.literal("circle"), ...shape };

export const GradientSpec = strict("gradient", {
  type: o(oneOf(["linear", "radial"])),
  colors: list(Color, GRADIENT_MIN_COLORS, GRADIENT_MAX_COLORS, "colours"),
  /** Linear gradients only. */
  direction: o(oneOf(["horizontal", "vertical", "diagonal"])),
});

export const gradientLayerEntries = {
  type: v.literal("gradient"),
  ...placement,
  ...box,
  gradient: GradientSpec,
  opacity: o(Opacity),
  rotation: o(Rotation),
  blur: o(Blur),
};

export const imageHtmlLayerEntries = {
  ...htmlCommonEntries,
  x: o(Px),
  y: o(Px),
  opacity: o(Opacity),
  rotation: o(Rotation),
  blur: o(Blur),
};
