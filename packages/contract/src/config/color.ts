/**
 * Colours as configs write them, parsed once for both runtimes: `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`,
 * `rgb()`/`rgba()` and `hsl()`/`hsla()` (CSS Color 4, comma or space syntax, alpha as a number or a percentage, hue
 * in degrees), a CSS colour name (the 148 of CSS Color 4, from the `color-name` package) or `transparent`. The
 * grammar accepts exactly what `parseColor` reads, so a colour the image renderer hands to Chromium as CSS is the
 * colour the video renderer gives ffmpeg as hex (renderer/src/video/color.ts): no name ffmpeg does not know, no
 * form silently drawn black.
 */
import namedColors from "color-name";

/** A colour: channels 0-255, alpha 0-1. */
export interface Rgba {
  r: number;
  g: number;
  b: number;
  a: number;
}

const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, n));

const NUMBER = String.raw`[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?`;
/** A channel or alpha: a number, or a number with `%`. */
const ARG = new RegExp(`^(${NUMBER})(%?)$`, "i");
/** A hue: a number, optionally in `deg`. */
const HUE = new RegExp(`^(${NUMBER})(deg)?$`, "i");

/** `rgb(...)` / `hsl(...)` arguments: three, then an optional alpha after `/` (space syntax) or `,` (legacy). */
const functionArgs = (body: string): string[] | null => {
  const trimmed = body.trim();
  if (trimmed.includes(",")) {
    const parts = trimmed.split(",").map((p) => p.trim());
    return parts.length === 3 || parts.length === 4 ? parts : null;
  }
  const [main, alpha, ...rest] = trimmed.split("/");
  if (rest.length > 0 || main === undefined) return null;
  const parts = main.trim().split(/\s+/);
  if (parts.length !== 3) return null;
  if (alpha === undefined) return parts;
  const alphaText = alpha.trim();
  return alphaText ? [...parts, alphaText] : null;
};

const alphaOf = (text: string | undefined): number | null => {
  if (text === undefined) return 1;
  const match = ARG.exec(text);
  if (!match) return null;
  return clamp(match[2] ? Number(match[1]) / 100 : Number(match[1]), 0, 1);
};

const hexChannels = (hex: string): Rgba => {
  const full = hex.length <= 4 ? [...hex].map((c) => c + c).join("") : hex;
  const byte = (i: number) => parseInt(full.slice(i * 2, i * 2 + 2), 16);
  return { r: byte(0), g: byte(1), b: byte(2), a: full.length === 8 ? byte(3) / 255 : 1 };
};

const rgbOf = (args: string[]): Rgba | null => {
  const channels = args.slice(0, 3).map((p) => ARG.exec(p));
  if (channels.some((m) => !m)) return null;
  const [r, g, b] = channels.map((m) => clamp(m![2] ? (Number(m![1]) * 255) / 100 : Number(m![1]), 0, 255));
  const alpha = alphaOf(args[3]);
  return alpha === null ? null : { r: r!, g: g!, b: b!, a: alpha };
};

const hslOf = (args: string[]): Rgba | null => {
  const hueMatch = HUE.exec(args[0]!);
  const saturationMatch = ARG.exec(args[1]!);
  const lightnessMatch = ARG.exec(args[2]!);
  const alpha = alphaOf(args[3]);
  if (!hueMatch || !saturationMatch || !lightnessMatch || alpha === null) return null;
  const hue = (((Number(hueMatch[1]) % 360) + 360) % 360) / 360;
  const sat = clamp(Number(saturationMatch[1]) / 100, 0, 1);
  const light = clamp(Number(lightnessMatch[1]) / 100, 0, 1);
  // CSS Color 4's hslToRgb.
  const channel = (offset: number) => {
    const k = (offset + hue * 12) % 12;
    return light - sat * Math.min(light, 1 - light) * Math.max(-1, Math.min(k - 3, 9 - k, 1));
  };
  return { r: channel(0) * 255, g: channel(8) * 255, b: channel(4) * 255, a: alpha };
};

/** The colour `text` names, or null when it is not one of the forms above. */
export const parseColor = (text: string): Rgba | null => {
  const color = text.trim().toLowerCase();
  if (color === "transparent") return { r: 0, g: 0, b: 0, a: 0 };
  const hex = /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/.exec(color);
  if (hex) return hexChannels(hex[1]!);
  const named = Object.hasOwn(namedColors, color) ? namedColors[color] : undefined;
  if (named) return { r: named[0], g: named[1], b: named[2], a: 1 };
  const fn = /^(rgba?|hsla?)\((.*)\)$/.exec(color);
  if (!fn) return null;
  const args = functionArgs(fn[2]!);
  if (!args) return null;
  return fn[1]!.startsWith("rgb") ? rgbOf(args) : hslOf(args);
};

/** The CSS colour names (lower case), for the served JSON Schema's pattern. */
export const COLOR_NAMES: readonly string[] = Object.keys(namedColors);
