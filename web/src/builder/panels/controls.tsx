/**
 * The controls of the property panels, one per kind of schema field (schema/fields.ts). Each takes the field's
 * current value (undefined when unset: the service's default applies, shown as the placeholder) and reports a
 * new one; clearing a control removes the property. `ids` ties the control to its label, hint and errors.
 */
import type { TargetedEvent } from "preact";
import { useEffect, useState } from "preact/hooks";
import { CATALOG_FAMILIES } from "../service-code.ts";

export interface ControlIds {
  id: string;
  "aria-invalid"?: true;
  "aria-describedby"?: string;
}

export interface ControlProps<T> {
  ids: ControlIds;
  value: unknown;
  onChange: (value: T | undefined) => void;
  placeholder?: string;
}

const num = (text: string): number | undefined => {
  if (text.trim() === "") return undefined;
  const parsed = Number(text);
  return Number.isFinite(parsed) ? parsed : undefined;
};

/**
 * A number typed as text: the field keeps what is typed ("1.", "-") while it is not a number yet, and reports
 * numbers only.
 */
export const NumberInput = ({
  ids,
  value,
  onChange,
  placeholder,
  min,
  max,
  step,
}: ControlProps<number> & { min?: number; max?: number; step: number }) => {
  const shown = typeof value === "number" ? String(value) : "";
  const [text, setText] = useState(shown);
  useEffect(() => {
    if (num(text) !== (typeof value === "number" ? value : undefined)) setText(shown);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [value]);
  return (
    <input
      {...ids}
      type="number"
      inputMode="decimal"
      value={text}
      min={min}
      max={max}
      step={step}
      placeholder={placeholder}
      onInput={(e) => {
        const typed = e.currentTarget.value;
        setText(typed);
        if (typed.trim() === "" || num(typed) !== undefined) onChange(num(typed));
      }}
    />
  );
};

/** A slider with the number beside it (the number is the labelled control; the slider drags it). */
export const RangeInput = (
  props: ControlProps<number> & { min: number; max: number; step: number; label: string },
) => {
  const { value, onChange, min, max, step, label, placeholder } = props;
  const fallback = num(placeholder ?? "") ?? min;
  return (
    <div class="range">
      <input
        type="range"
        aria-label={`${label} slider`}
        min={min}
        max={max}
        step={step}
        value={typeof value === "number" ? value : fallback}
        onInput={(e) => onChange(Number(e.currentTarget.value))}
      />
      <NumberInput {...props} />
    </div>
  );
};

export const SelectInput = ({
  ids,
  value,
  onChange,
  options,
  nullable,
  placeholder,
}: ControlProps<string | null> & { options: string[]; nullable: boolean }) => (
  <select
    {...ids}
    value={value === null ? "\u0000null" : typeof value === "string" ? value : ""}
    onChange={(e) => {
      const selected = e.currentTarget.value;
      onChange(selected === "" ? undefined : selected === "\u0000null" ? null : selected);
    }}
  >
    <option value="">{placeholder ? `default (${placeholder})` : "not set"}</option>
    {nullable && <option value={"\u0000null"}>none (null)</option>}
    {options.map((option) => (
      <option key={option} value={option}>
        {option}
      </option>
    ))}
    {typeof value === "string" && !options.includes(value) && <option value={value}>{value}</option>}
  </select>
);

export const BooleanInput = ({ ids, value, onChange, label }: ControlProps<boolean> & { label: string }) => (
  <label class="check" for={ids.id}>
    <input
      {...ids}
      type="checkbox"
      checked={value === true}
      onChange={(e) => onChange(e.currentTarget.checked ? true : undefined)}
    />{" "}
    {label}
  </label>
);

const FONT_LIST_ID = "catalog-fonts";
/** The bundled catalogue, `Family` and `Family:weight`, for the font fields' suggestions (rendered once). */
export const FontSuggestions = () => (
  <datalist id={FONT_LIST_ID}>
    {CATALOG_FAMILIES.flatMap((f) => [f.family, ...f.weights.map((w) => `${f.family}:${w}`)]).map((name) => (
      <option key={name} value={name} />
    ))}
  </datalist>
);

export const TextInput = ({
  ids,
  value,
  onChange,
  multiline,
  maxLength,
  suggestions,
  placeholder,
}: ControlProps<string> & { multiline: boolean; maxLength?: number; suggestions?: "fonts" }) => {
  const common = {
    ...ids,
    value: typeof value === "string" ? value : "",
    maxLength,
    placeholder,
    spellcheck: false,
    onInput: (e: TargetedEvent<HTMLInputElement | HTMLTextAreaElement>) =>
      onChange(e.currentTarget.value === "" ? undefined : e.currentTarget.value),
  };
  return multiline ? (
    <textarea {...common} rows={3} />
  ) : (
    <input {...common} type="text" list={suggestions === "fonts" ? FONT_LIST_ID : undefined} />
  );
};

const HEX = /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
/** The #rrggbb a colour picker can show for `value` (#rgb expanded, alpha dropped), or black. */
const pickerValue = (value: unknown): string => {
  if (typeof value !== "string" || !HEX.test(value)) return "#000000";
  const hex = value.slice(1);
  const full = hex.length <= 4 ? [...hex].map((c) => c + c).join("") : hex;
  return `#${full.slice(0, 6).toLowerCase()}`;
};
/** `picked` with the alpha of `previous` kept (#rrggbbaa, #rgba). */
const withAlpha = (picked: string, previous: unknown) => {
  if (typeof previous !== "string" || !HEX.test(previous)) return picked;
  const hex = previous.slice(1);
  if (hex.length === 8) return picked + hex.slice(6);
  if (hex.length === 4) return picked + hex[3]! + hex[3]!;
  return picked;
};

/** A colour: the picker, and the text (any CSS colour the grammar accepts: names, rgba(), #rrggbbaa). */
export const ColorInput = ({
  ids,
  value,
  onChange,
  placeholder,
  label,
}: ControlProps<string> & { label: string }) => (
  <div class="color">
    <input
      type="color"
      aria-label={`${label} colour picker`}
      value={pickerValue(value ?? placeholder)}
      onInput={(e) => onChange(withAlpha(e.currentTarget.value, value))}
    />
    <input
      {...ids}
      type="text"
      spellcheck={false}
      value={typeof value === "string" ? value : ""}
      placeholder={placeholder ?? "#rrggbb"}
      onInput={(e) => onChange(e.currentTarget.value === "" ? undefined : e.currentTarget.value)}
    />
  </div>
);

/**
 * Any value as JSON, for the shapes no control is made for. Text that is not JSON yet stays in the box (with its
 * problem) and changes nothing.
 */
export const JsonInput = ({ ids, value, onChange }: ControlProps<unknown>) => {
  const shown = value === undefined ? "" : JSON.stringify(value, null, 1);
  const [text, setText] = useState(shown);
  const [problem, setProblem] = useState("");
  useEffect(() => {
    try {
      if (JSON.stringify(text.trim() ? JSON.parse(text) : undefined) === JSON.stringify(value)) return;
    } catch {
      // typed text that is not JSON yet: replaced by the new value below
    }
    setText(shown);
    setProblem("");
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [value]);
  return (
    <>
      <textarea
        {...ids}
        class="code short"
        spellcheck={false}
        value={text}
        onInput={(e) => {
          const typed = e.currentTarget.value;
          setText(typed);
          try {
            onChange(typed.trim() ? JSON.parse(typed) : undefined);
            setProblem("");
          } catch (error) {
            setProblem((error as Error).message);
          }
        }}
      />
      {problem && <p class="field-error">Not JSON yet: {problem}</p>}
    </>
  );
};
