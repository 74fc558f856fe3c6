/**
 * An endpoint's delivery log (webhook.tsx, and a job's callbacks: job-callbacks.tsx): each delivery's status,
 * attempts and last response; a delivery opens to its attempts, and a dead letter can be sent again.
 */
import { useEffect, useState } from "preact/hooks";
import { api, data } from "../../shared/api.ts";
import type { WebhookDelivery } from "../../shared/api-types.ts";
import { formatDate } from "../../shared/format.ts";
import { ConfirmButton, Notice, Show, StatusBadge, TableWrap, useResource } from "../../shared/ui.tsx";

const DELIVERY_STATUSES = ["pending", "delivered", "dead_letter"] as const;
type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

const Attempts = ({ endpointId, delivery }: { endpointId: string; delivery: WebhookDelivery }) => {
  const detail = useResource(
    () =>
      data(
        api.GET("/api/v2/webhooks/{id}/deliveries/{deliveryId}", {
          params: { path: { id: endpointId, deliveryId: delivery.id } },
        }),
      ),
    [endpointId, delivery.id, delivery.attempts, delivery.status],
  );
  return (
    <Show resource={detail} what="Loading the attempts">
      {(delivery) =>
        delivery.attemptLog.length === 0 ? (
          <p class="muted">
            No attempt yet
            {delivery.nextAttemptAt ? `; the next at ${formatDate(delivery.nextAttemptAt)}` : ""}.
          </p>
        ) : (
          <table>
            <caption class="muted">
              Event <code>{delivery.eventId}</code>
              {delivery.event?.jobId ? (
                <>
                  {" "}
                  of job <a href={`/console/jobs/${delivery.event.jobId}`}>{delivery.event.jobId}</a>
                </>
              ) : null}
            </caption>
            <thead>
              <tr>
                <th>Attempt</th>
                <th>Result</th>
                <th>Response</th>
                <th class="num">Time</th>
                <th>When</th>
                <th>Error or answer</th>
              </tr>
            </thead>
            <tbody>
              {delivery.attemptLog.map((entry) => (
                <tr key={entry.attempt}>
                  <td>{entry.attempt}</td>
                  <td>
                    <StatusBadge status={entry.status} />
                  </td>
                  <td>{entry.responseStatus ?? "none"}</td>
                  <td class="num">{entry.durationMs} ms</td>
                  <td>{formatDate(entry.attemptedAt)}</td>
                  <td class="wrap">
                    <code>{entry.error ?? entry.responseBody ?? ""}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )
      }
    </Show>
  );
};

/** One delivery: its event, status (and last error), attempts, last response, its attempts when opened, replay. */
const DeliveryRow = ({
  endpointId,
  delivery,
  open,
  onToggle,
  onReplayed,
}: {
  endpointId: string;
  delivery: WebhookDelivery;
  open: boolean;
  onToggle: () => void;
  onReplayed: () => Promise<unknown>;
}) => (
  <>
    <tr>
      <td>
        <code>{delivery.eventType}</code>
        <p class="hint">{delivery.id}</p>
      </td>
      <td>
        <StatusBadge status={delivery.status} />
        {delivery.lastError && <p class="hint">{delivery.lastError}</p>}
      </td>
      <td class="num">{delivery.attempts}</td>
      <td>{delivery.responseStatus ?? "—"}</td>
      <td>{formatDate(delivery.createdAt)}</td>
      <td>
        <div class="row-actions">
          <button type="button" class="secondary small" aria-expanded={open} onClick={onToggle}>
            {open ? "Hide attempts" : "Attempts"}
          </button>
          {delivery.status === "dead_letter" && (
            <ConfirmButton
              class="secondary"
              question="Send it again?"
              onConfirm={async () => {
                await data(
                  api.POST("/api/v2/webhooks/{id}/deliveries/{deliveryId}/replay", {
                    params: { path: { id: endpointId, deliveryId: delivery.id } },
                  }),
                );
                await onReplayed();
              }}
            >
              Replay
            </ConfirmButton>
          )}
        </div>
      </td>
    </tr>
    {open && (
      <tr>
        <td colSpan={6}>
          <Attempts endpointId={endpointId} delivery={delivery} />
        </td>
      </tr>
    )}
  </>
);

/** An endpoint's delivery log, filtered by status; it refreshes every 2 s while a delivery is pending. */
export const Deliveries = ({ endpointId, version }: { endpointId: string; version: number }) => {
  const [status, setStatus] = useState<DeliveryStatus | "">("");
  const [open, setOpen] = useState<string | null>(null);
  const deliveries = useResource(
    () =>
      data(
        api.GET("/api/v2/webhooks/{id}/deliveries", {
          params: {
            path: { id: endpointId },
            query: { limit: "50", ...(status ? { status } : {}) },
          },
        }),
      ),
    [endpointId, status, version],
  );
  const pending = deliveries.state.data?.some((d) => d.status === "pending") ?? false;
  useEffect(() => {
    if (!pending) return;
    const timer = setInterval(() => void deliveries.reload(), 2000);
    return () => clearInterval(timer);
  }, [pending]);
  return (
    <>
      <div class="filters">
        <div class="field">
          <label for="delivery-status">Status</label>
          <select
            id="delivery-status"
            value={status}
            onChange={(e) => {
              const value = e.currentTarget.value;
              setStatus(DELIVERY_STATUSES.find((s) => s === value) ?? "");
            }}
          >
            <option value="">Any</option>
            {DELIVERY_STATUSES.map((option) => (
              <option key={option} value={option}>
                {option.replace("_", " ")}
              </option>
            ))}
          </select>
        </div>
        <button type="button" class="secondary" onClick={() => void deliveries.reload()}>
          Refresh
        </button>
      </div>
      <Show resource={deliveries} what="Loading deliveries">
        {(list) =>
          list.length === 0 ? (
            <Notice kind="info">
              No deliveries{status ? ` with status ${status.replace("_", " ")}` : " yet"}.
            </Notice>
          ) : (
            <TableWrap label="Delivery log">
              <table>
                <thead>
                  <tr>
                    <th>Event</th>
                    <th>Status</th>
                    <th class="num">Attempts</th>
                    <th>Last response</th>
                    <th>Created</th>
                    <th>
                      <span class="muted">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {list.map((delivery) => (
                    <DeliveryRow
                      key={delivery.id}
                      endpointId={endpointId}
                      delivery={delivery}
                      open={open === delivery.id}
                      onToggle={() => setOpen(open === delivery.id ? null : delivery.id)}
                      onReplayed={() => deliveries.reload()}
                    />
                  ))}
                </tbody>
              </table>
            </TableWrap>
          )
        }
      </Show>
    </>
  );
};
