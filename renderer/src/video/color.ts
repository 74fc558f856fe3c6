/** Config colours (the contract's parseColor: hex, rgb()/hsl(), CSS names) → ffmpeg colour syntax (`0xRRGGBB@alpha`). */
import { parseColor } from "@media-render/contract/config/color";

const hex2 = (channel: number): string => {
  return Math.round(Math.min(255, Math.max(0, channel)))
    .toString(16)
    .padStart(2, "0");
};

/**
 * The ffmpeg form of a colour the grammar accepted: `0xRRGGBB`, with `@alpha` when not opaque. Anything else (no
 * colour given, a seeded default of ours) becomes `fallback`.
 */
export const ffColor = (input: unknown, fallback = "black"): string => {
  const color = typeof input === "string" ? parseColor(input) : null;
  if (!color) return fallback;
  const rgb = `0x${hex2(color.r)}${hex2(color.g)}${hex2(color.b)}`;
  return color.a >= 1 ? rgb : `${rgb}@${color.a.toFixed(3)}`;
};

/** True when the colour is fully opaque (so a full-frame layer of it hides everything below). */
export const isOpaque = (ffmpegColor: string): boolean => {
  const at = ffmpegColor.indexOf("@");
  return at < 0 || parseFloat(ffmpegColor.slice(at + 1)) >= 1;
};
