/** The picked keyframe's own fields on the keyframe lane (keyframe-lane.tsx): its easing, its value, its removal. */
import type { Keyframe } from "../service-code.ts";
import { EASINGS } from "./keyframes.ts";

/**
 * The easing (an easing outside the list, a `cubic-bezier()` typed in the JSON view, is shown as it is), the value
 * (only a finite number is written) and the button that deletes the keyframe.
 */
export const KeyframeEditor = ({
  keyframe,
  onPatch,
  onDelete,
}: {
  keyframe: Keyframe;
  onPatch: (patch: { easing?: string; value?: number }) => void;
  onDelete: () => void;
}) => {
  const easing = keyframe.easing ?? "linear";
  return (
    <span class="keyframe-edit">
      {" "}
      <label>
        Easing{" "}
        <select
          aria-label="Easing"
          value={EASINGS.includes(easing) ? easing : ""}
          onChange={(e) => onPatch({ easing: e.currentTarget.value })}
        >
          {!EASINGS.includes(easing) && <option value="">{keyframe.easing}</option>}
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
          value={keyframe.value}
          onChange={(e) =>
            Number.isFinite(e.currentTarget.valueAsNumber) &&
            onPatch({ value: e.currentTarget.valueAsNumber })
          }
        />
      </label>{" "}
      <button type="button" class="small" onClick={onDelete}>
        Delete keyframe
      </button>
    </span>
  );
};
