/**
 * The properties of one object of the config (a layer, a clip, the config itself), one control per property of
 * its schema (schema/fields.ts), each with its description, the validator's errors and warnings at its field
 * (`aria-invalid`, `aria-describedby`), and its documented default as the placeholder of an unset value.
 */
import type { ComponentChildren } from "preact";
import type { Files } from "../model/files.ts";
import { messagesAt, type Issues } from "../model/issues.ts";
import { fieldName, getIn, type Path } from "../model/paths.ts";
import type { Action } from "../model/store.ts";
import { fieldsOf, type FieldSpec, type Schema, type SchemaDoc } from "../schema/fields.ts";
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

export interface PanelContext {
  config: unknown;
  schemas: SchemaDoc;
  issues: Issues;
  files: Files;
  dispatch: (action: Action) => void;
}

/** The id of the control editing `path` (the JSON view and the error lists link to it). */
export const controlId = (path: Path) => `p-${fieldName(path).replace(/[^\w-]/g, "-")}`;

const shown = (v: unknown) => (v === undefined ? undefined : typeof v === "string" ? v : JSON.stringify(v));

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
      {list.map((v, n) => (
        <div class="list-item" key={n}>
          {item(
            { id: n === 0 ? ids.id : `${ids.id}-${n}` },
            v,
            (x) => set(list.map((y, k) => (k === n ? x : y))),
            n,
          )}
          <button
            type="button"
            class="secondary small"
            aria-label={`Remove ${label} ${n + 1}`}
            disabled={list.length <= min}
            onClick={() => set(list.filter((_, k) => k !== n))}
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

/** One property: its label, control, description and problems. */
export const FieldRow = ({ ctx, path, spec }: { ctx: PanelContext; path: Path; spec: FieldSpec }) => {
  const here = [...path, spec.key];
  const name = fieldName(here);
  const id = controlId(here);
  const value = getIn(ctx.config, here);
  const { control } = spec;
  const group = control.kind === "object";
  const errors = messagesAt(ctx.issues.errors, name, group);
  const warnings = messagesAt(ctx.issues.warnings, name, group);
  const described = [
    spec.description ? `${id}-hint` : "",
    errors.length ? `${id}-error` : "",
    warnings.length ? `${id}-warning` : "",
  ]
    .filter(Boolean)
    .join(" ");
  const ids: ControlIds = {
    id,
    ...(errors.length ? { "aria-invalid": true as const } : {}),
    ...(described ? { "aria-describedby": described } : {}),
  };
  const set = (v: unknown) => ctx.dispatch({ type: "set", path: here, value: v, coalesce: name });
  const placeholder = shown(spec.defaultValue);
  const label = spec.key;
  let input: ComponentChildren;
  // A keyframed number (issue 45 §1) is edited on the timeline's keyframe lane; here it can go back to one number.
  const keyframed = Array.isArray(value) && (control.kind === "range" || control.kind === "number");
  if (keyframed)
    input = (
      <span id={id} class="keyframed">
        {(value as unknown[]).length} keyframes, edited on the timeline{" "}
        <button type="button" class="small" onClick={() => set((value as { value?: unknown }[])[0]?.value)}>
          Use one value
        </button>
      </span>
    );
  else
    switch (control.kind) {
      case "select":
        input = (
          <SelectInput
            ids={ids}
            value={value}
            onChange={set}
            options={control.options}
            nullable={control.nullable}
            placeholder={placeholder}
          />
        );
        break;
      case "color":
        input = <ColorInput ids={ids} value={value} onChange={set} placeholder={placeholder} label={label} />;
        break;
      case "range":
        input = (
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
        break;
      case "number":
        input = (
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
        break;
      case "boolean":
        input = <BooleanInput ids={ids} value={value} onChange={set} label={label} />;
        break;
      case "text":
        input = (
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
        break;
      case "file":
        input = (
          <FileInput
            ids={ids}
            value={value}
            onChange={set}
            categories={control.categories}
            files={ctx.files}
            label={label}
          />
        );
        break;
      case "position":
        input = <PositionInput ids={ids} value={value} onChange={set} label={label} />;
        break;
      case "colors":
        input = (
          <ListInput
            ids={ids}
            value={value}
            onChange={set}
            max={control.max}
            min={control.min}
            label="colors"
            fresh="#ffffff"
            item={(itemIds, v, setItem, n) => (
              <ColorInput
                ids={itemIds}
                value={v}
                onChange={(c) => setItem(c ?? "#000000")}
                label={`${label} ${n + 1}`}
              />
            )}
          />
        );
        break;
      case "strings":
        input = (
          <ListInput
            ids={ids}
            value={value}
            onChange={set}
            max={control.max}
            label={label}
            fresh=""
            item={(itemIds, v, setItem, n) => (
              <input
                {...itemIds}
                type="text"
                aria-label={`${label} ${n + 1}`}
                value={typeof v === "string" ? v : ""}
                onInput={(e) => setItem(e.currentTarget.value)}
              />
            )}
          />
        );
        break;
      case "object":
        return (
          <fieldset class="field-group">
            <legend>{label}</legend>
            {control.nullable && (
              <label class="check">
                <input
                  type="checkbox"
                  checked={value !== null && value !== undefined}
                  onChange={(e) => set(e.currentTarget.checked ? {} : undefined)}
                />{" "}
                set
              </label>
            )}
            {spec.description && <p class="hint">{spec.description}</p>}
            {errors.length > 0 && <p class="field-error">{errors.join("; ")}</p>}
            {(value !== undefined || !control.nullable) && (
              <Fields ctx={ctx} path={here} schema={control.schema} />
            )}
          </fieldset>
        );
      default:
        input = <JsonInput ids={ids} value={value} onChange={set} />;
    }
  return (
    <div class={`field${errors.length ? " invalid" : ""}`}>
      {control.kind !== "boolean" && (
        <label for={id} id={`${id}-label`}>
          {label}
          {spec.required && <span class="muted"> (required)</span>}
        </label>
      )}
      {input}
      {spec.description && (
        <p class="hint" id={`${id}-hint`}>
          {spec.description}
        </p>
      )}
      {errors.length > 0 && (
        <p class="field-error" id={`${id}-error`}>
          {errors.join("; ")}
        </p>
      )}
      {warnings.length > 0 && (
        <p class="field-warning" id={`${id}-warning`}>
          {warnings.join("; ")}
        </p>
      )}
    </div>
  );
};

/** Every property of the object at `path` (schema `schema`), but those in `skip`. */
export const Fields = ({
  ctx,
  path,
  schema,
  skip = [],
}: {
  ctx: PanelContext;
  path: Path;
  schema: Schema;
  skip?: readonly string[];
}) => (
  <>
    {fieldsOf(ctx.schemas, schema, skip).map((spec) => (
      <FieldRow key={spec.key} ctx={ctx} path={path} spec={spec} />
    ))}
  </>
);
