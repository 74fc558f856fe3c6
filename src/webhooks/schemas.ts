/**
 * Request bodies, queries and answers of /api/v2/webhooks (valibot; field errors reach the client in the envelope).
 */
import * as v from "valibot";
import { DELIVERY_STATUSES } from "../db/schema.ts";
import { Timestamp } from "../lib/envelope.ts";
import { EVENT_TYPES, RENDER_EVENT_TYPES, TEST_EVENT_TYPE } from "./events.ts";
import { MAX_ROTATION_GRACE_SECONDS } from "./limits.ts";

const Name = v.pipe(
  v.string("name must be a string"),
  v.trim(),
  v.minLength(1, "name must not be empty"),
  v.maxLength(100, "name must be at most 100 characters"),
);
const Url = v.pipe(
  v.string("url must be a string"),
  v.trim(),
  v.minLength(1, "url must not be empty"),
  v.maxLength(2048, "url must be at most 2048 characters"),
);
const EventTypes = v.pipe(
  v.array(
    v.picklist(EVENT_TYPES, `each event type must be one of ${EVENT_TYPES.join(", ")}`),
    "eventTypes must be an array",
  ),
  v.minLength(1, "eventTypes must contain at least 1 event type"),
  v.transform((types) => [...new Set(types)]),
);
const Active = v.boolean("active must be a boolean");

export const CreateEndpointBody = v.strictObject({
  name: Name,
  url: Url,
  eventTypes: EventTypes,
  active: v.optional(Active, true),
});

export const UpdateEndpointBody = v.pipe(
  v.strictObject({
    name: v.optional(Name),
    url: v.optional(Url),
    eventTypes: v.optional(EventTypes),
    active: v.optional(Active),
  }),
  v.check((b) => Object.keys(b).length > 0, "give at least one of name, url, eventTypes, active"),
);

export const RotateSecretBody = v.strictObject({
  /** How long the previous secret keeps signing beside the new one (0 revokes it at once). */
  graceSeconds: v.optional(
    v.pipe(
      v.number("graceSeconds must be a number"),
      v.integer("graceSeconds must be an integer"),
      v.minValue(0, "graceSeconds must be at least 0"),
      v.maxValue(MAX_ROTATION_GRACE_SECONDS, `graceSeconds must be at most ${MAX_ROTATION_GRACE_SECONDS}`),
    ),
  ),
});

export const TestEventBody = v.strictObject({
  eventType: v.optional(
    v.picklist(
      [TEST_EVENT_TYPE, ...EVENT_TYPES],
      `eventType must be one of ${[TEST_EVENT_TYPE, ...EVENT_TYPES].join(", ")}`,
    ),
    TEST_EVENT_TYPE,
  ),
  /** Replaces the example `data` of the event. */
  data: v.optional(v.record(v.string(), v.unknown(), "data must be an object")),
});

export const DeliveriesQuery = v.strictObject({
  status: v.optional(v.picklist(DELIVERY_STATUSES, `status must be one of ${DELIVERY_STATUSES.join(", ")}`)),
  limit: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d+$/, "limit must be an integer from 1 to 100"),
      v.transform(Number),
      v.minValue(1, "limit must be an integer from 1 to 100"),
      v.maxValue(100, "limit must be an integer from 1 to 100"),
    ),
    "50",
  ),
});

const Int = v.pipe(v.number(), v.integer());

const endpointEntries = {
  id: v.string(),
  name: v.string(),
  url: v.string(),
  eventTypes: v.array(v.picklist(EVENT_TYPES)),
  active: v.boolean(),
  disabledReason: v.pipe(
    v.nullable(v.string()),
    v.description("Why the service disabled it (after failing for days); null otherwise"),
  ),
  createdAt: Timestamp,
  updatedAt: Timestamp,
};

/** An endpoint, never with its secret (answered once, by create and rotate-secret). */
export const WebhookEndpoint = v.object(endpointEntries);
export type WebhookEndpoint = v.InferOutput<typeof WebhookEndpoint>;

export const WebhookEndpointList = v.array(WebhookEndpoint);

/** A new endpoint with its signing secret, shown this once. */
export const WebhookEndpointCreated = v.object({
  ...endpointEntries,
  secret: v.pipe(v.string(), v.description("whsec_...: the Standard Webhooks signing secret")),
});
export type WebhookEndpointCreated = v.InferOutput<typeof WebhookEndpointCreated>;

export const RotatedSecret = v.object({
  id: v.string(),
  secret: v.pipe(v.string(), v.description("The new whsec_... secret, shown this once")),
  previousSecretExpiresAt: v.pipe(
    v.nullable(Timestamp),
    v.description("Until when the old secret still signs; null: it stopped now"),
  ),
});
export type RotatedSecret = v.InferOutput<typeof RotatedSecret>;

const deliveryEntries = {
  id: v.string(),
  endpointId: v.string(),
  eventId: v.pipe(v.string(), v.description("The `webhook-id` header of every attempt: deduplicate on it")),
  eventType: v.string(),
  status: v.picklist(DELIVERY_STATUSES),
  attempts: Int,
  responseStatus: v.nullable(Int),
  lastError: v.nullable(v.string()),
  nextAttemptAt: v.nullable(Timestamp),
  createdAt: Timestamp,
  deliveredAt: v.nullable(Timestamp),
};

/** A delivery without bodies (the listing shape). */
export const WebhookDelivery = v.object(deliveryEntries);
export type WebhookDelivery = v.InferOutput<typeof WebhookDelivery>;

export const WebhookDeliveryList = v.array(WebhookDelivery);
export type WebhookDeliveryList = v.InferOutput<typeof WebhookDeliveryList>;

export const WebhookAttempt = v.object({
  attempt: Int,
  status: v.picklist(["succeeded", "failed"]),
  responseStatus: v.nullable(Int),
  durationMs: Int,
  error: v.nullable(v.string()),
  responseBody: v.pipe(v.nullable(v.string()), v.description("The first bytes of the receiver's answer")),
  attemptedAt: Timestamp,
});
export type WebhookAttempt = v.InferOutput<typeof WebhookAttempt>;

export const WebhookDeliveryDetail = v.object({
  ...deliveryEntries,
  event: v.nullable(v.object({ id: v.string(), type: v.string(), jobId: v.nullable(v.string()) })),
  attemptLog: v.array(WebhookAttempt),
});
export type WebhookDeliveryDetail = v.InferOutput<typeof WebhookDeliveryDetail>;

export const QueuedTestEvent = v.object({
  deliveryId: v.string(),
  eventId: v.string(),
  eventType: v.string(),
});
export type QueuedTestEvent = v.InferOutput<typeof QueuedTestEvent>;

/** A replay: only a dead-lettered delivery starts again (`replayed: false` and its status otherwise). */
export const ReplayResult = v.object({ replayed: v.boolean(), status: v.picklist(DELIVERY_STATUSES) });
export type ReplayResult = v.InferOutput<typeof ReplayResult>;

/** The account's job-callback endpoint: where the events of jobs created with a `webhookUrl` come from. */
export const JobCallbacks = v.object({
  id: v.pipe(
    v.string(),
    v.description("The endpoint id of job callbacks: their log is GET /api/v2/webhooks/{id}/deliveries"),
  ),
  secret: v.pipe(
    v.string(),
    v.description("whsec_...: every job callback is signed with it (Standard Webhooks)"),
  ),
  previousSecretExpiresAt: v.pipe(
    v.nullable(Timestamp),
    v.description("After a rotation, until when the previous secret also signs; null otherwise"),
  ),
  eventTypes: v.pipe(
    v.array(v.picklist(RENDER_EVENT_TYPES)),
    v.description("What a job's webhookUrl receives: every render event of that job"),
  ),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type JobCallbacks = v.InferOutput<typeof JobCallbacks>;
