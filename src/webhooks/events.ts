/**
 * Render lifecycle events: the statements that persist an event (and its deliveries) inside the job transition's
 * own D1 batch, and the body an attempt sends.
 *
 * An event is written only when the transition really happened and someone listens (a subscribed endpoint, or the
 * job-callback endpoint when the job named a `webhookUrl`): the insert reads the job
 * row as the batch left it (`status = <new status>`, stamped at this batch's time), and a unique (job, type) index makes a duplicate or late
 * transition raise nothing twice. Its deliveries, one per subscribed active endpoint, are inserted by the next
 * statement only for the event id this batch wrote, and come back through RETURNING for the hand-over to the
 * endpoints' objects (src/webhooks/announce.ts).
 */
import { newId } from "../lib/ids.ts";
import { iso } from "../lib/time.ts";

export const RENDER_EVENT_TYPES = [
  "render.started",
  "render.completed",
  "render.failed",
  "render.cancelled",
] as const;
export type RenderEventType = (typeof RENDER_EVENT_TYPES)[number];
/** A template batch ended (all its jobs final, or cancelled): src/jobs/batch-ended.ts raises it. */
export const BATCH_COMPLETED = "batch.completed";
/**
 * Every destination of a completed job has its result (src/destinations): `render.delivered` when each one
 * delivered, `render.delivery_failed` when any failed; either lists every destination's result.
 */
export const DELIVERY_EVENT_TYPES = ["render.delivered", "render.delivery_failed"] as const;
/** The events of one job: what a job's own `webhookUrl` receives. */
const JOB_EVENT_TYPES = [...RENDER_EVENT_TYPES, ...DELIVERY_EVENT_TYPES];
/** Every event type an endpoint may subscribe to. */
export const EVENT_TYPES = [...RENDER_EVENT_TYPES, BATCH_COMPLETED, ...DELIVERY_EVENT_TYPES] as const;
/** Sent by POST /api/v2/webhooks/{id}/test to that endpoint only, whatever it subscribes to. */
export const TEST_EVENT_TYPE = "webhook.test";

/** The job status each event type reports. */
const STATUS_OF: Record<RenderEventType, string> = {
  "render.started": "PROCESSING",
  "render.completed": "COMPLETED",
  "render.failed": "FAILED",
  "render.cancelled": "CANCELLED",
};

export const eventTypeOf = (status: string): RenderEventType | null =>
  (Object.entries(STATUS_OF).find(([, s]) => s === status)?.[0] as RenderEventType | undefined) ?? null;

/** A delivery created by an event's batch, as RETURNING answers it. */
export interface NewDelivery {
  id: string;
  endpointId: string;
}

/** SQL: endpoint `e` is a registered one, active, and subscribes to the event type bound at `param`. */
const subscribes = (param: string) =>
  `e.kind = 'endpoint' AND e.active = 1 AND EXISTS (SELECT 1 FROM json_each(e.event_types) WHERE json_each.value = ${param})`;

/** SQL: endpoint `e` is the active job-callback endpoint of the owner of job `j`, which named a `webhookUrl`. */
const calledBack = `e.kind = 'callback' AND e.active = 1 AND j.webhook_url IS NOT NULL`;

/**
 * The two statements that raise `type` for `jobId` at `at`; append them to the transition's batch. The job must
 * have reached the event's status in this very batch (its `started_at`/`completed_at` is `at`), so a late
 * duplicate transition raises nothing. The second statement's RETURNING rows are the deliveries to hand over.
 */
export const raiseEvent = (
  d1: D1Database,
  event: { jobId: string; type: RenderEventType; at: number },
): D1PreparedStatement[] => {
  const id = newId("msg");
  return [
    d1
      .prepare(
        `INSERT OR IGNORE INTO webhook_events (id, user_id, job_id, type, data, created_at)
         SELECT ?1, j.user_id, j.id, ?2, json_object('jobId', j.id, 'jobType', j.type, 'status', j.status,
             'outputFileId', j.output_file_id, 'outputFormat', j.output_format, 'tokensUsed', j.tokens_used,
             'errorMessage', j.error_message, 'createdAt', j.created_at, 'startedAt', j.started_at,
             'completedAt', j.completed_at, 'metadata', json(j.metadata)), ?4
         FROM jobs j
         WHERE j.id = ?3 AND j.status = ?5 AND j.${event.type === "render.started" ? "started_at" : "completed_at"} = ?4
           AND EXISTS (SELECT 1 FROM webhook_endpoints e
                       WHERE e.user_id = j.user_id AND (${subscribes("?2")} OR (${calledBack})))`,
      )
      .bind(id, event.type, event.jobId, event.at, STATUS_OF[event.type]),
    fanOut(d1, id, event.at),
  ];
};

/**
 * The statements that persist `batch.completed` for batch `batchId` (once: a second call for the same batch raises
 * nothing) with its counts per job state, and its deliveries; only when its owner subscribes.
 */
export const raiseBatchEvent = (d1: D1Database, batchId: string, at: number): D1PreparedStatement[] => {
  const id = newId("msg");
  const count = (status: string) =>
    `(SELECT count(*) FROM jobs WHERE batch_id = b.id AND status = '${status}')`;
  return [
    d1
      .prepare(
        `INSERT INTO webhook_events (id, user_id, job_id, type, data, created_at)
         SELECT ?1, b.user_id, NULL, '${BATCH_COMPLETED}', json_object('batchId', b.id, 'templateId', b.template_id,
             'status', b.status, 'totalRows', b.total_rows, 'rejectedRows', json_array_length(b.rejected),
             'completed', ${count("COMPLETED")}, 'failed', ${count("FAILED")}, 'cancelled', ${count("CANCELLED")},
             'createdAt', b.created_at, 'endedAt', b.ended_at), ?3
         FROM batches b
         WHERE b.id = ?2 AND b.status IN ('COMPLETED', 'CANCELLED')
           AND NOT EXISTS (SELECT 1 FROM webhook_events x
                           WHERE x.user_id = b.user_id AND x.type = '${BATCH_COMPLETED}'
                             AND json_extract(x.data, '$.batchId') = b.id)
           AND EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.user_id = b.user_id AND ${subscribes(`'${BATCH_COMPLETED}'`)})`,
      )
      .bind(id, batchId, at),
    fanOut(d1, id, at),
  ];
};

/**
 * The statements that persist the delivery event of job `jobId` once none of its destinations is left to settle
 * (so the batch that settles the last one raises it, and a later batch raises nothing: one event per job and type),
 * with every destination's result, and its deliveries; only when its owner subscribes or the job named a
 * `webhookUrl`.
 */
export const raiseDeliveryEvent = (d1: D1Database, jobId: string, at: number): D1PreparedStatement[] => {
  const id = newId("msg");
  const [delivered, failed] = DELIVERY_EVENT_TYPES;
  return [
    d1
      .prepare(
        `INSERT OR IGNORE INTO webhook_events (id, user_id, job_id, type, data, created_at)
         SELECT ?1, j.user_id, j.id, t.type, json_object('jobId', j.id, 'jobType', j.type, 'status', j.status,
             'outputFileId', j.output_file_id, 'outputFormat', j.output_format, 'completedAt', j.completed_at,
             'metadata', json(j.metadata),
             'destinations', (SELECT json_group_array(json_object('connectionId', d.connection_id,
                 'bucket', d.bucket, 'key', d.key, 'status', d.status, 'attempts', d.attempts, 'error', d.error,
                 'files', json(d.files), 'deliveredAt', CASE WHEN d.delivered_at IS NULL THEN NULL
                   ELSE strftime('%Y-%m-%dT%H:%M:%fZ', d.delivered_at / 1000.0, 'unixepoch') END))
               FROM (SELECT * FROM job_deliveries WHERE job_id = j.id ORDER BY position) d)), ?3
         FROM jobs j
         JOIN (SELECT CASE WHEN EXISTS (SELECT 1 FROM job_deliveries WHERE job_id = ?2 AND status = 'failed')
                 THEN '${failed}' ELSE '${delivered}' END AS type) t
         WHERE j.id = ?2 AND EXISTS (SELECT 1 FROM job_deliveries WHERE job_id = ?2)
           AND NOT EXISTS (SELECT 1 FROM job_deliveries WHERE job_id = ?2
                           AND status NOT IN ('delivered', 'failed', 'skipped'))
           AND EXISTS (SELECT 1 FROM webhook_endpoints e
                       WHERE e.user_id = j.user_id AND (${subscribes("t.type")} OR (${calledBack})))`,
      )
      .bind(id, jobId, at),
    fanOut(d1, id, at),
  ];
};

/**
 * The deliveries of event `eventId`: one to every active endpoint of its owner that subscribes to its type, and for
 * a job that named a `webhookUrl`, one to the owner's job-callback endpoint carrying that URL.
 */
const fanOut = (d1: D1Database, eventId: string, at: number) =>
  d1
    .prepare(
      `INSERT OR IGNORE INTO webhook_deliveries
         (id, user_id, endpoint_id, event_id, event_type, url, status, attempts, next_attempt_at, created_at,
          updated_at)
       SELECT 'whd_' || lower(hex(randomblob(12))), e.user_id, e.id, ev.id, ev.type, NULL, 'pending', 0, ?2, ?2, ?2
       FROM webhook_events ev JOIN webhook_endpoints e ON e.user_id = ev.user_id
       WHERE ev.id = ?1 AND ${subscribes("ev.type")}
       UNION ALL
       SELECT 'whd_' || lower(hex(randomblob(12))), e.user_id, e.id, ev.id, ev.type, j.webhook_url, 'pending', 0,
         ?2, ?2, ?2
       FROM webhook_events ev JOIN jobs j ON j.id = ev.job_id AND j.user_id = ev.user_id
         JOIN webhook_endpoints e ON e.user_id = ev.user_id
       WHERE ev.id = ?1 AND ev.type IN (${JOB_EVENT_TYPES.map((t) => `'${t}'`).join(", ")}) AND ${calledBack}
       RETURNING id, endpoint_id AS endpointId`,
    )
    .bind(eventId, at);

/** The deliveries a batch created, from the result of its last statement (raiseEvent's fan-out). */
export const deliveriesOf = (results: D1Result[]): NewDelivery[] =>
  (results.at(-1)?.results as NewDelivery[] | undefined) ?? [];

/** An event as the endpoint object reads it back. */
export interface StoredEvent {
  id: string;
  type: string;
  data: Record<string, unknown>;
  createdAt: number;
}

/**
 * The JSON body of one attempt (the Standard Webhooks shape `{ type, timestamp, data }`): dates in ISO 8601, and
 * `extra` (the signed download link, fresh for every attempt) merged into `data`.
 */
export const eventBody = (event: StoredEvent, extra: Record<string, unknown> = {}): string => {
  const data: Record<string, unknown> = {};
  for (const [k, value] of Object.entries(event.data))
    data[k] = k.endsWith("At") && typeof value === "number" ? iso(value) : value;
  return JSON.stringify({ type: event.type, timestamp: iso(event.createdAt), data: { ...data, ...extra } });
};
