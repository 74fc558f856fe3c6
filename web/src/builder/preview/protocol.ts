/**
 * The messages between the builder (its canvas) and its preview frame (/builder/preview, sandboxed: an opaque
 * origin, so the two talk only by postMessage). Each side checks where a message comes from and its shape: the
 * frame runs users' html layers, so nothing it sends is trusted beyond plain numbers.
 */

/** A layer's box on the canvas, in canvas pixels, before its rotation (about the box's centre). */
export interface LayerBox {
  left: number;
  top: number;
  width: number;
  height: number;
  rotation: number;
}

/** Builder -> frame. */
export type ToPreview =
  /** Stored files the config names, as bytes (the frame has no network): storage URL -> file. */
  | { kind: "files"; files: [string, Blob][] }
  /**
   * Draw `config` (an image config as edited, valid or not). `sizes`: natural sizes of the pictures, by storage
   * URL (as the service takes them from its file records); `hidden`: layer indexes hidden in the editor;
   * `scripts`: html layers may run their own scripts (`enableLibraries`); false draws them without (a config from a
   * link, until the user agrees).
   */
  | {
      kind: "draw";
      seq: number;
      config: unknown;
      sizes: [string, { width: number; height: number }][];
      hidden: number[];
      scripts: boolean;
    };

/** Frame -> builder. */
export type FromPreview =
  | { kind: "ready" }
  /**
   * `seq` is drawn and painted (or the layout moved: fonts or pictures arrived, `seq` repeated). `boxes[i]` is
   * layer i's box (null where nothing is drawn); `skipped`: layers left out because they are invalid on their own;
   * `stale`: the config is invalid as a whole, the last valid drawing stays; `withheld`: html layers that would run
   * their scripts were drawn without them (`scripts: false`).
   */
  | {
      kind: "painted";
      seq: number;
      boxes: (LayerBox | null)[];
      skipped: number[];
      stale: boolean;
      withheld: boolean;
    };

const isNumber = (n: unknown): n is number => typeof n === "number" && Number.isFinite(n);

const isBox = (b: unknown): b is LayerBox => {
  if (typeof b !== "object" || b === null) return false;
  const r = b as Record<string, unknown>;
  return (["left", "top", "width", "height", "rotation"] as const).every((k) => isNumber(r[k]));
};

/** The frame's message, or null when it is not one (anything else is ignored). */
export const readFromPreview = (data: unknown): FromPreview | null => {
  if (typeof data !== "object" || data === null) return null;
  const m = data as Record<string, unknown>;
  if (m.kind === "ready") return { kind: "ready" };
  if (
    m.kind === "painted" &&
    isNumber(m.seq) &&
    Array.isArray(m.boxes) &&
    m.boxes.length <= 1000 &&
    m.boxes.every((b) => b === null || isBox(b)) &&
    Array.isArray(m.skipped) &&
    m.skipped.every(isNumber) &&
    typeof m.stale === "boolean" &&
    typeof m.withheld === "boolean"
  )
    return {
      kind: "painted",
      seq: m.seq,
      boxes: m.boxes as (LayerBox | null)[],
      skipped: m.skipped as number[],
      stale: m.stale,
      withheld: m.withheld,
    };
  return null;
};
