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

const isBox = (value: unknown): value is LayerBox => {
  if (typeof value !== "object" || value === null) return false;
  const fields = value as Record<string, unknown>;
  return (["left", "top", "width", "height", "rotation"] as const).every((k) => isNumber(fields[k]));
};

/** The frame's message, or null when it is not one (anything else is ignored). */
export const readFromPreview = (data: unknown): FromPreview | null => {
  if (typeof data !== "object" || data === null) return null;
  const message = data as Record<string, unknown>;
  if (message.kind === "ready") return { kind: "ready" };
  if (
    message.kind === "painted" &&
    isNumber(message.seq) &&
    Array.isArray(message.boxes) &&
    message.boxes.length <= 1000 &&
    message.boxes.every((b) => b === null || isBox(b)) &&
    Array.isArray(message.skipped) &&
    message.skipped.every(isNumber) &&
    typeof message.stale === "boolean" &&
    typeof message.withheld === "boolean"
  )
    return {
      kind: "painted",
      seq: message.seq,
      boxes: message.boxes as (LayerBox | null)[],
      skipped: message.skipped as number[],
      stale: message.stale,
      withheld: message.withheld,
    };
  return null;
};
