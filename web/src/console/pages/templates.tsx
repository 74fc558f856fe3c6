/** `/console/templates`: the account's templates, and a new one (a config with {{variables}}). */
import { useLocation } from "preact-iso";
import { api, data } from "../../shared/api.ts";
import { formatDate } from "../../shared/format.ts";
import { PageHeader } from "../../shared/layout.tsx";
import { Notice, Show, TableWrap, useResource, useTitle } from "../../shared/ui.tsx";
import { TemplateEditor } from "./template-editor.tsx";

const STARTER = {
  name: "Greeting card",
  type: "image" as const,
  config: {
    width: 800,
    height: 420,
    backgroundColor: "{{background}}",
    layers: [
      {
        type: "text",
        text: "Hello, {{name}}!",
        x: 400,
        y: 170,
        fontSize: 64,
        color: "#ffffff",
        align: "center",
      },
    ],
  },
  variables: [
    { name: "name", type: "string" as const, required: true },
    { name: "background", type: "colour" as const, required: false, default: "#1d4ed8" },
  ],
};

export const Templates = () => {
  useTitle("Templates");
  const { route } = useLocation();
  const templates = useResource(() => data(api.GET("/api/v2/templates")), []);
  return (
    <>
      <PageHeader title="Templates" />
      <p>
        A template is a job config with variables. Fill it from a CSV, one job per row, and download every
        output as one ZIP.
      </p>
      <section aria-labelledby="list-h">
        <h2 id="list-h">Your templates</h2>
        <Show resource={templates}>
          {({ templates: list }) =>
            list.length === 0 ? (
              <Notice kind="info">No templates yet: start from the one below.</Notice>
            ) : (
              <TableWrap label="Templates">
                <table>
                  <thead>
                    <tr>
                      <th>Name</th>
                      <th>Type</th>
                      <th>Variables</th>
                      <th>Updated</th>
                    </tr>
                  </thead>
                  <tbody>
                    {list.map((template) => (
                      <tr key={template.id}>
                        <td>
                          <a href={`/console/templates/${template.id}`}>{template.name}</a>
                        </td>
                        <td>{template.type}</td>
                        <td class="wrap">{template.variables.map((v) => v.name).join(", ") || "—"}</td>
                        <td>{formatDate(template.updatedAt)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableWrap>
            )
          }
        </Show>
      </section>
      <section class="panel" aria-labelledby="new-h">
        <h2 id="new-h">New template</h2>
        <TemplateEditor
          initial={STARTER}
          submitLabel="Create template"
          save={async (draft) => {
            const template = await data(api.POST("/api/v2/templates", { body: draft }));
            route(`/console/templates/${template.id}`);
            return template;
          }}
        />
      </section>
    </>
  );
};
