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
      {(d) =>
        d.attemptLog.length === 0 ? (
          <p class="muted">
            No attempt yet{d.nextAttemptAt ? `; the next at ${formatDate(d.nextAttemptAt)}` : ""}.
          </p>
        ) : (
          <table>
            <caption class="muted">
              Event <code>{d.eventId}</code>
              {d.event?.jobId ? (
                <>
                  {" "}
                  of job <a href={`/console/jobs/${d.event.jobId}`}>{d.event.jobId}</a>
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
              {d.attemptLog.map((a) => (
                <tr key={a.attempt}>
                  <td>{a.attempt}</td>
                  <td>
                    <StatusBadge status={a.status} />
                  </td>
                  <td>{a.responseStatus ?? "none"}</td>
                  <td class="num">{a.durationMs} ms</td>
                  <td>{formatDate(a.attemptedAt)}</td>
                  <td class="wrap">
                    <code>{a.error ?? a.responseBody ?? ""}</code>
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
  delivery: d,
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
        <code>{d.eventType}</code>
        <p class="hint">{d.id}</p>
      </td>
      <td>
        <StatusBadge status={d.status} />
        {d.lastError && <p class="hint">{d.lastError}</p>}
      </td>
      <td class="num">{d.attempts}</td>
      <td>{d.responseStatus ?? "—"}</td>
      <td>{formatDate(d.createdAt)}</td>
      <td>
        <div class="row-actions">
          <button type="button" class="secondary small" aria-expanded={open} onClick={onToggle}>
            {open ? "Hide attempts" : "Attempts"}
          </button>
          {d.status === "dead_letter" && (
            <ConfirmButton
              class="secondary"
              question="Send it again?"
              onConfirm={async () => {
                await data(
                  api.POST("/api/v2/webhooks/{id}/deliveries/{deliveryId}/replay", {
                    params: { path: { id: endpointId, deliveryId: d.id } },
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
          <Attempts endpointId={endpointId} delivery={d} />
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
            {DELIVERY_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s.replace("_", " ")}
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
                  {list.map((d) => (
                    <DeliveryRow
                      key={d.id}
                      endpointId={endpointId}
                      delivery={d}
                      open={open === d.id}
                      onToggle={() => setOpen(open === d.id ? null : d.id)}
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
