/** Config colours (the contract's parseColor: hex, rgb()/hsl(), CSS names) → ffmpeg colour syntax (`0xRRGGBB@alpha`). */
import { parseColor } from "@media-render/contract/config/color";

const hex2 = (n: number): string => {
  return Math.round(Math.min(255, Math.max(0, n)))
    .toString(16)
    .padStart(2, "0");
};

/**
 * The ffmpeg form of a colour the grammar accepted: `0xRRGGBB`, with `@alpha` when not opaque. Anything else (no
 * colour given, a seeded default of ours) becomes `fallback`.
 */
export const ffColor = (input: unknown, fallback = "black"): string => {
  const c = typeof input === "string" ? parseColor(input) : null;
  if (!c) return fallback;
  const rgb = `0x${hex2(c.r)}${hex2(c.g)}${hex2(c.b)}`;
  return c.a >= 1 ? rgb : `${rgb}@${c.a.toFixed(3)}`;
};

/** True when the colour is fully opaque (so a full-frame layer of it hides everything below). */
export const isOpaque = (ffmpegColor: string): boolean => {
  const at = ffmpegColor.indexOf("@");
  return at < 0 || parseFloat(ffmpegColor.slice(at + 1)) >= 1;
};
