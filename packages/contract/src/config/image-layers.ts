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

const optional = v.optional;

const placement = { x: optional(Px), y: optional(Px), position: optional(Position) };
const box = { width: optional(PositivePx), height: optional(PositivePx) };

export const imageLayerEntries = {
  type: v.literal("image"),
  path: ImageRef,
  ...placement,
  ...box,
  /** How the picture fills its box; the names of sharp's `fit`. Default `fill`. */
  fit: optional(oneOf(["cover", "contain", "fill", "inside", "outside"])),
  opacity: optional(Opacity),
  rotation: optional(Rotation),
  blur: optional(Blur),
  borderRadius: optional(BorderRadius),
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
  align: optional(oneOf(["left", "center", "right"])),
  /** Wrap width; required when `wrap` is true. */
  width: optional(PositivePx),
  wrap: optional(bool()),
  lineHeight: optional(numberAbove(0, MAX_LINE_HEIGHT)),
  /** Only sizes the blur area; layout ignores it. */
  height: optional(PositivePx),
  fontSize: optional(numberAbove(0, IMAGE_MAX_FONT_SIZE)),
  ...fitFontSizeEntries(
    numberAbove(0, IMAGE_MAX_FONT_SIZE),
    "its width (required), and its height when given",
  ),
  color: optional(Color),
  fontFamily: optional(FontFamily),
  fontPath: optional(FontRef),
  ...catalogFontEntries(BundledCatalogFont),
  /** Box behind the text; single-line text only. */
  backgroundColor: optional(Color),
  opacity: optional(Opacity),
  rotation: optional(Rotation),
  blur: optional(Blur),
};

const shape = {
  ...placement,
  ...box,
  fill: optional(Color),
  stroke: optional(Color),
  strokeWidth: optional(numberIn(0, MAX_STROKE_WIDTH)),
  opacity: optional(Opacity),
  blur: optional(Blur),
};

export const rectangleLayerEntries = {
  type: v.literal("rectangle"),
  ...shape,
  rotation: optional(Rotation),
  borderRadius: optional(BorderRadius),
};

/** Circles have no rotation and no border radius; unequal width/height draw an ellipse. */
export const circleLayerEntries = { type: v.literal("circle"), ...shape };

export const GradientSpec = strict("gradient", {
  type: optional(oneOf(["linear", "radial"])),
  colors: list(Color, GRADIENT_MIN_COLORS, GRADIENT_MAX_COLORS, "colours"),
  /** Linear gradients only. */
  direction: optional(oneOf(["horizontal", "vertical", "diagonal"])),
});

export const gradientLayerEntries = {
  type: v.literal("gradient"),
  ...placement,
  ...box,
  gradient: GradientSpec,
  opacity: optional(Opacity),
  rotation: optional(Rotation),
  blur: optional(Blur),
};

export const imageHtmlLayerEntries = {
  ...htmlCommonEntries,
  x: optional(Px),
  y: optional(Px),
  opacity: optional(Opacity),
  rotation: optional(Rotation),
  blur: optional(Blur),
};
