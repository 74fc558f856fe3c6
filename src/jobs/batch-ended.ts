/**
 * The one place a batch's end is announced: called once when a batch becomes COMPLETED or CANCELLED (its callers'
 * guarded status updates say so). Raises `batch.completed` for the owner's subscribed webhook endpoints.
 */
import type { Ctx } from "../context.ts";
import { handOver } from "../webhooks/announce.ts";
import { deliveriesOf, raiseBatchEvent } from "../webhooks/events.ts";

export const batchEnded = async (ctx: Ctx, batchId: string): Promise<void> => {
  const results = await ctx.d1.batch(raiseBatchEvent(ctx.d1, batchId, ctx.now()));
  await handOver(ctx, deliveriesOf(results));
  console.log(JSON.stringify({ level: "info", msg: "batch ended", batchId }));
};
