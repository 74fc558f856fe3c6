/**
 * POST /api/v2/webhooks/{id}/test: queues a signed event to this endpoint only, through the same object,
 * schedule and log as real events (`webhook.test` by default, or an example render event to exercise a handler).
 */
import type * as v from "valibot";
import type { CallerCtx } from "../context.ts";
import { InvalidState, ValidationFailed } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";
import { handOver } from "./announce.ts";
import {
  BATCH_COMPLETED,
  DELIVERY_EVENT_TYPES,
  eventBody,
  TEST_EVENT_TYPE,
  type NewDelivery,
} from "./events.ts";
import { getOwnedEndpoint } from "./lookup.ts";
import { MAX_PAYLOAD_BYTES } from "./limits.ts";
import type { QueuedTestEvent, TestEventBody } from "./schemas.ts";

/** Room kept for the signed download link the object may add to the data. */
const LINK_ROOM = 1024;

const example = (type: string, at: number): Record<string, unknown> => {
  if (type === TEST_EVENT_TYPE) return { message: "A test event from the media render service", test: true };
  if (type === BATCH_COMPLETED)
    return {
      batchId: "bat_example",
      templateId: "tpl_example",
      status: "COMPLETED",
      totalRows: 100,
      rejectedRows: 2,
      completed: 97,
      failed: 1,
      cancelled: 0,
      createdAt: at - 120_000,
      endedAt: at,
      test: true,
    };
  if ((DELIVERY_EVENT_TYPES as readonly string[]).includes(type)) {
    const failed = type === "render.delivery_failed";
    return {
      jobId: "job_example",
      jobType: "VIDEO",
      status: "COMPLETED",
      outputFileId: "example_output_file",
      outputFormat: "mp4",
      completedAt: at - 30_000,
      destinations: [
        {
          connectionId: "stc_example",
          bucket: "my-renders",
          key: "renders/job_example.mp4",
          status: failed ? "failed" : "delivered",
          attempts: failed ? 5 : 1,
          error: failed ? "PUT renders/job_example.mp4: 403 AccessDenied: Access Denied" : null,
          files: failed
            ? []
            : [
                {
                  name: "output",
                  key: "renders/job_example.mp4",
                  contentType: "video/mp4",
                  size: 1048576,
                  etag: "9b2cf535f27731c974343645a3985328",
                },
              ],
          deliveredAt: failed ? null : new Date(at).toISOString(),
        },
      ],
      test: true,
    };
  }
  const status = {
    "render.started": "PROCESSING",
    "render.completed": "COMPLETED",
    "render.failed": "FAILED",
  }[type];
  const finished = type !== "render.started";
  return {
    jobId: "job_example",
    jobType: "VIDEO",
    status: status ?? "CANCELLED",
    outputFileId: type === "render.completed" ? "example_output_file" : null,
    outputFormat: "mp4",
    tokensUsed: type === "render.completed" ? 14 : 0,
    errorMessage: type === "render.failed" ? "An example error" : null,
    createdAt: at - 60_000,
    startedAt: at - 30_000,
    completedAt: finished ? at : null,
    metadata: { example: "the metadata the job was created with" },
    test: true,
  };
};

export const sendTestEvent = async (
  ctx: CallerCtx,
  input: { endpointId: string } & v.InferOutput<typeof TestEventBody>,
): Promise<QueuedTestEvent> => {
  const endpoint = await getOwnedEndpoint(ctx, input.endpointId);
  if (!endpoint.active)
    throw new InvalidState("The endpoint is disabled: enable it (PATCH active: true) first");
  const at = ctx.now();
  const data = input.data ?? example(input.eventType, at);
  const size = new TextEncoder().encode(
    eventBody({ id: "msg_x", type: input.eventType, data, createdAt: at }),
  ).byteLength;
  if (size > MAX_PAYLOAD_BYTES - LINK_ROOM)
    throw new ValidationFailed(
      [
        {
          field: "data",
          message: `The event body would be ${size} bytes; the limit is ${MAX_PAYLOAD_BYTES - LINK_ROOM}`,
          code: "PAYLOAD_TOO_LARGE",
        },
      ],
      "Event payload too large",
    );
  const eventId = newId("msg");
  const deliveryId = newId("whd");
  await ctx.d1.batch([
    ctx.d1
      .prepare(
        "INSERT INTO webhook_events (id, user_id, job_id, type, data, created_at) VALUES (?1, ?2, NULL, ?3, ?4, ?5)",
      )
      .bind(eventId, ctx.caller.userId, input.eventType, JSON.stringify(data), at),
    ctx.d1
      .prepare(
        `INSERT INTO webhook_deliveries (id, user_id, endpoint_id, event_id, event_type, status, attempts,
           next_attempt_at, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, 'pending', 0, ?6, ?6, ?6)`,
      )
      .bind(deliveryId, ctx.caller.userId, endpoint.id, eventId, input.eventType, at),
  ]);
  const delivery: NewDelivery = { id: deliveryId, endpointId: endpoint.id };
  await handOver(ctx, [delivery]);
  return { deliveryId, eventId, eventType: input.eventType };
};
