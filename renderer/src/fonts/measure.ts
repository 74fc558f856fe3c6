/**
 * Text widths from the font files themselves (fontkit 2.0.4: glyph advances with kerning and ligatures, as
 * shaped), so captions wrap where the drawn text really ends instead of at a guessed 0.6 em a character. Each
 * character is measured in the first font that has it, in the order the text page falls back: the caption's
 * own font, DejaVu Sans (the default face), then Droid Sans Fallback (Chinese, Japanese, Korean); a character
 * none of them has counts 1 em.
 */
import { openSync, type Font as KitFont } from "fontkit";

/** The page's own fallback faces (scripts/lib/system.mjs installs them; renderer/Dockerfile too). */
export const FALLBACK_FONT_FILES = [
  "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
  "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
];

const opened = new Map<string, KitFont | null>();

/** The font in `path` (the first of a collection), or null when it cannot be read; parsed once per path. */
const fontAt = (path: string): KitFont | null => {
  if (!opened.has(path)) {
    let font: KitFont | null = null;
    try {
      const file = openSync(path);
      font = "fonts" in file ? (file.fonts[0] ?? null) : file;
    } catch {
      font = null; // an unreadable file: the fallbacks measure instead
    }
    opened.set(path, font);
  }
  return opened.get(path)!;
};

/** A measurer of text drawn `size` px high in the fonts of `files` (then the fallbacks): width in px. */
export const textMeasurer = (files: readonly string[], size: number): ((text: string) => number) => {
  const fonts = [...files, ...FALLBACK_FONT_FILES].map(fontAt).filter((f): f is KitFont => f !== null);
  const fontFor = (ch: string) => fonts.find((f) => f.hasGlyphForCodePoint(ch.codePointAt(0)!)) ?? null;
  return (text) => {
    let width = 0;
    let run = "";
    let runFont: KitFont | null = null;
    const flush = () => {
      if (run)
        width += runFont
          ? (runFont.layout(run).advanceWidth / runFont.unitsPerEm) * size
          : [...run].length * size;
      run = "";
    };
    for (const ch of text) {
      // A space belongs to whichever run it is in (every face has one).
      const font: KitFont | null = ch === " " && run ? runFont : fontFor(ch);
      if (font !== runFont) flush();
      runFont = font;
      run += ch;
    }
    flush();
    return width;
  };
};
