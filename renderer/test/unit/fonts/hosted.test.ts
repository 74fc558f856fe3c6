/** A job's hosted fonts in the renderer (pure): which faces its text reaches, and the page's rules for them. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fontFaceFiles } from "../../../src/fonts/files.ts";
import { faceReaches, jobFonts, unicodeRanges } from "../../../src/fonts/hosted.ts";
import { revealUnits } from "../../../src/video/raster/text-html.ts";

const LATIN = "U+0000-00FF,U+0131,U+0152-0153";
const HEBREW = "U+0307-0308, U+0590-05FF, U+200C-2010, U+20AA, U+25CC, U+FB1D-FB4F";
const fonts = {
  "Noto Sans Hebrew:700": {
    weight: 700,
    faces: [
      { ref: "fonts/files/s/hebrew.woff2", unicodeRange: HEBREW },
      { ref: "fonts/files/s/latin.woff2", unicodeRange: LATIN },
      { ref: "fonts/files/s/greek.woff2", unicodeRange: "U+1F00-1FFF" },
    ],
  },
};

describe("unicode ranges", () => {
  it("reads single points, spans and wildcards", () => {
    expect(unicodeRanges("U+0131, U+0000-00FF,U+4??")).toEqual([
      [0x131, 0x131],
      [0, 0xff],
      [0x400, 0x4ff],
    ]);
  });

  it("reaches a text when any of its characters is in range, and every text without a range", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (text) => {
        const cps = [...text].map((c) => c.codePointAt(0)!);
        expect(faceReaches("U+0590-05FF", text)).toBe(cps.some((c) => c >= 0x590 && c <= 0x5ff));
        expect(faceReaches(undefined, text)).toBe(true);
      }),
    );
  });
});

describe("jobFonts", () => {
  it("keeps the faces the job's text reaches, every face for captions, and one face at least", () => {
    const pick = (text: string | null) =>
      jobFonts(fonts, text)["Noto Sans Hebrew:700"]!.faces.map((f) => f.path.split("/").pop());
    expect(pick("שלום")).toEqual(["hebrew.woff2"]);
    expect(pick("שלום world")).toEqual(["hebrew.woff2", "latin.woff2"]);
    expect(pick(null)).toEqual(["hebrew.woff2", "latin.woff2", "greek.woff2"]);
    expect(pick("你好")).toEqual(["hebrew.woff2"]);
    expect(jobFonts(undefined, "x")).toEqual({});
  });

  it("writes rules the text page loads: a family of its own per value, the weight, the ranges, file: URLs", () => {
    const spec = jobFonts(fonts, "שלום");
    const face = fontFaceFiles("Noto Sans Hebrew:700", spec);
    expect(face).toEqual({
      family: "hf-noto-sans-hebrew-700",
      weight: 700,
      css:
        '@font-face{font-family:"hf-noto-sans-hebrew-700";font-style:normal;font-weight:700;font-display:block;' +
        `src:url("file://${process.cwd()}/fonts/files/s/hebrew.woff2") format("woff2");unicode-range:${HEBREW}}`,
      files: ["fonts/files/s/hebrew.woff2"],
    });
    // A bundled value comes from the bundle, whatever the request carries.
    expect(fontFaceFiles("Lobster", spec).family).toBe("cf-lobster");
    expect(() => fontFaceFiles("Noto Sans Hebrew", spec)).toThrow(
      /googleFont "Noto Sans Hebrew" is not a bundled font and the request carries no faces for it/,
    );
  });
});

describe("letter reveals", () => {
  it("split text into graphemes: a base keeps its marks, a Devanagari syllable its vowel sign, an emoji its sequence", () => {
    // ICU 74+ keeps a conjunct whole (स्ते); older ones split it after the virama (स्, ते): never a bare sign.
    const devanagari = revealUnits("नमस्ते", "letter");
    expect(devanagari.slice(0, 2)).toEqual(["न", "म"]);
    expect(devanagari.every((u) => !/^\p{M}/u.test(u))).toBe(true);
    expect(revealUnits("שָׁלוֹם", "letter")).toEqual(["שָׁ", "ל", "וֹ", "ם"]);
    expect(revealUnits("a👨‍👩‍👧b", "letter")).toEqual(["a", "👨‍👩‍👧", "b"]);
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), (text) => {
        expect(revealUnits(text, "letter").join("")).toBe(text);
      }),
    );
  });
});
