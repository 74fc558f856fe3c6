/** The text sheet's layout (sheet-layout.ts): cells, box sizes, pages, word regions and each layer's raster. */
import { describe, expect, it } from "vitest";
import { isText, keyedLayers, type KeyedLayer, type TextLayer } from "../../../../src/video/layers/index.ts";
import {
  boxSizes,
  layerAsset,
  sheetCells,
  stackCells,
  wordRegion,
} from "../../../../src/video/raster/sheet-layout.ts";
import { specOf } from "../../../helpers/graph-spec.ts";

/** The text layers of a one-clip 320x180 config of 3 s with `layers`. */
const textLayers = (...layers: Record<string, unknown>[]) => {
  const spec = specOf({ clips: [{ duration: 3, layers }] });
  const keyed = keyedLayers(spec).filter((k): k is KeyedLayer<TextLayer> => isText(k.layer));
  return { spec, keyed };
};

/** `keyed` as a caption preset whose words the graph moves (captions/caption-layers.ts marks its layer so). */
const asPreset = (k: KeyedLayer<TextLayer>, wordMotion: "wipe" | "pop"): KeyedLayer<TextLayer> => ({
  ...k,
  layer: Object.assign({}, k.layer, { caption: { wordMotion } }),
});

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

describe("sheetCells", () => {
  it("gives a still title one cell and a word-by-word one a cell per reveal state, each showing one more word", () => {
    const { keyed } = textLayers(
      { type: "title", text: "Still" },
      { type: "title", text: "one two three", style: "word-by-word" },
    );
    const { cells, owner, wordCells, sheetLayers } = sheetCells(keyed, 320, 180, () => null);
    expect(cells.map((c) => c.visible)).toEqual([0, 1, 2, 3]);
    expect(owner).toEqual([0, 1, 1, 1]);
    expect(wordCells).toEqual([]);
    expect(sheetLayers.map(({ first, states, units }) => ({ first, states, units }))).toEqual([
      { first: 0, states: 1, units: 0 },
      { first: 1, states: 3, units: 3 },
    ]);
  });

  it("groups a long letter-by-letter reveal into at most 60 states, the last showing every letter", () => {
    const { keyed } = textLayers({ type: "title", text: "x".repeat(150), style: "letter-by-letter" });
    const { cells, sheetLayers } = sheetCells(keyed, 320, 180, () => null);
    expect(sheetLayers[0]).toMatchObject({ states: 60, units: 150 });
    expect(cells).toHaveLength(60);
    expect(cells.at(-1)!.visible).toBe(150);
    const visible = cells.map((c) => c.visible);
    expect(visible).toEqual([...visible].sort((a, b) => a - b));
  });

  it("gives a caption preset a base cell (every word for a wipe, none for pop) and one cell per word", () => {
    const { keyed } = textLayers({ type: "title", text: "say it now", style: "word-by-word" });
    for (const [motion, base] of [
      ["wipe", 3],
      ["pop", 0],
    ] as const) {
      const { cells, wordCells, sheetLayers } = sheetCells(
        [asPreset(keyed[0]!, motion)],
        320,
        180,
        () => null,
      );
      expect(cells.map((c) => [c.visible, c.only])).toEqual([
        [base, undefined],
        [0, 0],
        [0, 1],
        [0, 2],
      ]);
      expect(wordCells).toEqual([
        [1, 0],
        [2, 1],
        [3, 2],
      ]);
      expect(sheetLayers[0]).toMatchObject({ first: 0, states: 1, units: 0, words: 3 });
    }
  });
});

describe("boxSizes", () => {
  it("rounds each box up to even pixels and grows a zooming title's cell by its zoom amount", () => {
    const { keyed } = textLayers(
      { type: "title", text: "Zoom", zoomDirection: "in", zoomAmount: 0.2 },
      { type: "title", text: "Still", zoomDirection: null },
    );
    const { sheetLayers } = sheetCells(keyed, 320, 180, () => null);
    const rects = [
      { w: 101.3, h: 40 },
      { w: 60, h: 33.5 },
    ];
    expect(boxSizes(sheetLayers, rects)).toEqual([
      { w: 102, h: 40, ex: 10, ey: 4, cw: 122, ch: 48 },
      { w: 60, h: 34, ex: 0, ey: 0, cw: 60, ch: 34 },
    ]);
  });
});

describe("layerAsset", () => {
  it("makes a frame per reveal state, cut from where its cell was captured and timed over the reveal", () => {
    const { spec, keyed } = textLayers({
      type: "title",
      text: "one two three",
      style: "word-by-word",
      animationDuration: 1.5,
    });
    const { sheetLayers } = sheetCells(keyed, 320, 180, () => null);
    const size = { w: 100, h: 40, ex: 0, ey: 0, cw: 100, ch: 40 };
    const cellAt = (cell: number) => ({ path: "sheet.png", top: 40 * cell });
    const asset = layerAsset(sheetLayers[0]!, size, spec, cellAt, new Map());
    // Centred in the 320x180 frame.
    const at = { x: 110, y: 70, width: 100, height: 40, path: "sheet.png" };
    expect(asset.frames).toEqual([
      { ...at, crop: { x: 0, y: 0 } },
      { ...at, crop: { x: 0, y: 40 } },
      { ...at, crop: { x: 0, y: 80 } },
    ]);
    expect(asset.times).toEqual([0, 0.5, 1]);
    expect(asset.words).toBeUndefined();
  });

  it("places a zooming title's cell by its margin, so the box itself lands where it is placed", () => {
    const { spec, keyed } = textLayers({ type: "title", text: "Zoom", zoomDirection: "in", zoomAmount: 0.2 });
    const { sheetLayers } = sheetCells(keyed, 320, 180, () => null);
    const size = { w: 100, h: 40, ex: 10, ey: 4, cw: 120, ch: 48 };
    const asset = layerAsset(sheetLayers[0]!, size, spec, () => ({ path: "p.png", top: 0 }), new Map());
    expect(asset.frames).toEqual([
      { path: "p.png", crop: { x: 0, y: 0 }, x: 100, y: 66, width: 120, height: 48 },
    ]);
    expect(asset.times).toEqual([0]);
  });

  it("cuts a caption preset's words from their cells, placed where they sit in the caption", () => {
    const { spec, keyed } = textLayers({ type: "title", text: "hi there", style: "word-by-word" });
    const { sheetLayers } = sheetCells([asPreset(keyed[0]!, "pop")], 320, 180, () => null);
    const size = { w: 100, h: 40, ex: 0, ey: 0, cw: 100, ch: 40 };
    const words = new Map([
      [1, { x: 10, y: 10, w: 20, h: 20 }],
      [2, { x: 40, y: 10, w: 30, h: 20 }],
    ]);
    const asset = layerAsset(
      sheetLayers[0]!,
      size,
      spec,
      (cell) => ({ path: "p.png", top: 40 * cell }),
      words,
    );
    expect(asset.words?.motion).toBe("pop");
    const pad = sheetLayers[0]!.box.pad;
    expect(asset.words?.words.map((w) => w.frame)).toEqual(
      [1, 2].map((cell) => {
        const r = wordRegion(words.get(cell)!, 100, 40, pad);
        return {
          path: "p.png",
          crop: { x: r.x, y: 40 * cell + r.y },
          x: 110 + r.x,
          y: 70 + r.y,
          width: r.w,
          height: r.h,
        };
      }),
    );
  });
});
