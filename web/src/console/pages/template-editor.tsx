/**
 * The template form of the create and edit pages: name, type, the config with `{{variable}}` placeholders (JSON)
 * and the declared variables (type, required, default). Placeholders found in the config can be added as
 * variables in one click; the service derives undeclared ones anyway (string, required).
 */
import { useState } from "preact/hooks";
import { ApiError } from "../../shared/api.ts";
import type { Template, TemplateVariable } from "../../shared/api-types.ts";
import { Field, FormErrors, GroupErrors, useForm } from "../../shared/forms.tsx";
import { VariableFields } from "../../shared/variable-fields.tsx";

export interface TemplateDraft {
  name: string;
  type: "image" | "video";
  config: Record<string, unknown>;
  variables: TemplateVariable[];
}

const PLACEHOLDER = /\{\{\s*([A-Za-z_]\w{0,63})\s*\}\}/g;

const placeholdersOf = (text: string) => [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1]!))];

export const TemplateEditor = ({
  initial,
  submitLabel,
  save,
}: {
  initial: Pick<Template, "name" | "type" | "config" | "variables">;
  submitLabel: string;
  save: (draft: TemplateDraft) => Promise<Template>;
}) => {
  const [name, setName] = useState(initial.name);
  const [type, setType] = useState(initial.type);
  const [configText, setConfigText] = useState(JSON.stringify(initial.config, null, 2));
  const [variables, setVariables] = useState<TemplateVariable[]>(initial.variables);
  const [saved, setSaved] = useState(false);
  const form = useForm(
    () => {
      let config: unknown;
      try {
        config = JSON.parse(configText);
      } catch (e) {
        throw new ApiError(400, "The config is not valid JSON", [
          { field: "config", message: (e as Error).message, code: "INVALID_JSON" },
        ]);
      }
      setSaved(false);
      return save({ name, type, config: config as Record<string, unknown>, variables });
    },
    (template) => {
      setVariables(template.variables);
      setSaved(true);
    },
  );
  const change = (i: number, patch: Partial<TemplateVariable>) =>
    setVariables(variables.map((v, j) => (j === i ? { ...v, ...patch } : v)));
  const missing = placeholdersOf(configText).filter((n) => !variables.some((v) => v.name === n));
  return (
    <form class="stack" onSubmit={form.onSubmit} noValidate>
      <div class="inline-form">
        <Field form={form} name="name" label="Name" class="grow">
          {(p) => <input {...p} type="text" value={name} onInput={(e) => setName(e.currentTarget.value)} />}
        </Field>
        <Field form={form} name="type" label="Type">
          {(p) => (
            <select {...p} value={type} onChange={(e) => setType(e.currentTarget.value as "image" | "video")}>
              <option value="image">image</option>
              <option value="video">video</option>
            </select>
          )}
        </Field>
      </div>
      <Field
        form={form}
        name="config"
        label="Config (JSON)"
        hint="A job config; write {{name}} in any string for a value each row fills in."
      >
        {(p) => (
          <textarea
            {...p}
            class="code"
            spellcheck={false}
            value={configText}
            onInput={(e) => setConfigText(e.currentTarget.value)}
          />
        )}
      </Field>
      <fieldset>
        <legend>Variables</legend>
        {variables.length === 0 && <p class="hint">None declared.</p>}
        {variables.map((v, i) => (
          <div class="inline-form variable" key={i} role="group" aria-label={`Variable ${i + 1}`}>
            <Field form={form} name={`variables[${i}].name`} label="Name">
              {(p) => (
                <input
                  {...p}
                  type="text"
                  value={v.name}
                  onInput={(e) => change(i, { name: e.currentTarget.value })}
                />
              )}
            </Field>
            <VariableFields form={form} index={i} variable={v} change={(patch) => change(i, patch)} />
            <button
              type="button"
              class="danger small"
              onClick={() => setVariables(variables.filter((_, j) => j !== i))}
            >
              Remove
            </button>
          </div>
        ))}
        <div class="row-actions">
          <button
            type="button"
            class="secondary small"
            onClick={() => setVariables([...variables, { name: "", type: "string", required: true }])}
          >
            Add a variable
          </button>
          {missing.length > 0 && (
            <button
              type="button"
              class="secondary small"
              onClick={() =>
                setVariables([
                  ...variables,
                  ...missing.map((name) => ({ name, type: "string" as const, required: true })),
                ])
              }
            >
              Add {missing.join(", ")} from the config
            </button>
          )}
        </div>
        <GroupErrors form={form} name="variables" />
      </fieldset>
      <FormErrors form={form} fields={["name", "type", "config", "variables"]} />
      {saved && (
        <p role="status">
          <span class="badge s-completed">Saved</span>
        </p>
      )}
      <div>
        <button type="submit" disabled={form.busy}>
          {form.busy ? "Saving…" : submitLabel}
        </button>
      </div>
    </form>
  );
};
