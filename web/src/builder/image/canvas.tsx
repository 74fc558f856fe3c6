/**
 * The image canvas: the preview frame (the service's own page, drawn in the browser) scaled to fit, and over it
 * one focusable box per layer, placed where the frame reports the layer's box. A box is selected by a click or
 * focus; dragged (or nudged with the arrow keys, Shift for 10 px) it moves its layer, and the handles of the
 * selected box (or Alt + arrow keys) resize it. Edges and centres snap to the canvas's and the other layers'.
 */
import type { CSSProperties, RefObject } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { isObject, type JsonObject } from "../model/paths.ts";
import type { Action } from "../model/store.ts";
import type { LayerBox } from "../preview/protocol.ts";
import { handlesOf, type Canvas as CanvasSize } from "./geometry.ts";
import { layerLabel } from "./layer-list.tsx";
import { useLayerGestures } from "./use-layer-gestures.ts";
import { PREVIEW_PATH, type PreviewState } from "./use-preview.ts";
import { ZoomSelect, type Zoom } from "../panels/zoom-select.tsx";

/** What the preview could not draw as asked: an invalid canvas, scripts withheld, layers left out. */
const CanvasNotices = ({ preview, onRunScripts }: { preview: PreviewState; onRunScripts: () => void }) => (
  <>
    {preview.stale && (
      <p class="notice warning" role="status">
        The canvas settings are invalid: the preview shows the last valid version.
      </p>
    )}
    {preview.withheld && (
      <div class="notice warning" role="status" id="scripts-withheld">
        <p>
          This config came from a link: its html layers are drawn without their scripts and libraries. Scripts
          run in the preview frame (sandboxed, with no network); run them only if you trust whoever sent the
          link.
        </p>
        <button type="button" class="secondary small" onClick={onRunScripts}>
          Run the scripts
        </button>
      </div>
    )}
    {preview.skipped.length > 0 && !preview.stale && (
      <p class="notice warning" role="status">
        Not drawn until they are valid: layer {preview.skipped.map((i) => i + 1).join(", ")}.
      </p>
    )}
  </>
);

/** Where a layer's box goes on the screen, at `scale`. */
const place = (box: LayerBox, scale: number): CSSProperties => ({
  left: `${box.left * scale}px`,
  top: `${box.top * scale}px`,
  width: `${Math.max(2, box.width * scale)}px`,
  height: `${Math.max(2, box.height * scale)}px`,
  transform: box.rotation ? `rotate(${box.rotation}deg)` : undefined,
});

/** One layer's focusable box over the frame, with the resize handles when it is selected. */
const LayerBoxView = ({
  index: i,
  box: b,
  layer,
  selected,
  scale,
  gestures: { start, move, end, keys },
  dispatch,
}: {
  index: number;
  box: LayerBox;
  layer: unknown;
  selected: boolean;
  scale: number;
  gestures: ReturnType<typeof useLayerGestures>;
  dispatch: (action: Action) => void;
}) => (
  <div
    role="button"
    tabIndex={0}
    class={`box${selected ? " selected" : ""}`}
    aria-pressed={selected}
    aria-label={`Layer ${i + 1}: ${layerLabel(layer)}. Arrow keys move it, Alt with arrow keys resizes it, Delete removes it.`}
    style={place(b, scale)}
    onFocus={() => !selected && dispatch({ type: "select", path: ["layers", i] })}
    onPointerDown={(e) => start(e, i, null)}
    onPointerMove={move}
    onPointerUp={end}
    onPointerCancel={end}
    onKeyDown={(e) => keys(e, i)}
  >
    {selected &&
      isObject(layer) &&
      handlesOf(layer).map((h) => (
        <span
          key={h}
          class={`handle h-${h}`}
          aria-hidden="true"
          onPointerDown={(e) => start(e, i, h)}
          onPointerMove={move}
          onPointerUp={end}
          onPointerCancel={end}
        />
      ))}
  </div>
);

/** The canvas's tools: its zoom, whether edges snap, and its size. */
const CanvasTools = ({
  zoom,
  setZoom,
  snap,
  setSnap,
  canvas,
}: {
  zoom: Zoom;
  setZoom: (zoom: Zoom) => void;
  snap: boolean;
  setSnap: (snap: boolean) => void;
  canvas: CanvasSize;
}) => (
  <div class="canvas-tools" role="group" aria-label="Canvas">
    <ZoomSelect zoom={zoom} setZoom={setZoom} levels={[0.25, 0.5, 1]} />
    <label class="check">
      <input type="checkbox" checked={snap} onChange={(e) => setSnap(e.currentTarget.checked)} /> Snap to
      centre and edges
    </label>
    <span class="muted">
      {canvas.width}x{canvas.height} px
    </span>
  </div>
);

/** The width inside `el`'s border (its client width less its 1 px border), kept current as it resizes. */
const useInnerWidth = (el: RefObject<HTMLElement | null>, initial: number) => {
  const [width, setWidth] = useState(initial);
  useEffect(() => {
    const node = el.current;
    if (!node) return;
    const observer = new ResizeObserver(() => setWidth(node.clientWidth - 2));
    observer.observe(node);
    return () => observer.disconnect();
  }, []);
  return width;
};

export const ImageCanvas = ({
  config,
  preview,
  frame,
  selected,
  hidden,
  dispatch,
  onRunScripts,
}: {
  config: JsonObject;
  preview: PreviewState;
  frame: RefObject<HTMLIFrameElement | null>;
  selected: number | null;
  hidden: ReadonlySet<number>;
  dispatch: (action: Action) => void;
  /** The user agrees to run the scripts of a config that came from a link. */
  onRunScripts: () => void;
}) => {
  const canvas: CanvasSize = {
    width: typeof config.width === "number" && config.width > 0 ? config.width : 1,
    height: typeof config.height === "number" && config.height > 0 ? config.height : 1,
  };
  const layers = (Array.isArray(config.layers) ? config.layers : []) as JsonObject[];
  const stage = useRef<HTMLDivElement>(null);
  const available = useInnerWidth(stage, 600);
  const [zoom, setZoom] = useState<Zoom>("fit");
  const [snap, setSnap] = useState(true);

  const scale = zoom === "fit" ? Math.min(1, available / canvas.width, 640 / canvas.height) : zoom;
  const gestures = useLayerGestures({
    canvas,
    layers,
    boxes: preview.boxes,
    hidden,
    scale,
    snap,
    dispatch,
  });

  return (
    <div class="canvas-area">
      <CanvasTools zoom={zoom} setZoom={setZoom} snap={snap} setSnap={setSnap} canvas={canvas} />
      <CanvasNotices preview={preview} onRunScripts={onRunScripts} />
      <div
        class="stage"
        ref={stage}
        onPointerDown={(e) => e.target === e.currentTarget && dispatch({ type: "select", path: null })}
      >
        <div
          class="frame"
          style={{ width: `${canvas.width * scale}px`, height: `${canvas.height * scale}px` }}
        >
          <iframe
            ref={frame}
            src={PREVIEW_PATH}
            title="Preview of the image, as the service renders it"
            sandbox="allow-scripts"
            width={canvas.width}
            height={canvas.height}
            tabIndex={-1}
            style={{ transform: `scale(${scale})` }}
          />
          <div
            class="overlay"
            onPointerDown={(e) => e.target === e.currentTarget && dispatch({ type: "select", path: null })}
          >
            {preview.boxes.map((box, i) =>
              box && !hidden.has(i) ? (
                <LayerBoxView
                  key={i}
                  index={i}
                  box={box}
                  layer={layers[i]}
                  selected={i === selected}
                  scale={scale}
                  gestures={gestures}
                  dispatch={dispatch}
                />
              ) : null,
            )}
            {gestures.guides.map((guide, index) => (
              <span
                key={index}
                class={`guide ${guide.axis}`}
                aria-hidden="true"
                style={
                  guide.axis === "x" ? { left: `${guide.at * scale}px` } : { top: `${guide.at * scale}px` }
                }
              />
            ))}
          </div>
        </div>
      </div>
    </div>
  );
};
