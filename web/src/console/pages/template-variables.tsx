/**
 * The template editor's variables (template-editor.tsx): one row per declared variable (name, type, default,
 * required, remove), a button to add one, and one to add the config's placeholders not declared yet.
 */
import type { TemplateVariable } from "../../shared/api-types.ts";
import { Field, type FormState, GroupErrors } from "../../shared/forms.tsx";
import { VariableFields } from "../../shared/variable-fields.tsx";

/** The variables as edited; `placeholders` are the names the config's `{{name}}` placeholders use. */
export const TemplateVariables = ({
  form,
  variables,
  setVariables,
  placeholders,
}: {
  form: FormState;
  variables: TemplateVariable[];
  setVariables: (variables: TemplateVariable[]) => void;
  placeholders: string[];
}) => {
  const change = (i: number, patch: Partial<TemplateVariable>) =>
    setVariables(variables.map((v, j) => (j === i ? { ...v, ...patch } : v)));
  const missing = placeholders.filter((n) => !variables.some((v) => v.name === n));
  return (
    <fieldset>
      <legend>Variables</legend>
      {variables.length === 0 && <p class="hint">None declared.</p>}
      {variables.map((variable, i) => (
        <div class="inline-form variable" key={i} role="group" aria-label={`Variable ${i + 1}`}>
          <Field form={form} name={`variables[${i}].name`} label="Name">
            {(control) => (
              <input
                {...control}
                type="text"
                value={variable.name}
                onInput={(e) => change(i, { name: e.currentTarget.value })}
              />
            )}
          </Field>
          <VariableFields form={form} index={i} variable={variable} change={(patch) => change(i, patch)} />
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
  );
};
