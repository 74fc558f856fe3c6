/**
 * Moving, resizing and snapping image layers on the builder's canvas (web/src/builder/image/geometry.ts), checked
 * against the image page's own placement (packages/image-page/src/placement.ts, what renders and the preview draw): a
 * move or resize written back into the config puts the layer's box where the pointer put it, in whichever way the
 * layer is placed (pixels, a named position, fractions with an origin), over generated canvases, boxes and moves.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { placement, type Placeable } from "@media-render/image-page/placement";
import {
  growLayer,
  handlesOf,
  HANDLES,
  moveLayer,
  nudgeLayer,
  resizedBox,
  resizeLayer,
  snapMove,
  snapResize,
  snapTargets,
  type Handle,
} from "../../../../src/builder/image/geometry.ts";
import type { JsonObject } from "../../../../src/builder/model/paths.ts";
import type { LayerBox } from "../../../../src/builder/preview/protocol.ts";

const CANVAS = { width: 1000, height: 500 };
const box = (left: number, top: number, width: number, height: number): LayerBox => ({
  left,
  top,
  width,
  height,
  rotation: 0,
});

/** Where the image page puts the top-left corner of a `width` x `height` box of `layer`. */
const placedAt = (
  layer: Record<string, unknown>,
  size: { width: number; height: number },
  canvas = CANVAS,
) => {
  const align =
    layer.type === "text" ? ({ left: 0, center: 0.5, right: 1 }[String(layer.align ?? "left")] ?? 0) : 0;
  const { left, top, transform } = placement(layer as Placeable, canvas, align);
  const [fx, fy] = /translate\((-?[\d.]+)%,(-?[\d.]+)%\)/
    .exec(String(transform ?? ""))
    ?.slice(1)
    .map(Number) ?? [0, 0];
  return { left: Number(left) + (fx! / 100) * size.width, top: Number(top) + (fy! / 100) * size.height };
};

describe("moveLayer and nudgeLayer", () => {
  it("moves a layer placed by pixels by its pixels (a text by the edge its align names)", () => {
    expect(moveLayer({ type: "image", x: 10, y: 20 }, box(10, 20, 100, 50), CANVAS, 5, -3)).toEqual({
      x: 15,
      y: 17,
    });
    expect(
      moveLayer({ type: "text", align: "center", x: 60, y: 20 }, box(10, 20, 100, 50), CANVAS, 5, 0),
    ).toEqual({
      x: 65,
      y: 20,
    });
    expect(nudgeLayer({ type: "image", x: 10.4, y: 20 }, CANVAS, 1, 0)).toEqual({ x: 11, y: 20 });
  });

  it("turns a named position into the fractions of the same anchor, which can move", () => {
    // bottom-right: the box's bottom-right corner on the canvas's.
    expect(
      moveLayer({ type: "image", position: "bottom-right" }, box(900, 450, 100, 50), CANVAS, -100, -50),
    ).toEqual({
      position: { x: 0.9, y: 0.9, originX: "right", originY: "bottom" },
    });
    expect(nudgeLayer({ type: "image", position: "center" }, CANVAS, 10, 0)).toEqual({
      position: { x: 0.51, y: 0.5, originX: "center", originY: "center" },
    });
    expect(nudgeLayer({ type: "image", position: "top-left" }, CANVAS, 10, 5)).toEqual({
      position: { x: 0.01, y: 0.01 },
    });
  });

  it("keeps an object position's origin, and its fractions to four decimals", () => {
    const layer = { type: "image", position: { x: 0.5, y: 0.5, originX: "center" } };
    expect(moveLayer(layer, box(450, 250, 100, 50), CANVAS, 1, 1)).toEqual({
      position: { x: 0.501, y: 0.502, originX: "center" },
    });
    expect(nudgeLayer(layer, { width: 3, height: 3 }, 1, 0)).toEqual({
      position: { x: 0.8333, y: 0.5, originX: "center" },
    });
  });
});

const placements = fc.oneof(
  fc.record({ x: fc.integer({ min: -500, max: 1500 }), y: fc.integer({ min: -500, max: 1500 }) }),
  fc.record({
    position: fc.constantFrom(
      "center",
      "top",
      "bottom",
      "top-left",
      "top-right",
      "center-left",
      "center-right",
      "bottom-left",
      "bottom-right",
    ),
  }),
  fc.record({
    position: fc.record(
      {
        x: fc.double({ min: 0, max: 1, noNaN: true }),
        y: fc.double({ min: 0, max: 1, noNaN: true }),
        originX: fc.constantFrom("left", "center", "right"),
        originY: fc.constantFrom("top", "center", "bottom"),
      },
      { requiredKeys: ["x", "y"] },
    ),
  }),
);
const layers = fc
  .tuple(
    placements,
    fc.constantFrom("image", "rectangle", "text"),
    fc.constantFrom("left", "center", "right"),
  )
  .map(([place, type, align]) => ({ type, ...(type === "text" ? { align } : {}), ...place }) as JsonObject);
const canvases = fc.record({
  width: fc.integer({ min: 50, max: 4000 }),
  height: fc.integer({ min: 50, max: 4000 }),
});
const sizes = fc.record({
  width: fc.integer({ min: 1, max: 800 }),
  height: fc.integer({ min: 1, max: 800 }),
});
const moves = fc.integer({ min: -400, max: 400 });
/** Pixels are whole and fractions have four decimals: a box lands within this of where it was put. */
const slack = (canvas: { width: number; height: number }) =>
  0.5 + 0.00005 * Math.max(canvas.width, canvas.height);

describe("over generated layers, canvases, boxes and moves", () => {
  it("moveLayer puts the box where the move put it, as the image page places it", () => {
    fc.assert(
      fc.property(layers, canvases, sizes, moves, moves, (layer, canvas, size, dx, dy) => {
        const start = placedAt(layer, size, canvas);
        const moved = {
          ...layer,
          ...moveLayer(layer, box(start.left, start.top, size.width, size.height), canvas, dx, dy),
        };
        const end = placedAt(moved, size, canvas);
        expect(Math.abs(end.left - (start.left + dx))).toBeLessThanOrEqual(slack(canvas));
        expect(Math.abs(end.top - (start.top + dy))).toBeLessThanOrEqual(slack(canvas));
      }),
      { numRuns: 500 },
    );
  });

  it("nudgeLayer moves the box by the nudge from where the config puts it, whatever the box's size", () => {
    fc.assert(
      fc.property(layers, canvases, sizes, moves, moves, (layer, canvas, size, dx, dy) => {
        const start = placedAt(layer, size, canvas);
        const end = placedAt({ ...layer, ...nudgeLayer(layer, canvas, dx, dy) }, size, canvas);
        expect(Math.abs(end.left - (start.left + dx))).toBeLessThanOrEqual(slack(canvas));
        expect(Math.abs(end.top - (start.top + dy))).toBeLessThanOrEqual(slack(canvas));
      }),
      { numRuns: 500 },
    );
  });

  it("resizeLayer gives a shape the new box, in place, its opposite edges unmoved", () => {
    const shapes = layers.filter((l) => l.type !== "text");
    fc.assert(
      fc.property(
        shapes,
        canvases,
        sizes,
        fc.constantFrom(...HANDLES),
        moves,
        moves,
        (layer, canvas, size, handle, dx, dy) => {
          const start = placedAt(layer, size, canvas);
          const before = box(start.left, start.top, size.width, size.height);
          const next = resizedBox(before, handle, dx, dy);
          const change = resizeLayer(layer, before, next, canvas, handle);
          const resized = { ...layer, ...change } as JsonObject;
          expect([resized.width, resized.height]).toEqual([Math.round(next.width), Math.round(next.height)]);
          const end = placedAt(resized, { width: next.width, height: next.height }, canvas);
          expect(Math.abs(end.left - next.left)).toBeLessThanOrEqual(slack(canvas));
          expect(Math.abs(end.top - next.top)).toBeLessThanOrEqual(slack(canvas));
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe("resizing", () => {
  it("moves the edges a handle holds, keeping at least a pixel", () => {
    const b = box(100, 100, 50, 40);
    expect(resizedBox(b, "se", 10, 5)).toEqual(box(100, 100, 60, 45));
    expect(resizedBox(b, "nw", 10, 5)).toEqual(box(110, 105, 40, 35));
    expect(resizedBox(b, "w", 80, 0)).toEqual(box(149, 100, 1, 40));
    expect(resizedBox(b, "n", 0, -10)).toEqual(box(100, 90, 50, 50));
  });

  it("gives text a wrap width from its sides and a font size from its corners, its opposite corner in place", () => {
    const text = { type: "text", text: "Hi", x: 100, y: 100, fontSize: 20 };
    const b = box(100, 100, 50, 20);
    expect(handlesOf(text)).toEqual(["nw", "ne", "e", "se", "sw", "w"]);
    expect(handlesOf({ type: "image" })).toBe(HANDLES);
    expect(resizeLayer(text, b, resizedBox(b, "e", 30, 0), CANVAS, "e")).toEqual({
      width: 80,
      wrap: true,
      x: 100,
      y: 100,
    });
    // The north-west corner dragged up by 20 doubles the height: font size 40, the box grows up and left.
    expect(resizeLayer(text, b, resizedBox(b, "nw", 0, -20), CANVAS, "nw")).toEqual({
      fontSize: 40,
      x: 50,
      y: 80,
    });
  });

  it("grows a layer from its config's size, or its measured one (keyboard resizing)", () => {
    expect(growLayer({ type: "image", width: 100, height: 50 }, box(0, 0, 1, 1), 10, -60)).toEqual({
      width: 110,
      height: 1,
    });
    expect(growLayer({ type: "image" }, box(0, 0, 80, 40), 1, 1)).toEqual({ width: 81, height: 41 });
    expect(growLayer({ type: "text", fontSize: 12 }, box(0, 0, 80, 40), 0, 2)).toEqual({ fontSize: 14 });
    expect(growLayer({ type: "text" }, box(0, 0, 80, 40), 5, 0)).toEqual({ width: 85, wrap: true });
  });
});

describe("snapping", () => {
  const others = [box(200, 100, 100, 100)];
  const targets = snapTargets(CANVAS, others);

  it("snaps to the canvas's edges and centre and to the other boxes' edges and centres", () => {
    expect(targets).toEqual({ x: [0, 500, 1000, 200, 250, 300], y: [0, 250, 500, 100, 150, 200] });
  });

  it("pulls the nearest of the moving box's edges or centre onto a target within the threshold, with its guide", () => {
    // The box's left edge lands 3 px from the other box's right edge (300): pulled onto it.
    expect(snapMove(box(0, 400, 50, 20), 303, 0, targets, 5)).toEqual({
      dx: 300,
      dy: 0,
      guides: [{ axis: "x", at: 300 }],
    });
    expect(snapMove(box(0, 400, 50, 20), 320, 0, targets, 5)).toEqual({ dx: 320, dy: 0, guides: [] });
    // Its centre (y 410 + 20 / 2 - 162 = 258) onto the canvas's middle (250).
    expect(snapMove(box(0, 400, 50, 20), 320, -158, targets, 10)).toEqual({
      dx: 320,
      dy: -160,
      guides: [{ axis: "y", at: 250 }],
    });
  });

  it("snaps only the edges a resize handle moves", () => {
    expect(snapResize(box(0, 0, 196, 50), "e", 0, 0, targets, 5)).toEqual({
      dx: 4,
      dy: 0,
      guides: [{ axis: "x", at: 200 }],
    });
    expect(snapResize(box(0, 0, 196, 50), "s", 0, 0, targets, 5)).toEqual({ dx: 0, dy: 0, guides: [] });
  });

  it("never moves a box by more than the threshold, and lands what it snaps exactly on its guide", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ l: moves, t: moves, w: fc.nat(300), h: fc.nat(300) }), { maxLength: 4 }),
        fc.record({
          l: moves,
          t: moves,
          w: fc.integer({ min: 1, max: 300 }),
          h: fc.integer({ min: 1, max: 300 }),
        }),
        moves,
        moves,
        fc.integer({ min: 0, max: 20 }),
        fc.constantFrom<Handle | "move">("move", ...HANDLES),
        (boxes, b, dx, dy, threshold, how) => {
          const moving = box(b.l, b.t, b.w, b.h);
          const t = snapTargets(
            CANVAS,
            boxes.map((o) => box(o.l, o.t, o.w, o.h)),
          );
          const snapped =
            how === "move"
              ? snapMove(moving, dx, dy, t, threshold)
              : snapResize(moving, how, dx, dy, t, threshold);
          expect(Math.abs(snapped.dx - dx)).toBeLessThanOrEqual(threshold);
          expect(Math.abs(snapped.dy - dy)).toBeLessThanOrEqual(threshold);
          const after =
            how === "move"
              ? box(b.l + snapped.dx, b.t + snapped.dy, b.w, b.h)
              : resizedBox(moving, how, snapped.dx, snapped.dy);
          // A resize dragged past the opposite edge stops at 1 pixel, off its guide (nothing to snap then).
          if (after.width === 1 || after.height === 1) return;
          for (const guide of snapped.guides) {
            const [start, size] = guide.axis === "x" ? [after.left, after.width] : [after.top, after.height];
            expect([start, start + size / 2, start + size]).toContain(guide.at);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
