/**
 * The keyframes of the selected layer on the timeline (issue 45 §1): pick one of its animatable properties, add a
 * keyframe at the playhead (holding the value shown there), drag a keyframe along the lane or move it with the
 * arrow keys (a frame, Shift ten), delete it (the Delete key too), pick its easing and type its value. The value at
 * the playhead is the contract's `valueAt` (keyframes.ts), the one the rendered frame draws. The lane holds the
 * state (the property shown, the keyframe picked) and its head; its parts are the property picker
 * (keyframe-property-picker.tsx), the picked keyframe's fields (keyframe-editor.tsx) and the diamonds with their drag
 * and keys (keyframe-diamonds.tsx).
 */
import { useState } from "preact/hooks";
import { isObject, type JsonObject, type Path } from "../model/paths.ts";
import type { Action } from "../model/store.ts";
import { valueAt, type Keyframe, type Timeline } from "../service-code.ts";
import { KeyframeDiamonds } from "./keyframe-diamonds.tsx";
import { KeyframeEditor } from "./keyframe-editor.tsx";
import { KeyframePropertyPicker } from "./keyframe-property-picker.tsx";
import {
  addKeyframe,
  animatables,
  animatedOf,
  keyframesOf,
  layerStart,
  moveKeyframe,
  patchKeyframe,
  removeKeyframe,
} from "./keyframes.ts";

const round = (n: number) => Math.round(n * 1000) / 1000;

/** The selected layer's lane: its head (property, value at the playhead, add, the picked keyframe) and diamonds. */
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
        <KeyframePropertyPicker
          options={options}
          value={property.key}
          onChange={(key) => {
            setChosen(key);
            setPicked(null);
          }}
        />{" "}
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
        {frames && index !== null && (
          <KeyframeEditor
            keyframe={frames[index]!}
            onPatch={(patch) => set(patchKeyframe(frames, index, patch))}
            onDelete={() => remove(index)}
          />
        )}
      </div>
      <KeyframeDiamonds
        frames={frames ?? []}
        property={property.key}
        start={start}
        pps={pps}
        fps={layout.fps}
        picked={index}
        onPick={setPicked}
        onMove={move}
        onRemove={remove}
      />
    </>
  );
};

/** The layer object at `path` (a clip's or a global layer), or null. */
const getLayer = (config: JsonObject, path: Path): JsonObject | null => {
  let value: unknown = config;
  for (const key of path) value = isObject(value) || Array.isArray(value) ? (value as never)[key] : undefined;
  return isObject(value) ? value : null;
};
