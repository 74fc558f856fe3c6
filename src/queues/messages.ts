/** Bodies of render queue messages, validated by the consumers (queues are a trust boundary too). */
import * as v from "valibot";

export const RenderMessage = v.variant("kind", [
  v.object({ kind: v.literal("render"), jobId: v.string(), userId: v.string() }),
  // Sent by /health/detailed to prove the queue accepts and delivers messages; consumers just ack it.
  v.object({ kind: v.literal("ping"), at: v.number() }),
]);
export type RenderMessage = v.InferOutput<typeof RenderMessage>;
