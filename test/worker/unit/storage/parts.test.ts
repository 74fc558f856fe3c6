/** The layout of an upload in parts and the check of a completion's list (src/storage/parts.ts), over many sizes. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  completionGap,
  isRefusal,
  layoutParts,
  MAX_BODY_BYTES,
  MAX_OUTPUT_BYTES,
  MAX_PARTS,
  MIN_PART_BYTES,
  partLength,
  type PartLayout,
  type Refusal,
} from "../../../../src/storage/parts.ts";

const size = fc.integer({ min: 1, max: MAX_OUTPUT_BYTES });
const partSize = fc.integer({ min: MIN_PART_BYTES, max: MAX_BODY_BYTES });

describe("layoutParts", () => {
  it("cuts any allowed size into parts of the size asked, every one but the last that size", () => {
    fc.assert(
      fc.property(size, partSize, (s, p) => {
        fc.pre(Math.ceil(s / p) <= MAX_PARTS);
        const layout = layoutParts(s, p) as PartLayout;
        expect(layout).toEqual({ size: s, partSize: p, parts: Math.ceil(s / p) });
        const lengths = Array.from({ length: layout.parts }, (_, i) => partLength(layout, i + 1));
        const last = lengths.pop()!;
        // R2: every part but the last the same size, the last one no larger.
        expect(lengths.every((length) => length === p)).toBe(true);
        expect(last).toBeGreaterThan(0);
        expect(last).toBeLessThanOrEqual(p);
        expect(lengths.length * p + last).toBe(s);
      }),
      { numRuns: 1000 },
    );
  });

  it("refuses more than MAX_PARTS parts, naming a part size that fits", () => {
    fc.assert(
      fc.property(size, partSize, (s, p) => {
        fc.pre(Math.ceil(s / p) > MAX_PARTS);
        const refusal = layoutParts(s, p) as Refusal;
        expect(refusal.status).toBe(400);
        const hint = Number(/at least (\d+) bytes/.exec(refusal.error)![1]);
        expect(Math.ceil(s / hint)).toBeLessThanOrEqual(MAX_PARTS);
        expect(isRefusal(layoutParts(s, Math.max(hint, MIN_PART_BYTES)))).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it("takes the largest output in the default parts, and refuses one byte more or a part size out of bounds", () => {
    expect(layoutParts(MAX_OUTPUT_BYTES)).toEqual({
      size: MAX_OUTPUT_BYTES,
      partSize: MAX_BODY_BYTES,
      parts: 320,
    });
    expect(layoutParts(MAX_OUTPUT_BYTES + 1)).toMatchObject({ status: 413 });
    expect(layoutParts(10, MIN_PART_BYTES - 1)).toMatchObject({ status: 400 });
    expect(layoutParts(10, MAX_BODY_BYTES + 1)).toMatchObject({ status: 400 });
    // Every size up to the maximum fits in MAX_PARTS parts of at most a request's body.
    expect(Math.ceil(MAX_OUTPUT_BYTES / MAX_PARTS)).toBeLessThanOrEqual(MAX_BODY_BYTES);
  });
});

describe("completionGap", () => {
  const layout = (parts: number) => ({ size: parts * MIN_PART_BYTES, partSize: MIN_PART_BYTES, parts });

  it("accepts exactly every part once and in order, and nothing else", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.array(fc.integer({ min: 1, max: 45 }), { maxLength: 50 }),
        (parts, listed) => {
          const every = Array.from({ length: parts }, (_, i) => i + 1);
          expect(completionGap(layout(parts), every)).toBeNull();
          const exact = listed.length === parts && listed.every((n, i) => n === i + 1);
          expect(completionGap(layout(parts), listed) === null).toBe(exact);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("says which parts are missing, the first ten of them", () => {
    expect(completionGap(layout(3), [1, 3])).toBe("Missing parts: 2 (the upload has 3)");
    expect(completionGap(layout(20), [1])).toBe(
      "Missing parts: 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, ... (the upload has 20)",
    );
  });
});
