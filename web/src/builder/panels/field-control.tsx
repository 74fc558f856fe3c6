/**
 * The control of one property by its kind (schema/fields.ts `control`): the inputs of controls.tsx, the file and
 * position pickers, and lists of colours or strings. FieldRow (property-panel.tsx) gives it its label and messages;
 * an object's properties are a group of rows there, not a control.
 */
import type { ComponentChildren } from "preact";
import type { Files } from "../model/files.ts";
import type { FieldSpec } from "../schema/fields.ts";
import {
  BooleanInput,
  ColorInput,
  JsonInput,
  NumberInput,
  RangeInput,
  SelectInput,
  TextInput,
  type ControlIds,
} from "./controls.tsx";
import { FileInput } from "./file-input.tsx";
import { PositionInput } from "./position-input.tsx";

const ListInput = ({
  ids,
  value,
  onChange,
  max,
  min = 0,
  label,
  item,
  fresh,
}: {
  ids: ControlIds;
  value: unknown;
  onChange: (v: unknown[] | undefined) => void;
  max: number;
  min?: number;
  label: string;
  item: (ids: ControlIds, value: unknown, set: (v: unknown) => void, n: number) => ComponentChildren;
  fresh: unknown;
}) => {
  const list = Array.isArray(value) ? value : [];
  const set = (next: unknown[]) => onChange(next.length ? next : undefined);
  return (
    <div
      class="list-input"
      role="group"
      aria-labelledby={`${ids.id}-label`}
      aria-describedby={ids["aria-describedby"]}
    >
      {list.map((entry, index) => (
        <div class="list-item" key={index}>
          {item(
            { id: index === 0 ? ids.id : `${ids.id}-${index}` },
            entry,
            (x) => set(list.map((y, k) => (k === index ? x : y))),
            index,
          )}
          <button
            type="button"
            class="secondary small"
            aria-label={`Remove ${label} ${index + 1}`}
            disabled={list.length <= min}
            onClick={() => set(list.filter((_, k) => k !== index))}
          >
            ✕
          </button>
        </div>
      ))}
      <button
        type="button"
        class="secondary small"
        disabled={list.length >= max}
        onClick={() => set([...list, fresh])}
      >
        Add {label === "colors" ? "a colour" : "an item"}
      </button>
    </div>
  );
};

/** The input of a property of kind `control.kind` (any kind but "object"; an unknown kind is edited as JSON). */
export const FieldControl = ({
  control,
  ids,
  value,
  onChange: set,
  placeholder,
  label,
  files,
}: {
  control: FieldSpec["control"];
  ids: ControlIds;
  value: unknown;
  onChange: (v: unknown) => void;
  placeholder: string | undefined;
  label: string;
  files: Files;
}): ComponentChildren => {
  switch (control.kind) {
    case "select":
      return (
        <SelectInput
          ids={ids}
          value={value}
          onChange={set}
          options={control.options}
          nullable={control.nullable}
          placeholder={placeholder}
        />
      );
    case "color":
      return <ColorInput ids={ids} value={value} onChange={set} placeholder={placeholder} label={label} />;
    case "range":
      return (
        <RangeInput
          ids={ids}
          value={value}
          onChange={set}
          min={control.min}
          max={control.max}
          step={control.step}
          label={label}
          placeholder={placeholder}
        />
      );
    case "number":
      return (
        <NumberInput
          ids={ids}
          value={value}
          onChange={set}
          min={control.min}
          max={control.max}
          step={control.step}
          placeholder={placeholder}
        />
      );
    case "boolean":
      return <BooleanInput ids={ids} value={value} onChange={set} label={label} />;
    case "text":
      return (
        <TextInput
          ids={ids}
          value={value}
          onChange={set}
          multiline={control.multiline}
          maxLength={control.maxLength}
          suggestions={control.suggestions}
          placeholder={placeholder}
        />
      );
    case "file":
      return (
        <FileInput
          ids={ids}
          value={value}
          onChange={set}
          categories={control.categories}
          files={files}
          label={label}
        />
      );
    case "position":
      return <PositionInput ids={ids} value={value} onChange={set} label={label} />;
    case "colors":
      return (
        <ListInput
          ids={ids}
          value={value}
          onChange={set}
          max={control.max}
          min={control.min}
          label="colors"
          fresh="#ffffff"
          item={(itemIds, itemValue, setItem, index) => (
            <ColorInput
              ids={itemIds}
              value={itemValue}
              onChange={(c) => setItem(c ?? "#000000")}
              label={`${label} ${index + 1}`}
            />
          )}
        />
      );
    case "strings":
      return (
        <ListInput
          ids={ids}
          value={value}
          onChange={set}
          max={control.max}
          label={label}
          fresh=""
          item={(itemIds, itemValue, setItem, index) => (
            <input
              {...itemIds}
              type="text"
              aria-label={`${label} ${index + 1}`}
              value={typeof itemValue === "string" ? itemValue : ""}
              onInput={(e) => setItem(e.currentTarget.value)}
            />
          )}
        />
      );
    default:
      return <JsonInput ids={ids} value={value} onChange={set} />;
  }
};
