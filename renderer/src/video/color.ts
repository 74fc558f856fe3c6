/** CSS-style colours from configs → ffmpeg colour syntax (`0xRRGGBB@alpha`). */

const hex2 = (n: number): string => {
  return Math.round(Math.min(255, Math.max(0, n)))
    .toString(16)
    .padStart(2, "0");
};

/**
 * Converts `#rgb`, `#rrggbb`, `#rrggbbaa`, `rgb()/rgba()`, `transparent` or an ffmpeg colour name.
 * Anything unparseable becomes `fallback`.
 */
export const ffColor = (input: unknown, fallback = "black"): string => {
  if (typeof input !== "string") return fallback;
  const s = input.trim().toLowerCase();
  if (s === "transparent") return "black@0";
  let m = /^#([0-9a-f]{3})$/.exec(s);
  if (m) return "0x" + [...m[1]!].map((ch) => ch + ch).join("");
  m = /^#([0-9a-f]{6})([0-9a-f]{2})?$/.exec(s);
  if (m) return m[2] ? `0x${m[1]}@${(parseInt(m[2], 16) / 255).toFixed(3)}` : `0x${m[1]}`;
  m = /^rgba?\(\s*([\d.]+)\s*,\s*([\d.]+)\s*,\s*([\d.]+)\s*(?:,\s*([\d.]+%?)\s*)?\)$/.exec(s);
  if (m) {
    const alphaText = m[4];
    const alpha =
      alphaText === undefined
        ? 1
        : alphaText.endsWith("%")
          ? parseFloat(alphaText) / 100
          : parseFloat(alphaText);
    const rgb = `0x${hex2(+m[1]!)}${hex2(+m[2]!)}${hex2(+m[3]!)}`;
    return alpha >= 1 ? rgb : `${rgb}@${alpha.toFixed(3)}`;
  }
  return /^[a-z]+$/.test(s) ? s : fallback;
};

/** True when the colour is fully opaque (so a full-frame layer of it hides everything below). */
export const isOpaque = (ffmpegColor: string): boolean => {
  const at = ffmpegColor.indexOf("@");
  return at < 0 || parseFloat(ffmpegColor.slice(at + 1)) >= 1;
};
