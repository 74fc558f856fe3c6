/** The filter graph's number helpers (values.ts): what every filter argument is written with. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { clamp, ffNumber } from "../../../src/video/values.ts";

describe("f: a number as an ffmpeg filter argument", () => {
  it("writes at most 6 decimals, no exponent and no negative zero", () => {
    expect([
      ffNumber(1),
      ffNumber(0.5),
      ffNumber(1 / 3),
      ffNumber(2 / 3),
      ffNumber(1e-7),
      ffNumber(-1e-7),
      ffNumber(-0),
      ffNumber(1234.5678901),
    ]).toEqual(["1", "0.5", "0.333333", "0.666667", "0", "0", "0", "1234.56789"]);
  });

  it("never writes an exponent or more than 6 decimals, for any number a graph holds", () => {
    fc.assert(
      fc.property(fc.double({ min: -1e9, max: 1e9, noNaN: true }), (v) => {
        const s = ffNumber(v);
        expect(s).toMatch(/^-?\d+(\.\d{1,6})?$/);
        expect(Math.abs(Number(s) - v)).toBeLessThanOrEqual(5e-7 * Math.max(1, Math.abs(v) / 1e6));
      }),
      { numRuns: 500 },
    );
  });
});

describe("clamp", () => {
  it("keeps a value inside [lo, hi]", () => {
    expect([clamp(-1, 0, 1), clamp(0.5, 0, 1), clamp(2, 0, 1)]).toEqual([0, 0.5, 1]);
  });
});
