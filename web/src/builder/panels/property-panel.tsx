/**
 * The properties of one object of the config (a layer, a clip, the config itself), one control per property of
 * its schema (schema/fields.ts), each with its description, the validator's errors and warnings at its field
 * (`aria-invalid`, `aria-describedby`), and its documented default as the placeholder of an unset value.
 */
import type { Files } from "../model/files.ts";
import { messagesAt, type Issues } from "../model/issues.ts";
import { fieldName, getIn, type Path } from "../model/paths.ts";
import type { Action } from "../model/store.ts";
import { fieldsOf, type FieldSpec, type Schema, type SchemaDoc } from "../schema/fields.ts";
import type { ControlIds } from "./controls.tsx";
import { FieldControl } from "./field-control.tsx";

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
  const label = spec.key;
  if (control.kind === "object")
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
  // A keyframed number (issue 45 §1) is edited on the timeline's keyframe lane; here it can go back to one number.
  const keyframed = Array.isArray(value) && (control.kind === "range" || control.kind === "number");
  const input = keyframed ? (
    <span id={id} class="keyframed">
      {(value as unknown[]).length} keyframes, edited on the timeline{" "}
      <button type="button" class="small" onClick={() => set((value as { value?: unknown }[])[0]?.value)}>
        Use one value
      </button>
    </span>
  ) : (
    <FieldControl
      control={control}
      ids={ids}
      value={value}
      onChange={set}
      placeholder={shown(spec.defaultValue)}
      label={label}
      files={ctx.files}
    />
  );
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
