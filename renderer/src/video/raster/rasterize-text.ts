/**
 * Rasterises text-family layers to transparent PNGs in the warm Chromium: all the job's boxes (and
 * every reveal state of word-by-word / letter-by-letter) are drawn on one sheet, written once into a
 * warm page and captured in one screenshot per sheet page (the first goes to ffmpeg's stdin); each
 * layer's frames are regions of it that the graph crops and overlays. Where the cells sit on the sheet and where each
 * layer lands in the frame (zooming titles with a margin of zoomAmount, so zoompan has room to grow the text without
 * clipping it) is sheet-layout.ts; this module gathers the fonts, measures the cells and captures the pages.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { isText, type KeyedLayer, type TextLayer } from "../layers/index.ts";
import { STDIN_PATH, type RasterAsset, type Rasters, type VideoSpec } from "../types.ts";
import { openPage, servePageFiles, type ChromiumLaunch } from "./browser.ts";
import { FIT_SELECTOR, FIT_TEXT_FUNCTION } from "@media-render/contract/fit-text";
import { fontFaceFiles } from "../../fonts/files.ts";
import { boxSizes, layerAsset, sheetCells, stackCells, type SheetLayer } from "./sheet-layout.ts";
import { textSheet, type BoxFont, type SheetCell } from "./text-html.ts";

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

/** The page a sheet is drawn in. */
type SheetPage = Awaited<ReturnType<typeof openPage>>;

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
          const rect = document.getElementById(`c${i}`)!.getBoundingClientRect();
          return { w: rect.width, h: rect.height };
        }),
        // A preset's word, relative to its cell (every cell of a layer is at the top-left corner).
        words: wordIds.map(([i, n]) => {
          const cell = document.getElementById(`c${i}`)!;
          const rect = cell.children[n]!.firstElementChild!.getBoundingClientRect();
          const cellRect = cell.getBoundingClientRect();
          return { x: rect.left - cellRect.left, y: rect.top - cellRect.top, w: rect.width, h: rect.height };
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
    for (let pageIndex = pages - 1; pageIndex >= 0; pageIndex--) {
      const onPage = cells.map((_, c) => c).filter((c) => slots[c]!.page === pageIndex);
      const pw = Math.max(...onPage.map((c) => cellSize(c).cw));
      const ph = Math.max(...onPage.map((c) => slots[c]!.top + cellSize(c).ch));
      await page.evaluate(
        (place: typeof placement, current: number) =>
          place.forEach((at, cellIndex) => {
            const el = document.getElementById(`c${cellIndex}`)!;
            el.style.cssText = `display:${at.page === current ? "inline-block" : "none"};left:${at.left}px;top:${at.top}px;width:${at.width}px;max-width:none;box-sizing:border-box;${at.font}`;
          }),
        placement,
        pageIndex,
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
      if (pageIndex === 0) {
        firstPage = page.screenshot(shot);
        paths[0] = STDIN_PATH;
      } else {
        paths[pageIndex] = join(workDir, `text-sheet-${pageIndex}.png`);
        await page.screenshot({ ...shot, path: paths[pageIndex] });
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
