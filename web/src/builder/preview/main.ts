/**
 * The preview frame (/builder/preview): draws the builder's image config exactly as the image renderer's page
 * does (the same compile step, compile.ts, the same bundled fonts from this origin's /render/), and tells the
 * builder where each layer's box ended up. It runs sandboxed with the image page's policy: no network, an opaque
 * origin. Only the changed layers are replaced, so an edit costs one element, not a page load.
 */
import { FIT_SELECTOR, FIT_TEXT_FUNCTION } from "@media-render/contract/fit-text";
import { drawConfig } from "./compile.ts";
import { applyLayers, measure, type Drawn } from "./morph.ts";
import type { FromPreview, ToPreview } from "./protocol.ts";

const origin = new URL(location.href).origin;
const files = new Map<string, string>();
const fontStyle = document.createElement("style");
const pageStyle = document.createElement("style");
document.head.append(fontStyle, pageStyle);

let current: Drawn = { keys: [], elements: [] };
let drawnIndexes: number[] = [];
let lastSeq = 0;
let skipped: number[] = [];
let stale = false;
let withheld = false;

const send = (message: FromPreview) => parent.postMessage(message, "*");

/**
 * The image page's fitting of text layers (minFontSize/maxFontSize), from the same source the service's page runs
 * (packages/image-page/src/compile-html.ts): fitted again after every drawing and whenever fonts arrive, since a font
 * still loading is measured in its fallback.
 */
const fitText = new Function(`return ${FIT_TEXT_FUNCTION}`)() as (elements: ArrayLike<Element>) => number[];
const fit = () => fitText(document.querySelectorAll(FIT_SELECTOR));

/**
 * Runs `fn` at the next animation frame, or after FRAME_FALLBACK_MS: a frame scrolled out of view gets no animation
 * frames (Chromium throttles it) but its layout still changes, and the builder still needs its boxes.
 */
const FRAME_FALLBACK_MS = 200;
const nextFrame = (fn: () => void) => {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    fn();
  };
  const timer = setTimeout(once, FRAME_FALLBACK_MS);
  requestAnimationFrame(once);
};

/** Posts the boxes once the frame is painted (after the next animation frame). */
const report = (seq: number) => {
  nextFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      const measured = measure(current.elements);
      const boxes = new Array<ReturnType<typeof measure>[number]>(
        Math.max(0, ...drawnIndexes.map((i) => i + 1), ...skipped.map((i) => i + 1)),
      ).fill(null);
      drawnIndexes.forEach((layer, k) => (boxes[layer] = measured[k] ?? null));
      send({ kind: "painted", seq, boxes, skipped, stale, withheld });
    };
    channel.port2.postMessage(null);
  });
};

const draw = (message: Extract<ToPreview, { kind: "draw" }>) => {
  lastSeq = message.seq;
  const drawing = drawConfig(
    message.config,
    new Map(message.sizes),
    { origin, fileUrl: (path) => files.get(path) ?? "data:," },
    message.scripts === true,
  );
  stale = drawing === null;
  if (drawing) {
    const { parts } = drawing;
    if (fontStyle.textContent !== parts.fontCss) fontStyle.textContent = parts.fontCss;
    if (pageStyle.textContent !== parts.pageCss) pageStyle.textContent = parts.pageCss;
    const hidden = new Set(message.hidden);
    current = applyLayers(document.body, current, parts.layers, (k) => hidden.has(drawing.drawn[k]!));
    fit();
    drawnIndexes = drawing.drawn;
    skipped = drawing.skipped;
    withheld = drawing.withheld;
  }
  report(message.seq);
};

/**
 * At most one drawing per frame: the first change draws at once, changes arriving while that frame is not painted
 * yet (typing fast, a burst of edits) collapse into one drawing of the latest, at the next frame.
 */
let drewThisFrame = false;
let waiting: Extract<ToPreview, { kind: "draw" }> | null = null;
const drawSoon = (message: Extract<ToPreview, { kind: "draw" }>) => {
  if (drewThisFrame) {
    waiting = message;
    return;
  }
  drewThisFrame = true;
  draw(message);
  nextFrame(() => {
    drewThisFrame = false;
    const next = waiting;
    waiting = null;
    if (next) drawSoon(next);
  });
};

addEventListener("message", (event: MessageEvent) => {
  // Only the builder's page talks to this frame; html layers (frames inside it) may post too, and are ignored.
  if (event.source !== parent) return;
  const message = event.data as ToPreview;
  if (message?.kind === "files") {
    for (const [path, blob] of message.files)
      if (!files.has(path) && blob instanceof Blob) files.set(path, URL.createObjectURL(blob));
  } else if (message?.kind === "draw") drawSoon(message);
});

// Fonts and pictures arriving move text and picture boxes (and change what fits): report them again.
document.fonts.addEventListener("loadingdone", () => {
  fit();
  report(lastSeq);
});
addEventListener("load", () => report(lastSeq), true);

send({ kind: "ready" });
