/** Cron handler: routes each trigger of wrangler.toml to its job. */
import { pruneCodes } from "./accounts/codes.ts";
import { pruneSessions } from "./auth/sessions.ts";
import { renewAllowances } from "./billing/monthly-allowance.ts";
import { createContext } from "./context.ts";
import type { Env } from "./env.ts";
import { expireFiles } from "./files/expire-files.ts";
import { sweepStuckJobs } from "./jobs/sweep-stuck-jobs.ts";
import { pruneIdempotencyKeys } from "./lib/idempotency.ts";
import { pruneRateLimits } from "./lib/rate-limit.ts";
import { handOverMissed, pruneWebhookLog } from "./webhooks/announce.ts";
import { feedRunningBatches } from "./jobs/feed-batch.ts";
import { handOverDueDeliveries } from "./destinations/deliver.ts";

export const handleScheduled = async (controller: ScheduledController, env: Env): Promise<void> => {
  // The run's clock is the trigger's scheduled time, so a delayed run judges due items as of its slot.
  const ctx = createContext(env, { now: () => controller.scheduledTime });
  if (controller.cron === "*/5 * * * *" || controller.cron === "") {
    const failed = await sweepStuckJobs(ctx);
    const fedBatchJobs = await feedRunningBatches(ctx);
    if (fedBatchJobs) console.log(JSON.stringify({ level: "info", msg: "batch feed", queued: fedBatchJobs }));
    const expiredFiles = await expireFiles(ctx);
    console.log(JSON.stringify({ level: "info", msg: "file expiry", expiredFiles }));
    const prunedCounters = await pruneRateLimits(ctx);
    await Promise.all([pruneCodes(ctx), pruneSessions(ctx), pruneIdempotencyKeys(ctx)]);
    const webhooks = { handedOver: await handOverMissed(ctx), pruned: await pruneWebhookLog(ctx) };
    if (webhooks.handedOver || webhooks.pruned)
      console.log(JSON.stringify({ level: "info", msg: "webhooks", ...webhooks }));
    const deliveries = await handOverDueDeliveries(ctx);
    if (deliveries) console.log(JSON.stringify({ level: "info", msg: "deliveries handed over", deliveries }));
    console.log(JSON.stringify({ level: "info", msg: "sweep", failedJobs: failed, prunedCounters }));
  }
  // Every trigger renews due allowances: the monthly cron does the bulk on the 1st, the 5-minute one catches
  // any account it missed (and accounts whose period ends later in the month).
  const { renewed, expired } = await renewAllowances(ctx);
  if (renewed || expired)
    console.log(JSON.stringify({ level: "info", msg: "monthly allowance", renewed, expired }));
};
