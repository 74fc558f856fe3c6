/** CSS values the text types share (a leaf). */

/** A colour for the sheet's CSS. The grammar's pattern already keeps CSS out; this is a second fence. */
export const cssColor = (value: string | undefined, fallback: string): string => {
  const s = (value ?? fallback).trim();
  return /^[#\w(),.\s%-]+$/.test(s) ? s : fallback;
};
