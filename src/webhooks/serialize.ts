/** The v2 webhook records as the API answers them (spec: Render webhook endpoint, Webhook delivery). */
import type { webhookAttempts, webhookDeliveries, webhookEndpoints } from "../db/schema.ts";
import { iso } from "../lib/time.ts";
import type { WebhookAttempt, WebhookDelivery, WebhookEndpoint } from "./schemas.ts";

type EndpointRow = typeof webhookEndpoints.$inferSelect;
type DeliveryRow = typeof webhookDeliveries.$inferSelect;
type AttemptRow = typeof webhookAttempts.$inferSelect;

/** Never the secret: it is answered once, by create and rotate-secret. */
export const toEndpoint = (row: EndpointRow): WebhookEndpoint => ({
  id: row.id,
  name: row.name,
  url: row.url,
  // Stored only after CreateEndpointBody or UpdateEndpointBody accepted them.
  eventTypes: row.eventTypes as WebhookEndpoint["eventTypes"],
  active: row.active,
  /** Why the service disabled it (after failing for days), or null. */
  disabledReason: row.disabledReason,
  createdAt: iso(row.createdAt)!,
  updatedAt: iso(row.updatedAt)!,
});

/** A delivery without bodies (the listing shape). */
export const toDelivery = (row: DeliveryRow): WebhookDelivery => ({
  id: row.id,
  endpointId: row.endpointId,
  /** The `webhook-id` header of every attempt: receivers deduplicate on it. */
  eventId: row.eventId,
  eventType: row.eventType,
  status: row.status,
  attempts: row.attempts,
  responseStatus: row.responseStatus,
  lastError: row.lastError,
  nextAttemptAt: iso(row.nextAttemptAt),
  createdAt: iso(row.createdAt)!,
  deliveredAt: iso(row.deliveredAt),
});

export const toAttempt = (row: AttemptRow): WebhookAttempt => ({
  attempt: row.attempt,
  status: row.status,
  responseStatus: row.responseStatus,
  durationMs: row.durationMs,
  error: row.error,
  responseBody: row.responseBody,
  attemptedAt: iso(row.createdAt)!,
});
