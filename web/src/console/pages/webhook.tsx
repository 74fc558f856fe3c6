/**
 * `/console/webhooks/:id`: one endpoint. Its delivery log (status, attempts, last response code; a delivery opens
 * to its attempts), a test event, replay of dead letters, editing (name, URL, events, active), secret rotation
 * (the new secret shown once; the old one keeps signing for the grace period) and deletion. The log refreshes
 * every 2 s while a delivery is pending.
 */
import { useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { api, ApiError, data } from "../../shared/api.ts";
import type { EventType, WebhookEndpoint } from "../../shared/api-types.ts";
import { Field, FormErrors, useForm } from "../../shared/forms.tsx";
import { formatDate } from "../../shared/format.ts";
import { PageHeader } from "../../shared/layout.tsx";
import {
  ConfirmButton,
  Notice,
  SecretOnce,
  Show,
  StatusBadge,
  useResource,
  useTitle,
} from "../../shared/ui.tsx";
import { Deliveries } from "./webhook-deliveries.tsx";
import { EVENT_TYPES, EventTypeChecks } from "./webhooks.tsx";

const EditEndpoint = ({ endpoint, saved }: { endpoint: WebhookEndpoint; saved: () => void }) => {
  const [name, setName] = useState(endpoint.name);
  const [url, setUrl] = useState(endpoint.url);
  const [types, setTypes] = useState<EventType[]>(endpoint.eventTypes);
  const [active, setActive] = useState(endpoint.active);
  const [done, setDone] = useState(false);
  const form = useForm(
    () =>
      data(
        api.PATCH("/api/v2/webhooks/{id}", {
          params: { path: { id: endpoint.id } },
          body: { name, url, eventTypes: types, active },
        }),
      ),
    () => {
      setDone(true);
      saved();
    },
  );
  return (
    <form class="stack" onSubmit={(e) => (setDone(false), form.onSubmit(e))} noValidate>
      <Field form={form} name="name" label="Name">
        {(p) => <input {...p} type="text" value={name} onInput={(e) => setName(e.currentTarget.value)} />}
      </Field>
      <Field form={form} name="url" label="URL">
        {(p) => <input {...p} type="url" value={url} onInput={(e) => setUrl(e.currentTarget.value)} />}
      </Field>
      <EventTypeChecks value={types} onChange={setTypes} form={form} />
      <label class="check">
        <input type="checkbox" checked={active} onChange={(e) => setActive(e.currentTarget.checked)} /> Active
        (send events to it)
      </label>
      <FormErrors form={form} fields={["name", "url", "eventTypes", "active"]} />
      {done && <Notice kind="success">Saved.</Notice>}
      <div>
        <button type="submit" disabled={form.busy}>
          {form.busy ? "Saving…" : "Save changes"}
        </button>
      </div>
    </form>
  );
};

export const Rotate = ({ id }: { id: string }) => {
  const [grace, setGrace] = useState("86400");
  const [rotated, setRotated] = useState<{ secret: string; until: string | null } | null>(null);
  const form = useForm(
    () =>
      data(
        api.POST("/api/v2/webhooks/{id}/rotate-secret", {
          params: { path: { id } },
          body: { graceSeconds: Number(grace) },
        }),
      ),
    (r) => setRotated({ secret: r.secret, until: r.previousSecretExpiresAt }),
  );
  return (
    <>
      {rotated && (
        <SecretOnce label="New signing secret:" secret={rotated.secret}>
          <p>
            {rotated.until
              ? `The previous secret also signs until ${formatDate(rotated.until)}.`
              : "The previous secret stopped signing now."}
          </p>
        </SecretOnce>
      )}
      <form class="inline-form" onSubmit={form.onSubmit} noValidate>
        <Field form={form} name="graceSeconds" label="Old secret keeps signing for">
          {(control) => (
            <select {...control} value={grace} onChange={(e) => setGrace(e.currentTarget.value)}>
              <option value="0">no time (stop now)</option>
              <option value="3600">1 hour</option>
              <option value="86400">24 hours</option>
              <option value="604800">7 days</option>
            </select>
          )}
        </Field>
        <button type="submit" disabled={form.busy}>
          {form.busy ? "Rotating…" : "Rotate secret"}
        </button>
        <FormErrors form={form} fields={["graceSeconds"]} />
      </form>
    </>
  );
};

const SendTest = ({ id, sent }: { id: string; sent: () => void }) => {
  const [type, setType] = useState("webhook.test");
  const [queued, setQueued] = useState<string | null>(null);
  const form = useForm(
    () =>
      data(
        api.POST("/api/v2/webhooks/{id}/test", {
          params: { path: { id } },
          body: { eventType: type as "webhook.test" },
        }),
      ),
    (delivery) => {
      setQueued(delivery.deliveryId);
      sent();
    },
  );
  return (
    <form class="inline-form" onSubmit={form.onSubmit} noValidate>
      <Field form={form} name="eventType" label="Event">
        {(control) => (
          <select {...control} value={type} onChange={(e) => setType(e.currentTarget.value)}>
            {["webhook.test", ...EVENT_TYPES].map((eventType) => (
              <option key={eventType} value={eventType}>
                {eventType}
              </option>
            ))}
          </select>
        )}
      </Field>
      <button type="submit" disabled={form.busy}>
        {form.busy ? "Sending…" : "Send test event"}
      </button>
      <FormErrors form={form} fields={["eventType"]} />
      {queued && (
        <p role="status">
          Queued as <code>{queued}</code>; it appears in the log below.
        </p>
      )}
    </form>
  );
};

/** One endpoint (GET /api/v2/webhooks/{id}), or null when it does not exist (or was deleted). */
const readEndpoint = (id: string) =>
  data(api.GET("/api/v2/webhooks/{id}", { params: { path: { id } } })).catch((e: unknown) => {
    if (e instanceof ApiError && e.status === 404) return null;
    throw e;
  });

export const WebhookPage = ({ id }: { id: string }) => {
  useTitle("Webhook endpoint");
  const { route } = useLocation();
  const [version, setVersion] = useState(0);
  const endpoints = useResource(() => readEndpoint(id), [id]);
  return (
    <>
      <p>
        <a href="/console/webhooks">All endpoints</a>
      </p>
      <Show resource={endpoints}>
        {(endpoint) => {
          if (!endpoint) return <Notice kind="error">This endpoint does not exist (or was deleted).</Notice>;
          return (
            <>
              <PageHeader title={endpoint.name}>
                <ConfirmButton
                  question="Delete this endpoint? Its pending deliveries stop."
                  onConfirm={async () => {
                    await data(api.DELETE("/api/v2/webhooks/{id}", { params: { path: { id } } }));
                    route("/console/webhooks");
                  }}
                >
                  Delete endpoint
                </ConfirmButton>
              </PageHeader>
              <p>
                <code>{endpoint.url}</code> · <StatusBadge status={endpoint.active ? "active" : "disabled"} />
              </p>
              {endpoint.disabledReason && <Notice kind="warning">{endpoint.disabledReason}</Notice>}
              <section class="panel" aria-labelledby="deliveries-h">
                <h2 id="deliveries-h">Deliveries</h2>
                <SendTest id={id} sent={() => setVersion((v) => v + 1)} />
                <Deliveries endpointId={id} version={version} />
              </section>
              <div class="two">
                <section class="panel" aria-labelledby="edit-h">
                  <h2 id="edit-h">Settings</h2>
                  <EditEndpoint key={endpoint.id} endpoint={endpoint} saved={() => void endpoints.reload()} />
                </section>
                <section class="panel" aria-labelledby="rotate-h">
                  <h2 id="rotate-h">Signing secret</h2>
                  <p>Rotate it if it may have leaked. Receivers accept either secret while both sign.</p>
                  <Rotate id={id} />
                </section>
              </div>
            </>
          );
        }}
      </Show>
    </>
  );
};
