/**
 * The keyframes of the selected layer on the timeline (issue 45 §1): pick one of its animatable properties, add a
 * keyframe at the playhead (holding the value shown there), drag a keyframe along the lane or move it with the
 * arrow keys (a frame, Shift ten), delete it (the Delete key too), pick its easing and type its value. The value at
 * the playhead is the contract's `valueAt` (keyframes.ts), the one the rendered frame draws.
 */
import { useRef, useState } from "preact/hooks";
import { isObject, type JsonObject, type Path } from "../model/paths.ts";
import type { Action } from "../model/store.ts";
import { valueAt, type Keyframe, type Timeline } from "../service-code.ts";
import {
  addKeyframe,
  animatables,
  animatedOf,
  EASINGS,
  keyframesOf,
  layerStart,
  moveKeyframe,
  patchKeyframe,
  removeKeyframe,
} from "./keyframes.ts";

const round = (n: number) => Math.round(n * 1000) / 1000;

export const KeyframeLane = ({
  config,
  layout,
  selection,
  playhead,
  pps,
  dispatch,
}: {
  config: JsonObject;
  layout: Timeline;
  selection: Path | null;
  playhead: number;
  /** Pixels per second of the timeline. */
  pps: number;
  dispatch: (action: Action) => void;
}) => {
  const [chosen, setChosen] = useState("opacity");
  const [picked, setPicked] = useState<number | null>(null);
  const drag = useRef<{ pointer: number; index: number; startX: number; time: number } | null>(null);
  const start = selection ? layerStart(config, layout, selection) : null;
  const layer = selection && start !== null ? getLayer(config, selection) : null;
  const options = layer ? animatables(layer) : [];
  if (!selection || !layer || start === null || options.length === 0) return null;
  const property = options.find((o) => o.key === chosen) ?? options[0]!;
  const frames = keyframesOf(layer, property);
  const current = animatedOf(layer, property);
  const at = [...selection, ...property.path];
  const set = (value: Keyframe[] | number, coalesce?: string) =>
    dispatch({ type: "set", path: at, value, ...(coalesce ? { coalesce } : {}) });
  const layerTime = playhead - start;
  const index = picked !== null && frames && picked < frames.length ? picked : null;
  const pick = frames && index !== null ? frames[index]! : null;
  const move = (i: number, t: number, coalesce: string) =>
    frames && set(moveKeyframe(frames, i, t, layout.fps), coalesce);
  const remove = (i: number) => {
    if (!frames) return;
    set(removeKeyframe(frames, i));
    setPicked(null);
  };
  return (
    <>
      <div class="lane-label keyframes-head">
        <label>
          Keyframes of{" "}
          <select
            aria-label="Keyframes of"
            value={property.key}
            onChange={(e) => {
              setChosen(e.currentTarget.value);
              setPicked(null);
            }}
          >
            {options.map((o) => (
              <option key={o.key} value={o.key}>
                {o.key}
              </option>
            ))}
          </select>
        </label>{" "}
        <output class="keyframe-value">
          {property.key} at {round(Math.max(0, layerTime))} s of the layer:{" "}
          {round(valueAt(current, Math.max(0, layerTime)))}
        </output>{" "}
        <button
          type="button"
          class="small"
          id="add-keyframe"
          disabled={layerTime < 0 || (frames?.length ?? 0) >= 100}
          onClick={() => {
            const next = addKeyframe(current, layerTime, layout.fps);
            set(next);
            setPicked(
              next.findIndex(
                (k) => Math.abs(k.time - Math.round(layerTime * layout.fps) / layout.fps) < 1e-3,
              ),
            );
          }}
        >
          Add keyframe at the playhead
        </button>
        {pick && index !== null && (
          <span class="keyframe-edit">
            {" "}
            <label>
              Easing{" "}
              <select
                aria-label="Easing"
                value={EASINGS.includes(pick.easing ?? "linear") ? (pick.easing ?? "linear") : ""}
                onChange={(e) =>
                  frames && set(patchKeyframe(frames, index, { easing: e.currentTarget.value }))
                }
              >
                {!EASINGS.includes(pick.easing ?? "linear") && <option value="">{pick.easing}</option>}
                {EASINGS.map((name) => (
                  <option key={name} value={name}>
                    {name}
                  </option>
                ))}
              </select>
            </label>{" "}
            <label>
              Value{" "}
              <input
                aria-label="Value"
                type="number"
                step="any"
                value={pick.value}
                onChange={(e) =>
                  frames &&
                  Number.isFinite(e.currentTarget.valueAsNumber) &&
                  set(patchKeyframe(frames, index, { value: e.currentTarget.valueAsNumber }))
                }
              />
            </label>{" "}
            <button type="button" class="small" onClick={() => remove(index)}>
              Delete keyframe
            </button>
          </span>
        )}
      </div>
      <ol class="row keyframes-row" aria-label={`Keyframes of ${property.key}`}>
        {(frames ?? []).map((k, i) => (
          <li key={i} class="keyframe" style={{ left: `${(start + k.time) * pps}px` }}>
            <button
              type="button"
              class={i === index ? "selected" : ""}
              aria-pressed={i === index}
              aria-label={`Keyframe ${i + 1} of ${property.key}: ${k.value} at ${k.time} s, ${k.easing ?? "linear"}. Arrow keys move it, Delete removes it.`}
              title={`${k.value} at ${k.time} s (${k.easing ?? "linear"})`}
              onClick={() => setPicked(i)}
              onKeyDown={(e) => {
                if (e.key === "Delete" || e.key === "Backspace") {
                  e.preventDefault();
                  remove(i);
                } else if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
                  e.preventDefault();
                  const step = ((e.shiftKey ? 10 : 1) / layout.fps) * (e.key === "ArrowLeft" ? -1 : 1);
                  move(i, k.time + step, `keyframe-keys-${property.key}-${i}`);
                }
              }}
              onPointerDown={(e) => {
                e.currentTarget.setPointerCapture(e.pointerId);
                drag.current = { pointer: e.pointerId, index: i, startX: e.clientX, time: k.time };
                setPicked(i);
              }}
              onPointerMove={(e) => {
                const dragging = drag.current;
                if (!dragging || dragging.pointer !== e.pointerId) return;
                move(
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
    </>
  );
};

/** The layer object at `path` (a clip's or a global layer), or null. */
const getLayer = (config: JsonObject, path: Path): JsonObject | null => {
  let value: unknown = config;
  for (const key of path) value = isObject(value) || Array.isArray(value) ? (value as never)[key] : undefined;
  return isObject(value) ? value : null;
};
