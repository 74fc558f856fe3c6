/**
 * visibleFileName (src/lib/file-name.ts), the one sanitiser of names handed to a user's file system (download
 * Content-Disposition, ZIP entries), over generated names: what it removes, what it keeps, and that it is stable.
 * The routes that use it are checked end to end in test/worker/render/files.test.ts and templates-zip.test.ts.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { visibleFileName } from "../../../../src/lib/file-name.ts";

/** The three subdivision flags Unicode recommends (England, Scotland, Wales): a black flag, tags, a cancel tag. */
const tags = (s: string) => [...s].map((c) => String.fromCodePoint(0xe0000 + c.codePointAt(0)!)).join("");
const FLAGS = ["gbeng", "gbsct", "gbwls"].map((r) => `\u{1F3F4}${tags(r)}\u{E007F}`);

const TAG = /[\u{E0000}-\u{E007F}]/u;
/** Invisible or reordering characters that must never survive: controls, bidi controls, marks, zero widths. */
const HIDDEN = /[\p{Cc}\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C\u200B\uFEFF]/u;

/** Any code point, weighted towards the ones the sanitiser must handle: tags, format characters, controls. */
const char = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: "grapheme", minLength: 1, maxLength: 1 }) },
  { weight: 2, arbitrary: fc.integer({ min: 0xe0000, max: 0xe007f }).map((c) => String.fromCodePoint(c)) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "\u202E",
      "\u2066",
      "\u200B",
      "\u200E",
      "\u061C",
      "\uFEFF",
      "\u0000",
      "\u0085",
      "\u007F",
      "\u200D",
      "\u200C",
      "\u{1F3F4}",
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom(...FLAGS) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 0x10ffff }).map((c) => String.fromCodePoint(c)) },
);
const name = fc.array(char, { maxLength: 40 }).map((cs) => cs.join(""));

/** The name without the recommended flags, which are the only place tag characters may stay. */
const outsideFlags = (s: string) => FLAGS.reduce((out, flag) => out.replaceAll(flag, ""), s);

describe("visibleFileName", () => {
  it("leaves no tag character (U+E0000-E007F) outside the three recommended subdivision flags", () => {
    fc.assert(
      fc.property(name, (n) => {
        expect(outsideFlags(visibleFileName(n))).not.toMatch(TAG);
      }),
      { numRuns: 2000 },
    );
  });

  it("strips text spelled in tag characters, including a flag that is not a recommended one", () => {
    expect(visibleFileName(`invoice${tags(".exe")}.pdf`)).toBe("invoice.pdf");
    expect(visibleFileName(`\u{E0001}${tags("hidden")}report.png`)).toBe("report.png");
    // A black flag with tags no emoji font draws (a made-up region, or a payload): the black flag alone stays.
    expect(visibleFileName(`\u{1F3F4}${tags("usca")}\u{E007F}.png`)).toBe("\u{1F3F4}.png");
    expect(visibleFileName(`\u{1F3F4}${tags("gbeng payload")}\u{E007F}.png`)).toBe("\u{1F3F4}.png");
  });

  it("keeps the recommended subdivision flags whole", () => {
    for (const flag of FLAGS) expect(visibleFileName(`team ${flag}.png`)).toBe(`team ${flag}.png`);
  });

  it("leaves no control, bidirectional control, directional mark or zero-width space", () => {
    fc.assert(
      fc.property(name, (n) => {
        expect(visibleFileName(n)).not.toMatch(HIDDEN);
      }),
      { numRuns: 2000 },
    );
  });

  it("changes nothing in a name of letters, digits, marks, punctuation, spaces and emoji", () => {
    const visible = fc
      .string({ unit: "grapheme", maxLength: 40 })
      .filter((s) => !/[\p{Cc}\p{Cf}\p{Cs}]/u.test(s));
    fc.assert(
      fc.property(visible, (n) => {
        expect(visibleFileName(n)).toBe(n);
      }),
      { numRuns: 2000 },
    );
  });

  it("is stable: a cleaned name cleans to itself", () => {
    fc.assert(
      fc.property(name, (n) => {
        const once = visibleFileName(n);
        expect(visibleFileName(once)).toBe(once);
      }),
      { numRuns: 2000 },
    );
  });
});
