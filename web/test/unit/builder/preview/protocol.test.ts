/**
 * The preview frame's messages as the builder reads them (web/src/builder/preview/protocol.ts): the frame runs
 * users' html layers, so anything that is not exactly a `ready` or a well-formed `painted` (finite numbers, bounded
 * lists) is ignored.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readFromPreview } from "../../../../src/builder/preview/protocol.ts";

const box = { left: 1, top: 2, width: 3, height: 4, rotation: 0 };
const painted = { kind: "painted", seq: 3, boxes: [box, null], skipped: [1], stale: false, withheld: true };

describe("readFromPreview", () => {
  it("reads ready and painted, keeping only the known fields", () => {
    expect(readFromPreview({ kind: "ready", extra: "<script>" })).toEqual({ kind: "ready" });
    expect(readFromPreview({ ...painted, extra: 1 })).toEqual(painted);
  });

  it("ignores anything else: other kinds, wrong types, non-finite numbers, too many boxes", () => {
    for (const message of [
      null,
      "ready",
      { kind: "draw" },
      { ...painted, seq: "3" },
      { ...painted, seq: Number.NaN },
      { ...painted, boxes: [{ ...box, left: Number.POSITIVE_INFINITY }] },
      { ...painted, boxes: [{ ...box, rotation: undefined }] },
      { ...painted, boxes: Array.from({ length: 1001 }, () => box) },
      { ...painted, skipped: ["1"] },
      { ...painted, stale: "no" },
      { ...painted, withheld: undefined },
    ])
      expect(readFromPreview(message), JSON.stringify(message)).toBeNull();
  });

  it("never throws and returns only what it checked, whatever arrives", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.anything(),
          fc.record({ kind: fc.constantFrom("ready", "painted"), seq: fc.anything(), boxes: fc.anything() }),
        ),
        (data) => {
          const read = readFromPreview(data);
          expect(read === null || read.kind === "ready" || Number.isFinite(read.seq)).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });
});
