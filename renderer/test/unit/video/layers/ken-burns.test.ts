/**
 * Ken Burns (ken-burns.ts): zoompan for zooms in and out, a crop of a copy resized once for pans. The expressions
 * are evaluated by ffmpeg per frame, so they are asserted as written; a property checks a pan's crop stays inside
 * its picture and crosses its whole margin, for any size, amount and length.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  isPan,
  panCrop,
  zoomAmount,
  zoomDirection,
  zoompanFilter,
} from "../../../../src/video/layers/ken-burns.ts";

describe("zoompanFilter", () => {
  const CENTRE = "x='(iw-iw/zoom)/2':y='(ih-ih/zoom)/2'";

  it("zooms in from 1 to 1 + amount and out from 1 + amount to 1 over the layer's frames, centred", () => {
    expect(zoompanFilter("in", 0.2, 50, 320, 180, 25)).toBe(
      `zoompan=z='1+0.2*((on+0)/49)':${CENTRE}:d=50:s=320x180:fps=25`,
    );
    expect(zoompanFilter("out", 0.2, 50, 320, 180, 25)).toBe(
      `zoompan=z='1+0.2*(1-((on+0)/49))':${CENTRE}:d=50:s=320x180:fps=25`,
    );
  });

  it("holds 1 + amount and crosses the spare margin for left, right, up and down", () => {
    const p = "((on+0)/49)";
    expect(zoompanFilter("left", 0.2, 50, 320, 180, 25)).toBe(
      `zoompan=z='1+0.2':x='(iw-iw/zoom)*${p}':y='(ih-ih/zoom)/2':d=50:s=320x180:fps=25`,
    );
    expect(zoompanFilter("right", 0.2, 50, 320, 180, 25)).toContain(`x='(iw-iw/zoom)*(1-${p})'`);
    expect(zoompanFilter("up", 0.2, 50, 320, 180, 25)).toContain(`y='(ih-ih/zoom)*${p}'`);
    expect(zoompanFilter("down", 0.2, 50, 320, 180, 25)).toContain(`y='(ih-ih/zoom)*(1-${p})'`);
  });

  it("draws a window's frames of a still from one input frame, counted from the frames it skips", () => {
    expect(zoompanFilter("in", 0.1, 50, 320, 180, 25, { skip: 20, drawn: 10 })).toBe(
      `zoompan=z='1+0.1*((on+20)/49)':${CENTRE}:d=10:s=320x180:fps=25`,
    );
  });

  it("maps a moving input one frame to one (d=1, counting input frames)", () => {
    expect(zoompanFilter("out", 0.1, 50, 320, 180, 25, { skip: 5, drawn: 45, moving: true })).toBe(
      `zoompan=z='1+0.1*(1-((in+5)/49))':${CENTRE}:d=1:s=320x180:fps=25`,
    );
  });

  it("does not divide by zero for a one-frame layer", () => {
    expect(zoompanFilter("in", 0.1, 1, 320, 180, 25)).toContain("z='1+0.1*((on+0)/1)'");
  });
});

describe("panCrop", () => {
  it("sizes the picture to 1 + amount (even) and crops the frame out of it at whole pixels", () => {
    expect(panCrop("left", 0.1, 25, 320, 180)).toEqual({
      w: 352,
      h: 198,
      crop: "crop=320:180:x='floor(32*(n+0)/24+0.5)':y='9':exact=1",
    });
    expect(panCrop("down", 0.5, 11, 100, 50, 4)).toEqual({
      w: 150,
      h: 74,
      crop: "crop=100:50:x='25':y='floor(24*(1-(n+4)/10)+0.5)':exact=1",
    });
  });

  it("keeps every crop inside the picture and crosses the whole margin, first frame to last", () => {
    const directions = ["left", "right", "up", "down"] as const;
    // Boxes are even (evenDimension), as the layers size them.
    const even = fc.integer({ min: 1, max: 1000 }).map((n) => 2 * n);
    fc.assert(
      fc.property(
        fc.constantFrom(...directions),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: 2, max: 500 }),
        even,
        even,
        (dir, amount, frames, w, h) => {
          const pan = panCrop(dir, amount, frames, w, h);
          const [, x, y] = /x='([^']*)':y='([^']*)'/.exec(pan.crop)!;
          // The expressions use ffmpeg's floor; JavaScript's evaluates them the same way.
          const at = (expr: string, n: number) =>
            Function("n", `return ${expr.replaceAll("floor", "Math.floor")}`)(n) as number;
          const offsets = [0, frames - 1].map((n) => [at(x!, n), at(y!, n)]);
          for (const [ox, oy] of offsets) {
            expect(ox! >= 0 && ox! + w <= pan.w && oy! >= 0 && oy! + h <= pan.h).toBe(true);
          }
          const moved = [offsets[1]![0]! - offsets[0]![0]!, offsets[1]![1]! - offsets[0]![1]!];
          const sign = dir === "left" || dir === "up" ? 1 : -1;
          const margin = dir === "left" || dir === "right" ? [pan.w - w, 0] : [0, pan.h - h];
          expect(moved).toEqual(margin.map((m) => sign * m || 0));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("a layer's Ken Burns settings", () => {
  it("reads zoomDirection null as off and absence as the layer type's default", () => {
    expect([zoomDirection(null, "in"), zoomDirection(undefined, "in"), zoomDirection("left", null)]).toEqual([
      null,
      "in",
      "left",
    ]);
    expect([zoomAmount(undefined), zoomAmount(0.4)]).toEqual([0.1, 0.4]);
    expect(["in", "out", "left", "right", "up", "down"].map((d) => isPan(d as never))).toEqual([
      false,
      false,
      true,
      true,
      true,
      true,
    ]);
    expect(isPan(null)).toBe(false);
  });
});
