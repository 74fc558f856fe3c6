/**
 * `/console/keys`: API keys. Create one with v1 permissions (per resource: none, read, full), v2 scopes and an
 * optional expiry; its secret is shown once with a copy button. The list shows each key's last use; delete revokes.
 */
import { useState } from "preact/hooks";
import { api, data } from "../../shared/api.ts";
import type { ApiKey, Scope } from "../../shared/api-types.ts";
import { Field, FormErrors, GroupErrors, useForm } from "../../shared/forms.tsx";
import { formatDate, fromNow } from "../../shared/format.ts";
import { PageHeader } from "../../shared/layout.tsx";
import { ConfirmButton, SecretOnce, Show, TableWrap, useResource, useTitle } from "../../shared/ui.tsx";

const SCOPES: [Scope, string][] = [
  ["renders:create", "create renders, manage render webhooks"],
  ["renders:read", "read renders and outputs"],
  ["operations:read", "read webhook deliveries, batch status"],
  ["operations:cancel", "cancel batches, replay dead letters"],
  ["templates:read", "read templates"],
  ["templates:write", "create, change, delete templates"],
  ["templates:bulk", "submit batches, download their ZIPs"],
];
const RESOURCES = [
  ["jobs", "Jobs"],
  ["media", "Files (media)"],
] as const;
type Level = "none" | "read" | "full";

const CreateKey = ({ created }: { created: () => void }) => {
  const [name, setName] = useState("");
  const [levels, setLevels] = useState<Record<string, Level>>({ jobs: "full", media: "full" });
  const [scopes, setScopes] = useState<Scope[]>([]);
  const [expires, setExpires] = useState("");
  const [secret, setSecret] = useState<{ key: string; name: string } | null>(null);
  const form = useForm(
    () =>
      data(
        api.POST("/api/v1/api-keys", {
          body: {
            name,
            permissions: RESOURCES.filter(([r]) => levels[r] !== "none").map(([resource]) => ({
              resource,
              action: levels[resource] as "read" | "full",
            })),
            scopes,
            // The end of the chosen day in the browser's time zone.
            expiresAt: expires ? new Date(`${expires}T23:59:59`).toISOString() : null,
          },
        }),
      ),
    (answer) => {
      setSecret({ key: answer.key, name: answer.apiKey.name });
      setName("");
      created();
    },
  );
  return (
    <section class="panel" aria-labelledby="new-key-h">
      <h2 id="new-key-h">New API key</h2>
      {secret && <SecretOnce label={`The key "${secret.name}":`} secret={secret.key} />}
      <form class="stack" onSubmit={form.onSubmit} noValidate>
        <Field form={form} name="name" label="Name" hint="3 to 100 characters, e.g. the app that uses it.">
          {(p) => <input {...p} type="text" value={name} onInput={(e) => setName(e.currentTarget.value)} />}
        </Field>
        <fieldset>
          <legend>Permissions (v1)</legend>
          {RESOURCES.map(([resource, label]) => (
            <div class="checks" role="radiogroup" aria-label={label} key={resource}>
              <span class="muted">{label}:</span>
              {(["none", "read", "full"] as const).map((level) => (
                <label key={level}>
                  <input
                    type="radio"
                    name={`perm-${resource}`}
                    checked={levels[resource] === level}
                    onChange={() => setLevels({ ...levels, [resource]: level })}
                  />
                  {level === "none" ? "none" : level === "read" ? "read (GET)" : "full"}
                </label>
              ))}
            </div>
          ))}
          <GroupErrors form={form} name="permissions" />
        </fieldset>
        <fieldset>
          <legend>Scopes (v2)</legend>
          <p class="hint">
            Jobs permissions already imply the render, operation and template scopes; add others here.
          </p>
          <div class="checks">
            {SCOPES.map(([scope, what]) => (
              <label key={scope} title={what}>
                <input
                  type="checkbox"
                  checked={scopes.includes(scope)}
                  onChange={(e) =>
                    setScopes(
                      e.currentTarget.checked ? [...scopes, scope] : scopes.filter((s) => s !== scope),
                    )
                  }
                />
                <code>{scope}</code>
              </label>
            ))}
          </div>
          <GroupErrors form={form} name="scopes" />
        </fieldset>
        <Field form={form} name="expiresAt" label="Expires (optional)" hint="Empty: never expires.">
          {(control) => (
            <input
              {...control}
              type="date"
              min={new Date().toISOString().slice(0, 10)}
              value={expires}
              onInput={(e) => setExpires(e.currentTarget.value)}
            />
          )}
        </Field>
        <FormErrors form={form} fields={["name", "permissions", "scopes", "expiresAt"]} />
        <div>
          <button type="submit" disabled={form.busy}>
            {form.busy ? "Creating…" : "Create key"}
          </button>
        </div>
      </form>
    </section>
  );
};

const permissionText = (key: ApiKey) =>
  key.permissions.map((p) => `${p.resource}:${p.action}`).join(", ") || "none";

export const Keys = () => {
  useTitle("API keys");
  const keys = useResource(() => data(api.GET("/api/v1/api-keys")), []);
  return (
    <>
      <PageHeader title="API keys" />
      <p>
        Programs call the API with a key in the <code>x-api-key</code> header. Only its owner, signed in here,
        can create, list and delete keys.
      </p>
      <CreateKey created={() => void keys.reload()} />
      <section aria-labelledby="keys-h">
        <h2 id="keys-h">Your keys</h2>
        <Show resource={keys}>
          {({ apiKeys }) =>
            apiKeys.length === 0 ? (
              <p>No keys yet.</p>
            ) : (
              <TableWrap label="API keys">
                <table class="cards">
                  <thead>
                    <tr>
                      <th>Name</th>
                      <th>Key</th>
                      <th>Permissions</th>
                      <th>Scopes</th>
                      <th>Last used</th>
                      <th>Expires</th>
                      <th>Created</th>
                      <th>
                        <span class="muted">Actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {apiKeys.map((key) => (
                      <tr key={key.id}>
                        <td data-label="Name">{key.name}</td>
                        <td data-label="Key">
                          <code>{key.prefix}…</code>
                        </td>
                        <td data-label="Permissions">{permissionText(key)}</td>
                        <td data-label="Scopes" class="wrap">
                          {key.scopes.length ? key.scopes.join(", ") : "—"}
                        </td>
                        <td data-label="Last used" title={formatDate(key.lastUsedAt)}>
                          {key.lastUsedAt ? fromNow(key.lastUsedAt) : "never"}
                        </td>
                        <td data-label="Expires">{key.expiresAt ? formatDate(key.expiresAt) : "never"}</td>
                        <td data-label="Created">{formatDate(key.createdAt)}</td>
                        <td data-label="Actions">
                          <ConfirmButton
                            question={`Delete "${key.name}"? Programs using it stop at once.`}
                            onConfirm={async () => {
                              await data(
                                api.DELETE("/api/v1/api-keys/{id}", { params: { path: { id: key.id } } }),
                              );
                              await keys.reload();
                            }}
                          >
                            Delete
                          </ConfirmButton>
                        </td>
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
