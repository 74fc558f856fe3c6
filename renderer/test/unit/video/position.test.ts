/**
 * placeBox (position.ts): where a video layer's box goes, as the image, video, text and html layers all place it.
 * The nine presets by hand (editly's 5 % inset), the object and editly's left/top by hand and as properties over
 * generated frames, boxes and positions.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { placeBox, type Placement } from "../../../src/video/position.ts";

const W = 320;
const H = 180;
/** A 100 x 40 box. */
const box = (layer: Placement, fallback?: string) => placeBox(layer, W, H, 100, 40, fallback);

describe("placeBox: presets", () => {
  it("puts the box on the named edge or corner 5 % in, centred across the other axis", () => {
    expect({
      center: box({ position: "center" }),
      top: box({ position: "top" }),
      bottom: box({ position: "bottom" }),
      "top-left": box({ position: "top-left" }),
      "top-right": box({ position: "top-right" }),
      "center-left": box({ position: "center-left" }),
      "center-right": box({ position: "center-right" }),
      "bottom-left": box({ position: "bottom-left" }),
      "bottom-right": box({ position: "bottom-right" }),
    }).toEqual({
      center: { x: 110, y: 70 },
      top: { x: 110, y: 9 },
      bottom: { x: 110, y: 131 },
      "top-left": { x: 16, y: 9 },
      "top-right": { x: 204, y: 9 },
      "center-left": { x: 16, y: 70 },
      "center-right": { x: 204, y: 70 },
      "bottom-left": { x: 16, y: 131 },
      "bottom-right": { x: 204, y: 131 },
    });
  });

  it("uses the fallback preset when the layer names no place (subtitle: bottom)", () => {
    expect(box({})).toEqual({ x: 110, y: 70 });
    expect(box({}, "bottom")).toEqual({ x: 110, y: 131 });
    expect(box({}, "top-left")).toEqual({ x: 16, y: 9 });
  });

  it("rounds to whole pixels (an odd spare margin)", () => {
    expect(placeBox({ position: "center" }, 321, 181, 100, 40)).toEqual({ x: 111, y: 71 });
  });
});

describe("placeBox: an object position", () => {
  it("puts the origin point of the box at x, y fractions of the frame", () => {
    const at = { x: 0.5, y: 0.25 };
    expect(box({ position: { ...at, originX: "left", originY: "top" } })).toEqual({ x: 160, y: 45 });
    expect(box({ position: { ...at, originX: "right", originY: "bottom" } })).toEqual({ x: 60, y: 5 });
    expect(box({ position: { ...at, originX: "center", originY: "center" } })).toEqual({ x: 110, y: 25 });
  });

  it("takes the box's centre as its origin when none is named (the image jobs' default is left/top)", () => {
    expect(box({ position: { x: 0.5, y: 0.25 } })).toEqual({ x: 110, y: 25 });
  });

  it("wins over editly's left/top, which a preset also wins over", () => {
    expect(box({ position: { x: 0, y: 0, originX: "left", originY: "top" }, left: 0.5, top: 0.5 })).toEqual({
      x: 0,
      y: 0,
    });
    expect(box({ position: "top-left", left: 0.5, top: 0.5 })).toEqual({ x: 16, y: 9 });
  });
});

describe("placeBox: editly's left/top", () => {
  it("places the box's originX/originY point (default its top-left corner) at left, top", () => {
    expect(box({ left: 0.5, top: 0.5 })).toEqual({ x: 160, y: 90 });
    expect(box({ left: 0.5, top: 0.5, originX: "center", originY: "center" })).toEqual({ x: 110, y: 70 });
    expect(box({ left: 1, top: 1, originX: "right", originY: "bottom" })).toEqual({ x: 220, y: 140 });
  });

  it("reads a missing one of the two as 0", () => {
    expect(box({ left: 0.25 })).toEqual({ x: 80, y: 0 });
    expect(box({ top: 0.5 })).toEqual({ x: 0, y: 90 });
  });
});

const frame = fc.record({ W: fc.integer({ min: 20, max: 4096 }), H: fc.integer({ min: 20, max: 4096 }) });
/** A frame and a box at most `most` of its size. */
const sized = (most = 1) =>
  frame.chain(({ W, H }) =>
    fc.record({
      W: fc.constant(W),
      H: fc.constant(H),
      w: fc.integer({ min: 1, max: Math.floor(W * most) }),
      h: fc.integer({ min: 1, max: Math.floor(H * most) }),
    }),
  );
const fraction = fc.double({ min: 0, max: 1, noNaN: true });
const ORIGINS_X = ["left", "center", "right"] as const;
const ORIGINS_Y = ["top", "center", "bottom"] as const;

describe("placeBox over generated frames, boxes and positions", () => {
  it("keeps a preset's box inside the frame when it fits inside the insets, symmetric to its mirror preset", () => {
    // A box wider than 90 % of the frame sticks out on the far side, as in editly (the inset holds on the near one).
    fc.assert(
      fc.property(sized(0.9), ({ W, H, w, h }) => {
        const at = (position: NonNullable<Placement["position"]>) => placeBox({ position }, W, H, w, h);
        for (const p of ["top-left", "bottom-right", "center", "top", "center-left"] as const) {
          const { x, y } = at(p);
          expect(Number.isInteger(x) && Number.isInteger(y)).toBe(true);
          // Inside, give or take the rounding of a half pixel.
          expect(x).toBeGreaterThanOrEqual(0);
          expect(y).toBeGreaterThanOrEqual(0);
          expect(x + w).toBeLessThanOrEqual(W + 1);
          expect(y + h).toBeLessThanOrEqual(H + 1);
        }
        // The left inset equals the right one, the top the bottom one (within the rounding).
        const [tl, br] = [at("top-left"), at("bottom-right")];
        expect(Math.abs(tl.x - (W - (br.x + w)))).toBeLessThanOrEqual(1);
        expect(Math.abs(tl.y - (H - (br.y + h)))).toBeLessThanOrEqual(1);
      }),
      { numRuns: 300 },
    );
  });

  it("puts an object position's origin point within half a pixel of (x W, y H)", () => {
    fc.assert(
      fc.property(
        sized(),
        fraction,
        fraction,
        fc.constantFrom(...ORIGINS_X),
        fc.constantFrom(...ORIGINS_Y),
        ({ W, H, w, h }, x, y, originX, originY) => {
          const at = placeBox({ position: { x, y, originX, originY } }, W, H, w, h);
          const fx = { left: 0, center: 0.5, right: 1 }[originX];
          const fy = { top: 0, center: 0.5, bottom: 1 }[originY];
          expect(Math.abs(at.x + fx * w - x * W)).toBeLessThanOrEqual(0.5);
          expect(Math.abs(at.y + fy * h - y * H)).toBeLessThanOrEqual(0.5);
        },
      ),
      { numRuns: 300 },
    );
  });
});
