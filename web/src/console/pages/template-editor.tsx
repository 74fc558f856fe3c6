/**
 * The template form of the create and edit pages: name, type, the config with `{{variable}}` placeholders (JSON)
 * and the declared variables (type, required, default). Placeholders found in the config can be added as
 * variables in one click; the service derives undeclared ones anyway (string, required).
 */
import { useState } from "preact/hooks";
import { ApiError } from "../../shared/api.ts";
import type { Template, TemplateVariable } from "../../shared/api-types.ts";
import { Field, FormErrors, useForm } from "../../shared/forms.tsx";
import { TemplateVariables } from "./template-variables.tsx";

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
  return (
    <form class="stack" onSubmit={form.onSubmit} noValidate>
      <div class="inline-form">
        <Field form={form} name="name" label="Name" class="grow">
          {(p) => <input {...p} type="text" value={name} onInput={(e) => setName(e.currentTarget.value)} />}
        </Field>
        <Field form={form} name="type" label="Type">
          {(control) => (
            <select
              {...control}
              value={type}
              onChange={(e) => setType(e.currentTarget.value as "image" | "video")}
            >
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
        {(control) => (
          <textarea
            {...control}
            class="code"
            spellcheck={false}
            value={configText}
            onInput={(e) => setConfigText(e.currentTarget.value)}
          />
        )}
      </Field>
      <TemplateVariables
        form={form}
        variables={variables}
        setVariables={setVariables}
        placeholders={placeholdersOf(configText)}
      />
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
