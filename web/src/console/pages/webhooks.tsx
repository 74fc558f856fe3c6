/**
 * `/console/webhooks`: the account's v2 webhook endpoints and a form to add one (its signing secret is shown
 * once). Each endpoint's page has its deliveries, tests, edits and secret rotation.
 */
import { useState } from "preact/hooks";
import { api, data } from "../../shared/api.ts";
import type { EventType } from "../../shared/api-types.ts";
import { Field, FormErrors, GroupErrors, useForm } from "../../shared/forms.tsx";
import { formatDate } from "../../shared/format.ts";
import { PageHeader } from "../../shared/layout.tsx";
import { Notice, SecretOnce, Show, StatusBadge, TableWrap, useResource, useTitle } from "../../shared/ui.tsx";

export const EVENT_TYPES: EventType[] = [
  "render.started",
  "render.completed",
  "render.failed",
  "render.cancelled",
  "batch.completed",
];

/** The event-type checkboxes of the create and edit forms. */
export const EventTypeChecks = ({
  value,
  onChange,
  form,
}: {
  value: EventType[];
  onChange: (types: EventType[]) => void;
  form: Parameters<typeof GroupErrors>[0]["form"];
}) => (
  <fieldset>
    <legend>Events</legend>
    <div class="checks">
      {EVENT_TYPES.map((type) => (
        <label key={type}>
          <input
            type="checkbox"
            checked={value.includes(type)}
            onChange={(e) =>
              onChange(e.currentTarget.checked ? [...value, type] : value.filter((t) => t !== type))
            }
          />
          <code>{type}</code>
        </label>
      ))}
    </div>
    <GroupErrors form={form} name="eventTypes" />
  </fieldset>
);

const CreateEndpoint = ({ created }: { created: () => void }) => {
  const [name, setName] = useState("");
  const [url, setUrl] = useState("");
  const [types, setTypes] = useState<EventType[]>(["render.completed", "render.failed"]);
  const [secret, setSecret] = useState<{ name: string; secret: string; id: string } | null>(null);
  const form = useForm(
    () => data(api.POST("/api/v2/webhooks", { body: { name, url, eventTypes: types, active: true } })),
    (endpoint) => {
      setSecret({ name: endpoint.name, secret: endpoint.secret, id: endpoint.id });
      setName("");
      setUrl("");
      created();
    },
  );
  return (
    <section class="panel" aria-labelledby="new-endpoint-h">
      <h2 id="new-endpoint-h">New endpoint</h2>
      {secret && (
        <SecretOnce label={`Signing secret of "${secret.name}":`} secret={secret.secret}>
          <p>
            Verify each delivery's <code>webhook-signature</code> with it (Standard Webhooks).{" "}
            <a href={`/console/webhooks/${secret.id}`}>Open the endpoint</a> to send a test event.
          </p>
        </SecretOnce>
      )}
      <form class="stack" onSubmit={form.onSubmit} noValidate>
        <Field form={form} name="name" label="Name">
          {(p) => <input {...p} type="text" value={name} onInput={(e) => setName(e.currentTarget.value)} />}
        </Field>
        <Field form={form} name="url" label="URL" hint="https, on a public address.">
          {(control) => (
            <input
              {...control}
              type="url"
              placeholder="https://example.com/hooks/render"
              value={url}
              onInput={(e) => setUrl(e.currentTarget.value)}
            />
          )}
        </Field>
        <EventTypeChecks value={types} onChange={setTypes} form={form} />
        <FormErrors form={form} fields={["name", "url", "eventTypes"]} />
        <div>
          <button type="submit" disabled={form.busy}>
            {form.busy ? "Creating…" : "Create endpoint"}
          </button>
        </div>
      </form>
    </section>
  );
};

export const Webhooks = () => {
  useTitle("Webhooks");
  const endpoints = useResource(() => data(api.GET("/api/v2/webhooks")), []);
  return (
    <>
      <PageHeader title="Webhooks" />
      <p>
        Render events are posted to your endpoints, signed, and retried on a schedule until they are received.
      </p>
      <section class="panel" aria-labelledby="job-callbacks-h">
        <h2 id="job-callbacks-h">Job callbacks</h2>
        <p>
          A job can name its own <code>webhookUrl</code>: its render events go there, with its{" "}
          <code>metadata</code>, signed with your account's job-callback secret.{" "}
          <a href="/console/webhooks/job-callbacks">Secret and deliveries</a>
        </p>
      </section>
      <CreateEndpoint created={() => void endpoints.reload()} />
      <section aria-labelledby="endpoints-h">
        <h2 id="endpoints-h">Endpoints</h2>
        <Show resource={endpoints}>
          {(list) =>
            list.length === 0 ? (
              <Notice kind="info">No endpoints yet.</Notice>
            ) : (
              <TableWrap label="Webhook endpoints">
                <table>
                  <thead>
                    <tr>
                      <th>Name</th>
                      <th>URL</th>
                      <th>Events</th>
                      <th>State</th>
                      <th>Created</th>
                    </tr>
                  </thead>
                  <tbody>
                    {list.map((e) => (
                      <tr key={e.id}>
                        <td>
                          <a href={`/console/webhooks/${e.id}`}>{e.name}</a>
                        </td>
                        <td class="wrap">
                          <code>{e.url}</code>
                        </td>
                        <td class="wrap">{e.eventTypes.join(", ")}</td>
                        <td>
                          <StatusBadge status={e.active ? "active" : "disabled"} />
                          {e.disabledReason && <p class="hint">{e.disabledReason}</p>}
                        </td>
                        <td>{formatDate(e.createdAt)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableWrap>
            )
          }
        </Show>
      </section>
    </>
  );
};
