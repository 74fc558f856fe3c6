/**
 * `/console/templates/:id`: edit a template, and run a batch: a CSV (a header row naming the variables, one row
 * per job) uploaded or pasted, validated row by row by the service before anything is charged. The per-row report
 * comes back either way: refused rows with their errors, or the batch to follow.
 */
import { useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { api, ApiError, data } from "../../shared/api.ts";
import type { BatchCreated, FieldError, Template } from "../../shared/api-types.ts";
import { Field, FormErrors, useForm } from "../../shared/forms.tsx";
import { PageHeader } from "../../shared/layout.tsx";
import { ConfirmButton, Notice, Show, TableWrap, useResource, useTitle } from "../../shared/ui.tsx";
import { TemplateEditor } from "./template-editor.tsx";

/** Rows and their errors, from a 201's `rejected` or a 400's `details.errors` (each with its `row`). */
const RowReport = ({ rows, title }: { rows: { row: number; errors: FieldError[] }[]; title: string }) => (
  <div>
    <h3>{title}</h3>
    <TableWrap label={title}>
      <table>
        <thead>
          <tr>
            <th class="num">Row</th>
            <th>Field</th>
            <th>Problem</th>
          </tr>
        </thead>
        <tbody>
          {rows.flatMap(({ row, errors }) =>
            errors.map((e, i) => (
              <tr key={`${row}-${i}`}>
                <td class="num">{row}</td>
                <td>
                  <code>{e.field ?? ""}</code>
                </td>
                <td>{e.message}</td>
              </tr>
            )),
          )}
        </tbody>
      </table>
    </TableWrap>
  </div>
);

const byRow = (errors: FieldError[]) => {
  const rows = new Map<number, FieldError[]>();
  for (const error of errors)
    if (error.row !== undefined) rows.set(error.row, [...(rows.get(error.row) ?? []), error]);
  return [...rows].sort(([a], [b]) => a - b).map(([row, errs]) => ({ row, errors: errs }));
};

const CSV_EXAMPLE = (template: Template) =>
  `${template.variables.map((v) => v.name).join(",")}\n${template.variables.map((v) => (v.type === "number" ? "1" : v.type === "colour" ? "#0f766e" : `${v.name} 1`)).join(",")}\n`;

const RunBatch = ({ template }: { template: Template }) => {
  const [csv, setCsv] = useState("");
  const [mode, setMode] = useState<"all-or-nothing" | "valid-only">("all-or-nothing");
  const [nameColumn, setNameColumn] = useState("");
  const [created, setCreated] = useState<BatchCreated | null>(null);
  const form = useForm(() => {
    setCreated(null);
    return data(
      api.POST("/api/v2/templates/{id}/batches", {
        params: { path: { id: template.id }, query: { mode, ...(nameColumn ? { nameColumn } : {}) } },
        body: csv,
        headers: { "content-type": "text/csv" },
        bodySerializer: (body: unknown) => String(body),
      }),
    );
  }, setCreated);
  const refused = form.error instanceof ApiError ? byRow(form.error.errors) : [];
  return (
    <form class="stack" onSubmit={form.onSubmit} noValidate>
      <div class="field">
        <label for="csv-file">CSV file</label>
        <input
          id="csv-file"
          type="file"
          accept=".csv,text/csv"
          onChange={async (e) => {
            const file = e.currentTarget.files?.[0];
            if (file) setCsv(await file.text());
          }}
        />
        <p class="hint">
          Or paste the rows below. The header row names the variables:{" "}
          {template.variables.map((v) => v.name).join(", ") || "none"}.
        </p>
      </div>
      <Field form={form} name="body" label="Rows (CSV)">
        {(control) => (
          <textarea
            {...control}
            class="code short"
            rows={8}
            spellcheck={false}
            placeholder={CSV_EXAMPLE(template)}
            value={csv}
            onInput={(e) => setCsv(e.currentTarget.value)}
          />
        )}
      </Field>
      <div class="inline-form">
        <Field form={form} name="mode" label="If a row is invalid">
          {(control) => (
            <select {...control} value={mode} onChange={(e) => setMode(e.currentTarget.value as typeof mode)}>
              <option value="all-or-nothing">refuse the whole batch</option>
              <option value="valid-only">run the valid rows only</option>
            </select>
          )}
        </Field>
        <Field form={form} name="nameColumn" label="Name outputs by column (optional)">
          {(control) => (
            <input
              {...control}
              type="text"
              value={nameColumn}
              onInput={(e) => setNameColumn(e.currentTarget.value)}
            />
          )}
        </Field>
      </div>
      <FormErrors
        form={form}
        fields={["body", "mode", "nameColumn"]}
        shownElsewhere={(e) => e.row !== undefined}
      />
      {refused.length > 0 && <RowReport rows={refused} title="Rows refused (nothing was charged)" />}
      {created && (
        <Notice kind="success">
          <p>
            Batch <code>{created.batchId}</code>: {created.accepted} of {created.totalRows} rows accepted,{" "}
            {created.estimatedTokens} tokens reserved.{" "}
            <a href={`/console/batches/${created.batchId}`}>Follow the batch</a>
          </p>
        </Notice>
      )}
      {created && created.rejected.length > 0 && <RowReport rows={created.rejected} title="Rows left out" />}
      <div>
        <button type="submit" disabled={form.busy || !csv.trim()}>
          {form.busy ? "Validating…" : "Validate and run"}
        </button>
      </div>
    </form>
  );
};

export const TemplatePage = ({ id }: { id: string }) => {
  useTitle("Template");
  const { route } = useLocation();
  const template = useResource(
    () => data(api.GET("/api/v2/templates/{id}", { params: { path: { id } } })),
    [id],
  );
  return (
    <>
      <p>
        <a href="/console/templates">All templates</a>
      </p>
      <Show resource={template} what="Loading the template">
        {(loaded) => (
          <>
            <PageHeader title={loaded.name}>
              <ConfirmButton
                question="Delete this template? Batches already run keep their jobs."
                onConfirm={async () => {
                  await data(api.DELETE("/api/v2/templates/{id}", { params: { path: { id } } }));
                  route("/console/templates");
                }}
              >
                Delete template
              </ConfirmButton>
            </PageHeader>
            <section class="panel" aria-labelledby="batch-h">
              <h2 id="batch-h">Run a batch</h2>
              <RunBatch template={loaded} />
            </section>
            <section class="panel" aria-labelledby="edit-h">
              <h2 id="edit-h">Edit</h2>
              <TemplateEditor
                key={loaded.updatedAt}
                initial={loaded}
                submitLabel="Save template"
                save={(draft) =>
                  data(api.PUT("/api/v2/templates/{id}", { params: { path: { id } }, body: draft }))
                }
              />
            </section>
          </>
        )}
      </Show>
    </>
  );
};
