/**
 * `position` (config reference §1.2): not set (image layers then place by `x`/`y` pixels), one of the nine
 * names, or `{x, y, originX, originY}` with x and y as fractions of the canvas.
 */
import { isObject } from "../model/paths.ts";
import type { ControlProps } from "./controls.tsx";
import { NumberInput } from "./controls.tsx";

const NAMES = [
  "top-left",
  "top",
  "top-right",
  "center-left",
  "center",
  "center-right",
  "bottom-left",
  "bottom",
  "bottom-right",
] as const;
const CUSTOM = "\u0000custom";

type Custom = { x: number; y: number; originX?: string; originY?: string };

export const PositionInput = ({
  ids,
  value,
  onChange,
  label,
  unset = "x/y pixels",
}: ControlProps<string | Custom> & { label: string; unset?: string }) => {
  const custom = isObject(value) ? (value as unknown as Custom) : null;
  const set = (patch: Partial<Custom>) => onChange({ x: 0.5, y: 0.5, ...custom, ...patch });
  return (
    <div class="position">
      <select
        {...ids}
        value={custom ? CUSTOM : typeof value === "string" ? value : ""}
        onChange={(e) => {
          const selected = e.currentTarget.value;
          if (selected === "") onChange(undefined);
          else if (selected === CUSTOM) set({});
          else onChange(selected);
        }}
      >
        <option value="">not set ({unset})</option>
        {NAMES.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
        <option value={CUSTOM}>custom (fractions of the canvas)</option>
      </select>
      {custom && (
        <div class="position-custom" role="group" aria-label={`${label}: custom`}>
          {(["x", "y"] as const).map((axis) => (
            <label key={axis}>
              {axis}
              {Array.isArray(custom[axis]) ? (
                // Keyframed (a video layer's position, issue 45 §1): edited on the timeline's keyframe lane.
                <span id={`${ids.id}-${axis}`} class="keyframed">
                  keyframed, on the timeline
                </span>
              ) : (
                <NumberInput
                  ids={{ id: `${ids.id}-${axis}` }}
                  value={custom[axis]}
                  min={0}
                  max={1}
                  step={0.01}
                  onChange={(n) => set({ [axis]: n ?? 0 })}
                />
              )}
            </label>
          ))}
          <label>
            originX
            <select
              value={custom.originX ?? ""}
              onChange={(e) => set({ originX: e.currentTarget.value || undefined })}
            >
              <option value="">left (default)</option>
              <option>center</option>
              <option>right</option>
            </select>
          </label>
          <label>
            originY
            <select
              value={custom.originY ?? ""}
              onChange={(e) => set({ originY: e.currentTarget.value || undefined })}
            >
              <option value="">top (default)</option>
              <option>center</option>
              <option>bottom</option>
            </select>
          </label>
        </div>
      )}
    </div>
  );
};
