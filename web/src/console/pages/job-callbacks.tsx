/**
 * `/console/webhooks/job-callbacks`: where the render events of jobs created with a `webhookUrl` come from. The
 * account's job-callback secret (GET /api/v2/webhooks/job-callbacks: receivers verify every callback with it), its
 * rotation, and the delivery log of every job callback (the same log, retries and replays as an endpoint's).
 */
import { useState } from "preact/hooks";
import { api, data } from "../../shared/api.ts";
import { formatDate } from "../../shared/format.ts";
import { PageHeader } from "../../shared/layout.tsx";
import { CopyButton, Show, useResource, useTitle } from "../../shared/ui.tsx";
import { Rotate } from "./webhook.tsx";
import { Deliveries } from "./webhook-deliveries.tsx";

/** The secret, shown on request (it stays readable: unlike an endpoint's, it was never shown at creation). */
export const CallbackSecret = ({ secret }: { secret: string }) => {
  const [shown, setShown] = useState(false);
  return (
    <div class="secret">
      {shown ? (
        <input
          type="text"
          readOnly
          value={secret}
          aria-label="Job-callback signing secret"
          onFocus={(e) => e.currentTarget.select()}
        />
      ) : (
        <input type="password" readOnly value={secret} aria-label="Job-callback signing secret (hidden)" />
      )}
      <button type="button" class="secondary small" onClick={() => setShown(!shown)}>
        {shown ? "Hide" : "Show"}
      </button>
      <CopyButton text={secret} />
    </div>
  );
};

export const JobCallbacksPage = () => {
  useTitle("Job callbacks");
  const [version, setVersion] = useState(0);
  const callbacks = useResource(() => data(api.GET("/api/v2/webhooks/job-callbacks")), [version]);
  return (
    <>
      <p>
        <a href="/console/webhooks">All endpoints</a>
      </p>
      <PageHeader title="Job callbacks" />
      <p>
        A job created with <code>webhookUrl</code> (<code>POST /api/v1/jobs</code>, a template render) has its
        render events posted to that URL, with its <code>metadata</code>, signed with this secret (Standard
        Webhooks) and retried like every delivery.
      </p>
      <Show resource={callbacks}>
        {(endpoint) => (
          <>
            <section class="panel" aria-labelledby="callback-secret-h">
              <h2 id="callback-secret-h">Signing secret</h2>
              <CallbackSecret secret={endpoint.secret} />
              {endpoint.previousSecretExpiresAt && (
                <p class="hint">
                  The previous secret also signs until {formatDate(endpoint.previousSecretExpiresAt)}.
                </p>
              )}
              <Rotate id={endpoint.id} />
            </section>
            <section class="panel" aria-labelledby="callback-deliveries-h">
              <h2 id="callback-deliveries-h">Deliveries</h2>
              <button type="button" class="secondary" onClick={() => setVersion((v) => v + 1)}>
                Reload
              </button>
              <Deliveries endpointId={endpoint.id} version={version} />
            </section>
          </>
        )}
      </Show>
    </>
  );
};
