/** CSS values the text types share (a leaf). */

/** A colour for the sheet's CSS. The grammar's pattern already keeps CSS out; this is a second fence. */
export const cssColor = (value: string | undefined, fallback: string): string => {
  const s = (value ?? fallback).trim();
  return /^[#\w(),.\s%-]+$/.test(s) ? s : fallback;
};

/**
 * A length of `k` font sizes plus `extra` px, rounded `up` or to the `nearest` pixel: in px for a layer drawn at
 * `size`, or, for a layer fitted into its box (`fitted`: the page decides its size, raster/rasterize-text.ts), as CSS
 * that follows the font size to the same pixel (`round()`), so its box is the one that size would give it.
 */
export const sizedLength = (
  fitted: boolean,
  size: number,
  k: number,
  extra: number,
  rounding: "up" | "nearest",
): string => {
  if (fitted) return `round(${rounding}, ${k}em + ${extra}px, 1px)`;
  return `${rounding === "up" ? Math.ceil(k * size + extra) : Math.round(k * size + extra)}px`;
};
