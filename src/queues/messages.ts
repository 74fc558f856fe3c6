/** Bodies of render queue messages, validated by the consumers (queues are a trust boundary too). */
import * as v from "valibot";

export const RenderMessage = v.variant("kind", [
  v.object({
    kind: v.literal("render"),
    jobId: v.string(),
    userId: v.string(),
    /** When the job first found no renderer free or reachable (ms): it waits at most RENDERER_WAIT_MS. */
    waitingSince: v.optional(v.number()),
  }),
  /** Checks a handed-over job's lease (renewed by its renderer's reports) a few seconds later, again and again. */
  v.object({
    kind: v.literal("watch"),
    jobId: v.string(),
    attempt: v.number(),
    /** The pool instance that accepted the hand-over (told to cancel it if its lease lapses). */
    instance: v.optional(v.string()),
  }),
  /** Offers chunk `chunk` of a split job to the pool (docs/parallel-rendering.md, dispatch-chunks.ts). */
  v.object({
    kind: v.literal("chunk"),
    jobId: v.string(),
    chunk: v.number(),
    waitingSince: v.optional(v.number()),
  }),
  /** Checks a handed-over chunk's lease, like `watch` does a job's. */
  v.object({
    kind: v.literal("watch-chunk"),
    jobId: v.string(),
    chunk: v.number(),
    attempt: v.number(),
    instance: v.optional(v.string()),
  }),
  /** Every chunk of a split job is stored: hand its join to the pool. */
  v.object({ kind: v.literal("join"), jobId: v.string(), waitingSince: v.optional(v.number()) }),
  // Sent by /health/detailed to prove the queue accepts and delivers messages; consumers just ack it.
  v.object({ kind: v.literal("ping"), at: v.number() }),
]);
export type RenderMessage = v.InferOutput<typeof RenderMessage>;
