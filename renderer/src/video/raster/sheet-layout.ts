/**
 * The text sheet's layout (pure; rasterize-text.ts measures and captures it): the cells each layer takes (one, one
 * per reveal state, or a caption preset's base and one per word), each box's size with its zoom margin, the cells
 * stacked into pages Chromium can capture, and each layer's raster as regions of the captured pages.
 */
import { textTypeOf, type KeyedLayer, type TextLayer } from "../layers/index.ts";
import { placeBox } from "../position.ts";
import type { RasterAsset, RasterFrame, VideoSpec } from "../types.ts";
import { textBox, type BoxFont, type SheetCell, type TextBox } from "./text-html.ts";

/** Reveal states above this count are grouped, so a long letter-by-letter text stays cheap. */
const MAX_STATES = 60;

/** Sheets taller than this are split into several screenshots (Chromium's surface limits). */
const PAGE_MAX_HEIGHT = 8192;

/** One layer of the sheet: its cells (one, or one per reveal state) and where they are drawn. */
export interface SheetLayer {
  k: KeyedLayer<TextLayer>;
  first: number;
  states: number;
  units: number;
  /** A caption preset's word cells, after its base cell. */
  words?: number;
  box: TextBox;
}

/** Where a text layer's box lands in the frame, from the measured box size (w, h: even pixels). */
const framePosition = (
  layer: TextLayer,
  frameWidth: number,
  frameHeight: number,
  w: number,
  h: number,
): { x: number; y: number } => {
  return placeBox(textTypeOf(layer).placement(layer), frameWidth, frameHeight, w, h);
};

/**
 * The region a preset's word is cut from its cell (pure): the word's box grown by the cell's padding (room for the
 * outline, shadow or glow; the cell draws nothing else), inside the w x h cell, on even pixels so the graph's
 * 4:2:0 overlays place it where the whole caption is placed.
 */
export const wordRegion = (
  rect: { x: number; y: number; w: number; h: number },
  w: number,
  h: number,
  pad: number,
): { x: number; y: number; w: number; h: number } => {
  const even = (v: number) => 2 * Math.floor(v / 2);
  const x0 = Math.max(0, even(rect.x - pad));
  const y0 = Math.max(0, even(rect.y - pad));
  const x1 = Math.min(w, even(rect.x + rect.w + pad + 1));
  const y1 = Math.min(h, even(rect.y + rect.h + pad + 1));
  return { x: x0, y: y0, w: Math.max(2, x1 - x0), h: Math.max(2, y1 - y0) };
};

/**
 * Stacks cells of the given heights into pages no taller than PAGE_MAX_HEIGHT (pure): returns each
 * cell's page and top edge.
 */
export const stackCells = (heights: number[]): { page: number; top: number }[] => {
  let page = 0;
  let top = 0;
  return heights.map((h) => {
    if (top > 0 && top + h > PAGE_MAX_HEIGHT) {
      page++;
      top = 0;
    }
    const at = { page, top };
    top += h;
    return at;
  });
};

/**
 * The sheet's cells (pure): one per layer, one per reveal state of a layer revealed unit by unit (at most MAX_STATES),
 * or a caption preset's base cell and one cell per word.
 */
export const sheetCells = (
  todo: KeyedLayer<TextLayer>[],
  frameWidth: number,
  frameHeight: number,
  fontOf: (layer: TextLayer) => BoxFont | null,
) => {
  const cells: SheetCell[] = [];
  /** Index into sheetLayers of each cell. */
  const owner: number[] = [];
  /** The word cells of caption presets: [cell, unit] pairs whose unit's word the page measures. */
  const wordCells: [number, number][] = [];
  const sheetLayers: SheetLayer[] = todo.map((k, i) => {
    const box = textBox(k.layer, frameWidth, frameHeight, fontOf(k.layer));
    const units = box.units?.length ?? 0;
    if (box.wordMotion && units > 0) {
      // One base cell (every unit for karaoke, none for pop) and one cell per unit drawn on its own.
      const first = cells.length;
      cells.push({ box, visible: box.wordMotion === "wipe" ? units : 0 });
      owner.push(i);
      for (let unit = 0; unit < units; unit++) {
        wordCells.push([cells.length, unit]);
        cells.push({ box, visible: 0, only: unit });
        owner.push(i);
      }
      return { k, first, states: 1, units: 0, words: units, box };
    }
    const states = units === 0 ? 1 : Math.min(units, MAX_STATES);
    const first = cells.length;
    for (let state = 0; state < states; state++) {
      // A caption highlights (or boxes) the last unit of the state, the word being said; showAll keeps every unit drawn.
      const upTo = units === 0 ? 0 : Math.round(((state + 1) * units) / states);
      const visible = box.showAll ? units : upTo;
      const lit = (box.highlight || box.wordBox) && upTo > 0;
      cells.push({
        box,
        visible,
        ...(lit ? { highlight: upTo - 1 } : {}),
        ...(box.fit && state === 0 ? { fits: true } : {}),
      });
      owner.push(i);
    }
    return { k, first, states, units, box };
  });
  return { cells, owner, wordCells, sheetLayers };
};

/** Where each sheet cell was captured: the screenshot's path and the cell's top edge in it. */
type CellAt = (cell: number) => { path: string; top: number };

/** A layer's raster: a frame per reveal state (and its time), and a preset's words cut from their cells. */
export const layerAsset = (
  sheetLayer: SheetLayer,
  cellBox: { w: number; h: number; ex: number; ey: number; cw: number; ch: number },
  spec: VideoSpec,
  cellAt: CellAt,
  wordRect: Map<number, { x: number; y: number; w: number; h: number }>,
): RasterAsset => {
  const { layer, window } = sheetLayer.k;
  const origin = framePosition(layer, spec.width, spec.height, cellBox.w, cellBox.h);
  const reveal = textTypeOf(layer).revealSeconds(layer, window ?? spec.defaultDuration);
  const frames: RasterFrame[] = [];
  const times: number[] = [];
  for (let state = 0; state < sheetLayer.states; state++) {
    const slot = cellAt(sheetLayer.first + state);
    frames.push({
      path: slot.path,
      crop: { x: 0, y: slot.top },
      x: origin.x - cellBox.ex,
      y: origin.y - cellBox.ey,
      width: cellBox.cw,
      height: cellBox.ch,
    });
    times.push(sheetLayer.units === 0 ? 0 : (state * reveal) / sheetLayer.states);
  }
  const words = sheetLayer.words
    ? Array.from({ length: sheetLayer.words }, (_, word) => {
        const cellIndex = sheetLayer.first + 1 + word;
        const region = wordRegion(wordRect.get(cellIndex)!, cellBox.w, cellBox.h, sheetLayer.box.pad);
        return {
          frame: {
            path: cellAt(cellIndex).path,
            crop: { x: region.x, y: cellAt(cellIndex).top + region.y },
            ...{ x: origin.x + region.x, y: origin.y + region.y, width: region.w, height: region.h },
          },
          // The captions module times the words (captions.ts timeReveals).
          start: 0,
          end: 0,
        };
      })
    : null;
  return {
    frames,
    times,
    ...(words && sheetLayer.box.wordMotion ? { words: { motion: sheetLayer.box.wordMotion, words } } : {}),
  };
};

/**
 * Each layer's box in even pixels, grown by its zoom margin (a zooming title needs room to grow): `w`, `h` the box,
 * `ex`, `ey` the margin on each side, `cw`, `ch` the cell it is drawn in.
 */
export const boxSizes = (sheetLayers: SheetLayer[], rects: { w: number; h: number }[]) =>
  sheetLayers.map((sheetLayer, i) => {
    const w = Math.ceil(rects[i]!.w) + (Math.ceil(rects[i]!.w) % 2);
    const h = Math.ceil(rects[i]!.h) + (Math.ceil(rects[i]!.h) % 2);
    const margin = textTypeOf(sheetLayer.k.layer).zoomMargin(sheetLayer.k.layer);
    const ex = Math.round((w * margin) / 2);
    const ey = Math.round((h * margin) / 2);
    return { w, h, ex, ey, cw: w + 2 * ex, ch: h + 2 * ey };
  });
