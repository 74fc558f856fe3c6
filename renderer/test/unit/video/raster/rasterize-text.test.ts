/** Where a caption preset's word is cut from its cell (rasterize-text.ts wordRegion). */
import { describe, expect, it } from "vitest";
import { stackCells, wordRegion } from "../../../../src/video/raster/rasterize-text.ts";

describe("wordRegion", () => {
  it("grows the word's box by the padding, on even pixels, inside the cell", () => {
    expect(wordRegion({ x: 20.4, y: 9.2, w: 33.3, h: 30 }, 200, 60, 8)).toEqual({
      x: 12,
      y: 0,
      w: 50,
      h: 48,
    });
    const r = wordRegion({ x: 150, y: 10, w: 45, h: 30 }, 200, 60, 8);
    expect(r.x + r.w).toBe(200);
    for (const v of Object.values(r)) expect(v % 2).toBe(0);
  });
});

describe("stackCells", () => {
  it("starts a new page when a cell would pass the page height", () => {
    expect(stackCells([5000, 5000, 100])).toEqual([
      { page: 0, top: 0 },
      { page: 1, top: 0 },
      { page: 1, top: 5000 },
    ]);
  });
});
