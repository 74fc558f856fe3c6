/**
 * The image canvas: the preview frame (the service's own page, drawn in the browser) scaled to fit, and over it
 * one focusable box per layer, placed where the frame reports the layer's box. A box is selected by a click or
 * focus; dragged (or nudged with the arrow keys, Shift for 10 px) it moves its layer, and the handles of the
 * selected box (or Alt + arrow keys) resize it. Edges and centres snap to the canvas's and the other layers'.
 */
import type { CSSProperties, RefObject, TargetedKeyboardEvent, TargetedPointerEvent } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { isObject, type JsonObject } from "../model/paths.ts";
import type { Action } from "../model/store.ts";
import type { LayerBox } from "../preview/protocol.ts";
import {
  growLayer,
  handlesOf,
  moveLayer,
  nudgeLayer,
  resizedBox,
  resizeLayer,
  snapMove,
  snapResize,
  snapTargets,
  type Canvas as CanvasSize,
  type Guide,
  type Handle,
} from "./geometry.ts";
import { layerLabel } from "./layer-list.tsx";
import { PREVIEW_PATH, type PreviewState } from "./use-preview.ts";
import { ZoomSelect, type Zoom } from "../panels/zoom-select.tsx";

/** Screen pixels within which an edge snaps. */
const SNAP_PX = 6;

type Gesture = {
  pointer: number;
  index: number;
  handle: Handle | null;
  startX: number;
  startY: number;
  box: LayerBox;
  layer: JsonObject;
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
  const [available, setAvailable] = useState(600);
  const [zoom, setZoom] = useState<Zoom>("fit");
  const [snap, setSnap] = useState(true);
  const [guides, setGuides] = useState<Guide[]>([]);
  const gesture = useRef<Gesture | null>(null);

  useEffect(() => {
    const el = stage.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setAvailable(el.clientWidth - 2));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const scale = zoom === "fit" ? Math.min(1, available / canvas.width, 640 / canvas.height) : zoom;
  const targets = (except: number) =>
    snapTargets(
      canvas,
      preview.boxes.filter((b, i): b is LayerBox => !!b && i !== except && !hidden.has(i)),
    );

  const apply = (active: Gesture, dx: number, dy: number, key: string) => {
    const threshold = snap ? SNAP_PX / scale : 0;
    const path = ["layers", active.index];
    if (active.handle === null) {
      const snapped = threshold
        ? snapMove(active.box, dx, dy, targets(active.index), threshold)
        : { dx, dy, guides: [] };
      setGuides(snapped.guides);
      dispatch({
        type: "patch",
        path,
        values: moveLayer(active.layer, active.box, canvas, snapped.dx, snapped.dy),
        coalesce: key,
      });
    } else {
      const snapped = threshold
        ? snapResize(active.box, active.handle, dx, dy, targets(active.index), threshold)
        : { dx, dy, guides: [] };
      setGuides(snapped.guides);
      const next = resizedBox(active.box, active.handle, snapped.dx, snapped.dy);
      dispatch({
        type: "patch",
        path,
        values: resizeLayer(active.layer, active.box, next, canvas, active.handle),
        coalesce: key,
      });
    }
  };

  const start = (e: TargetedPointerEvent<HTMLElement>, index: number, handle: Handle | null) => {
    const box = preview.boxes[index];
    const layer = layers[index];
    if (!box || !isObject(layer) || e.button !== 0) return;
    e.preventDefault();
    e.stopPropagation();
    (e.currentTarget as HTMLElement).setPointerCapture(e.pointerId);
    dispatch({ type: "select", path: ["layers", index] });
    gesture.current = {
      pointer: e.pointerId,
      index,
      handle,
      startX: e.clientX,
      startY: e.clientY,
      box,
      layer,
    };
    if (handle === null) (e.currentTarget as HTMLElement).focus({ preventScroll: true });
  };
  const move = (e: TargetedPointerEvent<HTMLElement>) => {
    const g = gesture.current;
    if (!g || g.pointer !== e.pointerId) return;
    apply(
      g,
      (e.clientX - g.startX) / scale,
      (e.clientY - g.startY) / scale,
      `drag-${g.pointer}-${g.startX}-${g.startY}`,
    );
  };
  const end = (e: TargetedPointerEvent<HTMLElement>) => {
    if (gesture.current?.pointer !== e.pointerId) return;
    gesture.current = null;
    setGuides([]);
  };

  const keys = (e: TargetedKeyboardEvent<HTMLElement>, index: number) => {
    const step = e.shiftKey ? 10 : 1;
    const arrows: Record<string, [number, number]> = {
      ArrowLeft: [-step, 0],
      ArrowRight: [step, 0],
      ArrowUp: [0, -step],
      ArrowDown: [0, step],
    };
    const box = preview.boxes[index];
    const layer = layers[index];
    if (e.key in arrows && box && isObject(layer)) {
      e.preventDefault();
      const [dx, dy] = arrows[e.key]!;
      // Up grows a text's size: the arrow points the way the glyphs grow.
      const values = e.altKey
        ? growLayer(layer, box, dx, layer.type === "text" ? -dy : dy)
        : nudgeLayer(layer, canvas, dx, dy);
      dispatch({
        type: "patch",
        path: ["layers", index],
        values,
        coalesce: `keys-${index}-${e.altKey ? "size" : "move"}`,
      });
    } else if (e.key === "Delete" || e.key === "Backspace") {
      e.preventDefault();
      dispatch({ type: "remove", list: ["layers"], index });
    } else if (e.key === "Escape") {
      e.preventDefault();
      dispatch({ type: "select", path: null });
    }
  };

  const place = (b: LayerBox): CSSProperties => ({
    left: `${b.left * scale}px`,
    top: `${b.top * scale}px`,
    width: `${Math.max(2, b.width * scale)}px`,
    height: `${Math.max(2, b.height * scale)}px`,
    transform: b.rotation ? `rotate(${b.rotation}deg)` : undefined,
  });

  return (
    <div class="canvas-area">
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
      {preview.stale && (
        <p class="notice warning" role="status">
          The canvas settings are invalid: the preview shows the last valid version.
        </p>
      )}
      {preview.withheld && (
        <div class="notice warning" role="status" id="scripts-withheld">
          <p>
            This config came from a link: its html layers are drawn without their scripts and libraries.
            Scripts run in the preview frame (sandboxed, with no network); run them only if you trust whoever
            sent the link.
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
            {preview.boxes.map((b, i) =>
              b && !hidden.has(i) ? (
                <div
                  key={i}
                  role="button"
                  tabIndex={0}
                  class={`box${i === selected ? " selected" : ""}`}
                  aria-pressed={i === selected}
                  aria-label={`Layer ${i + 1}: ${layerLabel(layers[i])}. Arrow keys move it, Alt with arrow keys resizes it, Delete removes it.`}
                  style={place(b)}
                  onFocus={() => i !== selected && dispatch({ type: "select", path: ["layers", i] })}
                  onPointerDown={(e) => start(e, i, null)}
                  onPointerMove={move}
                  onPointerUp={end}
                  onPointerCancel={end}
                  onKeyDown={(e) => keys(e, i)}
                >
                  {i === selected &&
                    isObject(layers[i]) &&
                    handlesOf(layers[i] as JsonObject).map((h) => (
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
              ) : null,
            )}
            {guides.map((g, n) => (
              <span
                key={n}
                class={`guide ${g.axis}`}
                aria-hidden="true"
                style={g.axis === "x" ? { left: `${g.at * scale}px` } : { top: `${g.at * scale}px` }}
              />
            ))}
          </div>
        </div>
      </div>
    </div>
  );
};
