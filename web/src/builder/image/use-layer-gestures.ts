/**
 * The canvas's gestures on its layer boxes: a box dragged moves its layer, a handle dragged resizes it, edges and
 * centres snapping to the canvas's and the other layers' (SNAP_PX on screen) with guides drawn while they do; the
 * arrow keys nudge (Shift: 10 px) or, with Alt, resize; Delete removes, Escape deselects. Each gesture is one undo
 * step (its patches coalesce by key).
 */
import type { TargetedKeyboardEvent, TargetedPointerEvent } from "preact";
import { useRef, useState } from "preact/hooks";
import { isObject, type JsonObject } from "../model/paths.ts";
import type { Action } from "../model/store.ts";
import type { LayerBox } from "../preview/protocol.ts";
import {
  growLayer,
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

/**
 * What a key does to the layer box `index` (null: nothing, the key is left to the page): the arrows nudge (Shift:
 * 10 px) or, with Alt, resize; Delete and Backspace remove the layer; Escape deselects.
 */
const keyAction = (
  e: { key: string; shiftKey: boolean; altKey: boolean },
  index: number,
  box: LayerBox | null | undefined,
  layer: unknown,
  canvas: CanvasSize,
): Action | null => {
  const step = e.shiftKey ? 10 : 1;
  const arrows: Record<string, [number, number]> = {
    ArrowLeft: [-step, 0],
    ArrowRight: [step, 0],
    ArrowUp: [0, -step],
    ArrowDown: [0, step],
  };
  if (e.key in arrows && box && isObject(layer)) {
    const [dx, dy] = arrows[e.key]!;
    // Up grows a text's size: the arrow points the way the glyphs grow.
    const values = e.altKey
      ? growLayer(layer, box, dx, layer.type === "text" ? -dy : dy)
      : nudgeLayer(layer, canvas, dx, dy);
    return {
      type: "patch",
      path: ["layers", index],
      values,
      coalesce: `keys-${index}-${e.altKey ? "size" : "move"}`,
    };
  }
  if (e.key === "Delete" || e.key === "Backspace") return { type: "remove", list: ["layers"], index };
  if (e.key === "Escape") return { type: "select", path: null };
  return null;
};

export const useLayerGestures = ({
  canvas,
  layers,
  boxes,
  hidden,
  scale,
  snap,
  dispatch,
}: {
  canvas: CanvasSize;
  layers: JsonObject[];
  /** The layers' boxes as the preview drew them (null: not drawn). */
  boxes: readonly (LayerBox | null)[];
  hidden: ReadonlySet<number>;
  /** Screen pixels per canvas pixel. */
  scale: number;
  snap: boolean;
  dispatch: (action: Action) => void;
}) => {
  const [guides, setGuides] = useState<Guide[]>([]);
  const gesture = useRef<Gesture | null>(null);
  const targets = (except: number) =>
    snapTargets(
      canvas,
      boxes.filter((b, i): b is LayerBox => !!b && i !== except && !hidden.has(i)),
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
    const box = boxes[index];
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
    const active = gesture.current;
    if (!active || active.pointer !== e.pointerId) return;
    apply(
      active,
      (e.clientX - active.startX) / scale,
      (e.clientY - active.startY) / scale,
      `drag-${active.pointer}-${active.startX}-${active.startY}`,
    );
  };
  const end = (e: TargetedPointerEvent<HTMLElement>) => {
    if (gesture.current?.pointer !== e.pointerId) return;
    gesture.current = null;
    setGuides([]);
  };

  const keys = (e: TargetedKeyboardEvent<HTMLElement>, index: number) => {
    const action = keyAction(e, index, boxes[index], layers[index], canvas);
    if (!action) return;
    e.preventDefault();
    dispatch(action);
  };

  return { guides, start, move, end, keys };
};
