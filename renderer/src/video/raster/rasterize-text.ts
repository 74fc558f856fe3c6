/**
 * Rasterises text-family layers to transparent PNGs in the warm Chromium: all the job's boxes (and
 * every reveal state of word-by-word / letter-by-letter) are drawn on one sheet, written once into a
 * warm page and captured in one screenshot per sheet page (the first goes to ffmpeg's stdin); each
 * layer's frames are regions of it that the graph crops and overlays at the position computed here.
 * Zooming titles get a margin of zoomAmount so zoompan has room to grow the text without clipping it.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { isText, textTypeOf, type KeyedLayer, type TextLayer } from "../layers/index.ts";
import { placeBox } from "../position.ts";
import { STDIN_PATH, type RasterAsset, type Rasters, type RasterFrame, type VideoSpec } from "../types.ts";
import { openPage, servePageFiles, type ChromiumLaunch } from "./browser.ts";
import { FIT_SELECTOR, FIT_TEXT_FUNCTION } from "@media-render/contract/fit-text";
import { fontFaceFiles } from "../../fonts/files.ts";
import { textBox, textSheet, type BoxFont, type SheetCell, type TextBox } from "./text-html.ts";

/** Reveal states above this count are grouped, so a long letter-by-letter text stays cheap. */
const MAX_STATES = 60;

/** Sheets taller than this are split into several screenshots (Chromium's surface limits). */
const PAGE_MAX_HEIGHT = 8192;

/** One layer of the sheet: its cells (one, or one per reveal state) and where they are drawn. */
interface SheetLayer {
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
  W: number,
  H: number,
  w: number,
  h: number,
): { x: number; y: number } => {
  return placeBox(textTypeOf(layer).placement(layer), W, H, w, h);
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
 * The sheet's `@font-face` rules and the font files it may load, gathered as `fontOf` gives each layer its face: an
 * uploaded font or a catalogue font, added once per file / font.
 */
const sheetFonts = (spec: VideoSpec) => {
  const faces: string[] = [];
  /** The font files the sheet loads (the page is given these and nothing else). */
  const files: string[] = [];
  const known = new Map<string, BoxFont>();
  const fontOf = (layer: TextLayer): BoxFont | null => {
    const { fontPath, googleFont } = layer;
    const key =
      fontPath !== undefined ? `path:${fontPath}` : googleFont !== undefined ? `cat:${googleFont}` : null;
    if (key === null) return null;
    const seen = known.get(key);
    if (seen) return seen;
    let font: BoxFont;
    if (fontPath !== undefined) {
      font = { family: `LayerFont${known.size}`, weight: "normal" };
      faces.push(`@font-face{font-family:"${font.family}";src:url("${pathToFileURL(fontPath).href}");}`);
      files.push(fontPath);
    } else {
      const face = fontFaceFiles(String(googleFont), spec.fonts);
      font = { family: face.family, weight: face.weight };
      faces.push(face.css);
      files.push(...face.files);
    }
    known.set(key, font);
    return font;
  };
  return { faces, files, fontOf };
};

/**
 * The sheet's cells (pure): one per layer, one per reveal state of a layer revealed unit by unit (at most MAX_STATES),
 * or a caption preset's base cell and one cell per word.
 */
const sheetCells = (
  todo: KeyedLayer<TextLayer>[],
  W: number,
  H: number,
  fontOf: (layer: TextLayer) => BoxFont | null,
) => {
  const cells: SheetCell[] = [];
  /** Index into sheetLayers of each cell. */
  const owner: number[] = [];
  /** The word cells of caption presets: [cell, unit] pairs whose unit's word the page measures. */
  const wordCells: [number, number][] = [];
  const sheetLayers: SheetLayer[] = todo.map((k, i) => {
    const box = textBox(k.layer, W, H, fontOf(k.layer));
    const units = box.units?.length ?? 0;
    if (box.wordMotion && units > 0) {
      // One base cell (every unit for karaoke, none for pop) and one cell per unit drawn on its own.
      const first = cells.length;
      cells.push({ box, visible: box.wordMotion === "wipe" ? units : 0 });
      owner.push(i);
      for (let n = 0; n < units; n++) {
        wordCells.push([cells.length, n]);
        cells.push({ box, visible: 0, only: n });
        owner.push(i);
      }
      return { k, first, states: 1, units: 0, words: units, box };
    }
    const states = units === 0 ? 1 : Math.min(units, MAX_STATES);
    const first = cells.length;
    for (let s = 0; s < states; s++) {
      // A caption highlights (or boxes) the last unit of the state, the word being said; showAll keeps every unit drawn.
      const upTo = units === 0 ? 0 : Math.round(((s + 1) * units) / states);
      const visible = box.showAll ? units : upTo;
      const lit = (box.highlight || box.wordBox) && upTo > 0;
      cells.push({
        box,
        visible,
        ...(lit ? { highlight: upTo - 1 } : {}),
        ...(box.fit && s === 0 ? { fits: true } : {}),
      });
      owner.push(i);
    }
    return { k, first, states, units, box };
  });
  return { cells, owner, wordCells, sheetLayers };
};

/** The page a sheet is drawn in. */
type SheetPage = Awaited<ReturnType<typeof openPage>>;

/** Where each sheet cell was captured: the screenshot's path and the cell's top edge in it. */
type CellAt = (cell: number) => { path: string; top: number };

/** A layer's raster: a frame per reveal state (and its time), and a preset's words cut from their cells. */
const layerAsset = (
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
  for (let s = 0; s < sheetLayer.states; s++) {
    const slot = cellAt(sheetLayer.first + s);
    frames.push({
      path: slot.path,
      crop: { x: 0, y: slot.top },
      x: origin.x - cellBox.ex,
      y: origin.y - cellBox.ey,
      width: cellBox.cw,
      height: cellBox.ch,
    });
    times.push(sheetLayer.units === 0 ? 0 : (s * reveal) / sheetLayer.states);
  }
  const words = sheetLayer.words
    ? Array.from({ length: sheetLayer.words }, (_, n) => {
        const cellIndex = sheetLayer.first + 1 + n;
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
const boxSizes = (sheetLayers: SheetLayer[], rects: { w: number; h: number }[]) =>
  sheetLayers.map((sheetLayer, i) => {
    const w = Math.ceil(rects[i]!.w) + (Math.ceil(rects[i]!.w) % 2);
    const h = Math.ceil(rects[i]!.h) + (Math.ceil(rects[i]!.h) % 2);
    const margin = textTypeOf(sheetLayer.k.layer).zoomMargin(sheetLayer.k.layer);
    const ex = Math.round((w * margin) / 2);
    const ey = Math.round((h * margin) / 2);
    return { w, h, ex, ey, cw: w + 2 * ex, ch: h + 2 * ey };
  });

/**
 * Measures the sheet's cells in `page`: each layer's box, each preset word's region in its cell, and the font size of
 * each fitted layer (`fitted`, in that order).
 * Written into the page's empty file: document (no navigation); fonts load before measuring.
 * Boxes are measured in a W-wide viewport at the top-left corner, exactly where a lone box wraps.
 * Fitted boxes (minFontSize/maxFontSize) are sized first, by the script every page that fits text runs
 * (packages/contract/src/fit-text.ts), on each one's first cell; its other cells (reveal states) take that size.
 */
const measureSheet = async (
  page: SheetPage,
  faces: string[],
  cells: SheetCell[],
  sheetLayers: SheetLayer[],
  wordCells: [number, number][],
) => {
  const fitted = sheetLayers.filter((l) => cells[l.first]!.fits);
  const measured = await page.evaluate(
    async (
      html: string,
      ids: number[],
      wordIds: [number, number][],
      fit: { source: string; selector: string; cells: number[][] },
    ) => {
      document.open();
      document.write(html);
      document.close();
      await Promise.all([...document.fonts].map((face) => face.load()));
      await document.fonts.ready;
      const sizes: number[] = fit.cells.length
        ? new Function(`return ${fit.source}`)()(document.querySelectorAll(fit.selector))
        : [];
      fit.cells.forEach((others, n) =>
        others.forEach((c) => (document.getElementById(`c${c}`)!.style.fontSize = `${sizes[n]}px`)),
      );
      return {
        fontSizes: sizes,
        rects: ids.map((i) => {
          const r = document.getElementById(`c${i}`)!.getBoundingClientRect();
          return { w: r.width, h: r.height };
        }),
        // A preset's word, relative to its cell (every cell of a layer is at the top-left corner).
        words: wordIds.map(([i, n]) => {
          const cell = document.getElementById(`c${i}`)!;
          const r = cell.children[n]!.firstElementChild!.getBoundingClientRect();
          const c = cell.getBoundingClientRect();
          return { x: r.left - c.left, y: r.top - c.top, w: r.width, h: r.height };
        }),
      };
    },
    textSheet(faces, cells),
    sheetLayers.map((l) => l.first),
    wordCells,
    {
      source: FIT_TEXT_FUNCTION,
      selector: FIT_SELECTOR,
      cells: fitted.map((l) => Array.from({ length: l.states - 1 }, (_, s) => l.first + 1 + s)),
    },
  );
  return { ...measured, fitted };
};

/**
 * Rasterises every non-html layer in `layers` in Chromium `chromium` (one page load, one screenshot per
 * sheet page). The first sheet page is not awaited: its frames name STDIN_PATH and `stdin` resolves to its PNG.
 */
export const rasterizeText = async (
  spec: VideoSpec,
  layers: KeyedLayer[],
  workDir: string,
  chromium: ChromiumLaunch,
): Promise<Rasters> => {
  const out = new Map<string, RasterAsset>();
  const todo = layers.filter((k): k is KeyedLayer<TextLayer> => isText(k.layer));
  if (todo.length === 0) return { assets: out, stdin: null };
  const { width: W, height: H } = spec;
  const { faces, files, fontOf } = sheetFonts(spec);
  const { cells, owner, wordCells, sheetLayers } = sheetCells(todo, W, H, fontOf);
  const page = await openPage(chromium, W, H);
  servePageFiles(page, files);
  let firstPage: Promise<Uint8Array> | null = null;
  try {
    const { rects, words, fontSizes, fitted } = await measureSheet(
      page,
      faces,
      cells,
      sheetLayers,
      wordCells,
    );
    /** The fitted font size of each fitted layer's cells, by cell. */
    const fittedSize = new Map<number, number>();
    fitted.forEach((l, n) => {
      for (let s = 0; s < l.states; s++) fittedSize.set(l.first + s, fontSizes[n]!);
    });
    const wordRect = new Map(wordCells.map(([c], i) => [c, words[i]!]));
    const sizes = boxSizes(sheetLayers, rects);
    const cellSize = (c: number) => sizes[owner[c]!]!;
    const slots = stackCells(cells.map((_, c) => cellSize(c).ch));
    const pages = Math.max(...slots.map((s) => s.page)) + 1;
    // Widths are frozen at their measured value so moving a box never re-wraps its text: border-box, as measured, and
    // no max-width (a title's applies to its content box when measured, and would squeeze a border box by its padding).
    const placement = cells.map((_, cellIndex) => {
      const cellBox = cellSize(cellIndex);
      const size = fittedSize.get(cellIndex);
      return {
        page: slots[cellIndex]!.page,
        left: cellBox.ex,
        top: slots[cellIndex]!.top + cellBox.ey,
        width: rects[owner[cellIndex]!]!.w,
        font: size === undefined ? "" : `font-size:${size}px;`,
      };
    });
    const paths: string[] = [];
    // Pages after the first are written to files; the first (usually the only one) is captured last and
    // handed to ffmpeg on stdin, so ffmpeg starts while Chromium is still taking the screenshot.
    for (let p = pages - 1; p >= 0; p--) {
      const onPage = cells.map((_, c) => c).filter((c) => slots[c]!.page === p);
      const pw = Math.max(...onPage.map((c) => cellSize(c).cw));
      const ph = Math.max(...onPage.map((c) => slots[c]!.top + cellSize(c).ch));
      await page.evaluate(
        (place: typeof placement, current: number) =>
          place.forEach((at, c) => {
            const el = document.getElementById(`c${c}`)!;
            el.style.cssText = `display:${at.page === current ? "inline-block" : "none"};left:${at.left}px;top:${at.top}px;width:${at.width}px;max-width:none;box-sizing:border-box;${at.font}`;
          }),
        placement,
        p,
      );
      if (pw > W || ph > H)
        await page.setViewport({ width: Math.max(W, pw), height: Math.max(H, ph), deviceScaleFactor: 1 });
      const shot = {
        clip: { x: 0, y: 0, width: pw, height: ph },
        omitBackground: true,
        optimizeForSpeed: true,
        // The clip is inside the viewport: no viewport override (a relayout and repaint) around it.
        captureBeyondViewport: false,
      };
      if (p === 0) {
        firstPage = page.screenshot(shot);
        paths[0] = STDIN_PATH;
      } else {
        paths[p] = join(workDir, `text-sheet-${p}.png`);
        await page.screenshot({ ...shot, path: paths[p] });
      }
    }
    sheetLayers.forEach((sheetLayer, i) =>
      out.set(
        sheetLayer.k.key,
        layerAsset(
          sheetLayer,
          sizes[i]!,
          spec,
          (cellIndex) => ({ path: paths[slots[cellIndex]!.page]!, top: slots[cellIndex]!.top }),
          wordRect,
        ),
      ),
    );
  } finally {
    // The page stays open until its last screenshot is taken.
    const pending: Promise<unknown> = firstPage ?? Promise.resolve();
    void pending.catch(() => {}).finally(() => page.close().catch(() => {}));
  }
  return { assets: out, stdin: firstPage };
};
