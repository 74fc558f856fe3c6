import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  bezierEase,
  NAMED_CURVES,
  parseEasing,
  scaleAnimated,
  valueAt,
  valueRange,
  type Keyframe,
} from "../../src/keyframes.ts";

const EASINGS = ["linear", "ease-in", "ease-out", "ease-in-out", "step", "cubic-bezier(0.1, 0.7, 1, 0.1)"];

/** Keyframes with strictly increasing times from sorted distinct integers (tenths of a second). */
const keyframesArb = fc
  .uniqueArray(fc.integer({ min: 0, max: 600 }), { minLength: 1, maxLength: 8 })
  .chain((times) =>
    fc.tuple(
      fc.constant([...times].sort((a, b) => a - b).map((t) => t / 10)),
      fc.array(fc.double({ min: -100, max: 100, noNaN: true }), {
        minLength: times.length,
        maxLength: times.length,
      }),
      fc.array(fc.constantFrom(...EASINGS.slice(0, 5)), { minLength: times.length, maxLength: times.length }),
    ),
  )
  .map(([times, values, easings]) =>
    times.map((time, i) => ({ time, value: values[i]!, easing: easings[i] })),
  );

describe("valueAt", () => {
  it("gives a plain number at any time", () => {
    expect(valueAt(0.4, 0)).toBe(0.4);
    expect(valueAt(0.4, 1e6)).toBe(0.4);
  });

  it("holds the first value before the first keyframe and the last after the last", () => {
    const frames: Keyframe[] = [
      { time: 1, value: 10 },
      { time: 2, value: 20 },
    ];
    expect(valueAt(frames, 0)).toBe(10);
    expect(valueAt(frames, 1)).toBe(10);
    expect(valueAt(frames, 2)).toBe(20);
    expect(valueAt(frames, 99)).toBe(20);
  });

  it("interpolates linearly by default, and eases with each keyframe's easing towards the next", () => {
    const at = (easing: string, t: number) =>
      valueAt(
        [
          { time: 0, value: 0, easing },
          { time: 2, value: 100 },
        ],
        t,
      );
    expect(at("linear", 0.5)).toBeCloseTo(25, 9);
    expect(at("step", 1.999)).toBe(0);
    expect(at("step", 2)).toBe(100);
    // CSS's curves: ease-in is slow at first, ease-out fast, ease-in-out symmetric about the middle.
    expect(at("ease-in", 1)).toBeLessThan(50);
    expect(at("ease-out", 1)).toBeGreaterThan(50);
    expect(at("ease-in-out", 1)).toBeCloseTo(50, 6);
    expect(at("ease-in-out", 0.5) + at("ease-in-out", 1.5)).toBeCloseTo(100, 6);
  });

  it("matches CSS's ease-in at known points (cubic-bezier(0.42, 0, 1, 1))", () => {
    // Reference values of the curve at x = 0.25, 0.5, 0.75 (solved to 1e-9 independently by Newton's method).
    expect(bezierEase(NAMED_CURVES["ease-in"], 0.5)).toBeCloseTo(0.3153568, 5);
    expect(bezierEase(NAMED_CURVES["ease-out"], 0.5)).toBeCloseTo(1 - 0.3153568, 5);
  });

  it("keeps every monotone segment (linear, ease-*, step) within its two keyframes' values", () => {
    fc.assert(
      fc.property(keyframesArb, fc.double({ min: -10, max: 70, noNaN: true }), (frames, t) => {
        const v = valueAt(frames, t);
        const values = frames.map((k) => k.value);
        expect(v).toBeGreaterThanOrEqual(Math.min(...values) - 1e-9);
        expect(v).toBeLessThanOrEqual(Math.max(...values) + 1e-9);
        // Inside a segment, within its two keyframes' values (outside any, the held value is one of them).
        const next = frames.findIndex((k) => k.time > t);
        const [a, b] = next > 0 ? [frames[next - 1]!.value, frames[next]!.value] : [v, v];
        expect(v).toBeGreaterThanOrEqual(Math.min(a, b) - 1e-9);
        expect(v).toBeLessThanOrEqual(Math.max(a, b) + 1e-9);
      }),
    );
  });

  it("is monotone along a monotone-eased segment", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("linear", "ease-in", "ease-out", "ease-in-out"),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (easing, p, q) => {
          const frames = [
            { time: 0, value: 0, easing },
            { time: 1, value: 1 },
          ];
          const [lo, hi] = p < q ? [p, q] : [q, p];
          expect(valueAt(frames, lo)).toBeLessThanOrEqual(valueAt(frames, hi) + 1e-9);
        },
      ),
    );
  });

  it("holds a step segment's value until the next keyframe", () => {
    fc.assert(
      fc.property(
        keyframesArb,
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (frames, p) => {
          const stepped = frames.map((k) => ({ ...k, easing: "step" }));
          // (p just below 1 may round onto the next keyframe's time, where its value begins: left out.)
          const inside = stepped
            .slice(0, -1)
            .map((k, i) => ({
              k,
              t: k.time + p * (stepped[i + 1]!.time - k.time),
              end: stepped[i + 1]!.time,
            }))
            .filter(({ t, end }) => t < end);
          // (+ 0: -0 and 0 are the same value.)
          expect(inside.map(({ t }) => valueAt(stepped, t) + 0)).toEqual(inside.map(({ k }) => k.value + 0));
        },
      ),
    );
  });

  it("meets a cubic-bezier's keyframes at both ends, whatever its control points", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: -10, max: 10, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: -10, max: 10, noNaN: true }),
        (x1, y1, x2, y2) => {
          const c = { x1, y1, x2, y2 };
          expect(bezierEase(c, 0)).toBeCloseTo(0, 6);
          expect(bezierEase(c, 1)).toBeCloseTo(1, 6);
        },
      ),
    );
  });
});

describe("parseEasing", () => {
  it("reads the named easings and cubic-bezier(), and refuses the rest", () => {
    expect(parseEasing(undefined)).toEqual({ kind: "linear" });
    expect(parseEasing("step")).toEqual({ kind: "step" });
    expect(parseEasing("ease-out")).toEqual({ kind: "bezier", ...NAMED_CURVES["ease-out"] });
    expect(parseEasing("cubic-bezier(0.1, -0.5, .9, 1.5)")).toEqual({
      kind: "bezier",
      x1: 0.1,
      y1: -0.5,
      x2: 0.9,
      y2: 1.5,
    });
    for (const bad of [
      "ease",
      "cubic-bezier(1.2, 0, 0, 1)",
      "cubic-bezier(0,0,1)",
      "cubic-bezier(0,20,1,1)",
      "Linear",
    ])
      expect(parseEasing(bad)).toBeNull();
  });
});

describe("valueRange and scaleAnimated", () => {
  it("bounds an overshooting curve by more than its keyframes", () => {
    const frames = [
      { time: 0, value: 0, easing: "cubic-bezier(0.5, 2, 0.5, 2)" },
      { time: 1, value: 1 },
    ];
    expect(valueRange(frames).max).toBeGreaterThan(1.2);
    expect(valueRange(frames).min).toBe(0);
    expect(valueRange(3)).toEqual({ min: 3, max: 3 });
  });

  it("multiplies every value", () => {
    expect(scaleAnimated([{ time: 0, value: 2 }], 0.5)).toEqual([{ time: 0, value: 1 }]);
    expect(scaleAnimated(4, 0.25)).toBe(1);
  });
});
