/**
 * Saving the document as a v2 template (POST /api/v2/templates): a name, and the `{{variables}}` written in the
 * config's strings, each with its type, whether rows must give it and its default. The service validates the
 * template with sample values standing in for the variables and answers each problem at its field.
 */
import { useState } from "preact/hooks";
import { api, data } from "../../shared/api.ts";
import type { Template, TemplateVariable } from "../../shared/api-types.ts";
import { Field, FormErrors, useForm } from "../../shared/forms.tsx";
import { VariableFields } from "../../shared/variable-fields.tsx";
import type { Doc } from "../model/store.ts";
import { variableSchema } from "../service-code.ts";

/**
 * The variables the config uses (placeholders and conditions), in order of first use, each as saving the template
 * derives it: a variable needed only by conditional layers, or named only by a condition, is optional.
 */
export const derivedVariables = (config: unknown): TemplateVariable[] => variableSchema(config).variables;

export const SaveTemplate = ({ doc, signedIn }: { doc: Doc; signedIn: boolean }) => {
  const [name, setName] = useState("");
  const [declared, setDeclared] = useState<Record<string, TemplateVariable>>({});
  const [saved, setSaved] = useState<Template | null>(null);
  const derived = derivedVariables(doc.config);
  const names = derived.map((v) => v.name);
  const variables = derived.map((v) => declared[v.name] ?? v);
  const change = (n: string, patch: Partial<TemplateVariable>) =>
    setDeclared({ ...declared, [n]: { ...variables.find((v) => v.name === n)!, ...patch } });
  const form = useForm(() => {
    setSaved(null);
    return data(
      api.POST("/api/v2/templates", { body: { name, type: doc.type, config: doc.config, variables } }),
    );
  }, setSaved);
  if (!signedIn)
    return (
      <p>
        <a href="/sign-in">Sign in</a> to save this config as a template.
      </p>
    );
  return (
    <form class="stack" onSubmit={form.onSubmit} noValidate aria-labelledby="template-title">
      <p class="hint">
        Write <code>{"{{name}}"}</code> in any text of the config (a layer's text, a colour, a file path) for
        a value each row of a batch fills in. A value that is only a placeholder takes the variable's type (a
        number stays a number). A layer's template condition (in its properties) shows it only for the rows
        that set a variable, or give it a value; its variables are optional.
      </p>
      <Field form={form} name="name" label="Template name">
        {(p) => <input {...p} type="text" value={name} onInput={(e) => setName(e.currentTarget.value)} />}
      </Field>
      {names.length === 0 ? (
        <p class="muted">No {"{{variables}}"} in the config yet.</p>
      ) : (
        <fieldset>
          <legend>Variables</legend>
          {variables.map((variable, i) => (
            <div
              class="inline-form variable"
              key={variable.name}
              role="group"
              aria-label={`Variable ${variable.name}`}
            >
              <code>{`{{${variable.name}}}`}</code>
              <VariableFields
                form={form}
                index={i}
                variable={variable}
                change={(patch) => change(variable.name, patch)}
              />
            </div>
          ))}
        </fieldset>
      )}
      <FormErrors form={form} fields={["name", "variables"]} />
      <div>
        <button type="submit" disabled={form.busy}>
          {form.busy ? "Saving…" : "Save as template"}
        </button>
      </div>
      {saved && (
        <p class="notice success" role="status">
          Saved template “{saved.name}” with {saved.variables.length} variable
          {saved.variables.length === 1 ? "" : "s"}.{" "}
          <a href={`/console/templates/${saved.id}`}>Open it in the console</a> to run a batch.
        </p>
      )}
    </form>
  );
};
