/** Which of the selected layer's animatable properties the keyframe lane shows (keyframe-lane.tsx). */
import type { Animatable } from "./keyframes.ts";

/** The property picker: one option per property the layer can animate. */
export const KeyframePropertyPicker = ({
  options,
  value,
  onChange,
}: {
  options: readonly Animatable[];
  /** The key of the property shown. */
  value: string;
  onChange: (key: string) => void;
}) => (
  <label>
    Keyframes of{" "}
    <select aria-label="Keyframes of" value={value} onChange={(e) => onChange(e.currentTarget.value)}>
      {options.map((option) => (
        <option key={option.key} value={option.key}>
          {option.key}
        </option>
      ))}
    </select>
  </label>
);
