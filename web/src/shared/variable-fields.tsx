/**
 * The fields of one template variable that both the console's template editor and the builder's "Save as template"
 * show: its type, its default (a number when the type is number and the text reads as one) and whether it is
 * required. Errors of `variables[i].type` and `variables[i].default` show at their field.
 */
import type { TemplateVariable } from "./api-types.ts";
import { Field, type FormState } from "./forms.tsx";

const VARIABLE_TYPES = ["string", "number", "colour", "file"] as const;

/** The default a user typed: none when empty, a number for a number variable when it reads as one, else the text. */
const typedDefault = (type: TemplateVariable["type"], text: string): TemplateVariable["default"] =>
  text === ""
    ? undefined
    : type === "number" && text.trim() !== "" && !Number.isNaN(Number(text))
      ? Number(text)
      : text;

export const VariableFields = ({
  form,
  index,
  variable: v,
  change,
}: {
  form: FormState;
  index: number;
  variable: TemplateVariable;
  change: (patch: Partial<TemplateVariable>) => void;
}) => (
  <>
    <Field form={form} name={`variables[${index}].type`} label="Type">
      {(control) => (
        <select
          {...control}
          value={v.type}
          onChange={(e) => change({ type: e.currentTarget.value as TemplateVariable["type"] })}
        >
          {VARIABLE_TYPES.map((t) => (
            <option key={t}>{t}</option>
          ))}
        </select>
      )}
    </Field>
    <Field form={form} name={`variables[${index}].default`} label="Default">
      {(control) => (
        <input
          {...control}
          type="text"
          value={v.default === undefined ? "" : String(v.default)}
          onInput={(e) => change({ default: typedDefault(v.type, e.currentTarget.value) })}
        />
      )}
    </Field>
    <label class="check">
      <input
        type="checkbox"
        checked={v.required}
        onChange={(e) => change({ required: e.currentTarget.checked })}
      />{" "}
      required
    </label>
  </>
);
