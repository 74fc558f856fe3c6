/**
 * A property's keyframes on the timeline's scale (keyframe-lane.tsx): one diamond each, which picks its keyframe
 * when clicked, drags it along the lane, moves it with the arrow keys (a frame, Shift ten) and deletes it with
 * Delete or Backspace. Each drag, and each diamond's run of key presses, is one step of the undo history.
 */
import { useRef } from "preact/hooks";
import type { Keyframe } from "../service-code.ts";

/** The lane's row of diamonds for the keyframes of the property `property` (its key). */
export const KeyframeDiamonds = ({
  frames,
  property,
  start,
  pps,
  fps,
  picked,
  onPick,
  onMove,
  onRemove,
}: {
  frames: readonly Keyframe[];
  property: string;
  /** Seconds on the video's timeline where the layer starts (keyframe times are the layer's). */
  start: number;
  /** Pixels per second of the timeline. */
  pps: number;
  fps: number;
  /** The index of the picked keyframe, or null. */
  picked: number | null;
  onPick: (index: number) => void;
  /** Moves keyframe `index` to layer time `time`; moves sharing `coalesce` are one step of the history. */
  onMove: (index: number, time: number, coalesce: string) => void;
  onRemove: (index: number) => void;
}) => {
  const drag = useRef<{ pointer: number; index: number; startX: number; time: number } | null>(null);
  return (
    <ol class="row keyframes-row" aria-label={`Keyframes of ${property}`}>
      {frames.map((k, i) => (
        <li key={i} class="keyframe" style={{ left: `${(start + k.time) * pps}px` }}>
          <button
            type="button"
            class={i === picked ? "selected" : ""}
            aria-pressed={i === picked}
            aria-label={`Keyframe ${i + 1} of ${property}: ${k.value} at ${k.time} s, ${k.easing ?? "linear"}. Arrow keys move it, Delete removes it.`}
            title={`${k.value} at ${k.time} s (${k.easing ?? "linear"})`}
            onClick={() => onPick(i)}
            onKeyDown={(e) => {
              if (e.key === "Delete" || e.key === "Backspace") {
                e.preventDefault();
                onRemove(i);
              } else if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
                e.preventDefault();
                const step = ((e.shiftKey ? 10 : 1) / fps) * (e.key === "ArrowLeft" ? -1 : 1);
                onMove(i, k.time + step, `keyframe-keys-${property}-${i}`);
              }
            }}
            onPointerDown={(e) => {
              e.currentTarget.setPointerCapture(e.pointerId);
              drag.current = { pointer: e.pointerId, index: i, startX: e.clientX, time: k.time };
              onPick(i);
            }}
            onPointerMove={(e) => {
              const dragging = drag.current;
              if (!dragging || dragging.pointer !== e.pointerId) return;
              onMove(
                dragging.index,
                dragging.time + (e.clientX - dragging.startX) / pps,
                `keyframe-drag-${dragging.pointer}-${dragging.startX}`,
              );
            }}
            onPointerUp={() => (drag.current = null)}
            onPointerCancel={() => (drag.current = null)}
          />
        </li>
      ))}
    </ol>
  );
};
