/** Cron handler: routes each trigger of wrangler.toml to its job. */
import { renewAllowances } from "./billing/monthly-allowance";
import type { Env } from "./env";
import { expireFiles } from "./files/expire-files";
import { sweepStuckJobs } from "./jobs/sweep-stuck-jobs";
import { pruneRateLimits } from "./lib/rate-limit";

export const handleScheduled = async (controller: ScheduledController, env: Env): Promise<void> => {
  if (controller.cron === "*/5 * * * *" || controller.cron === "") {
    const failed = await sweepStuckJobs(env.DB, controller.scheduledTime);
    const expiredFiles = await expireFiles(env, controller.scheduledTime);
    console.log(JSON.stringify({ level: "info", msg: "file expiry", expiredFiles }));
    const prunedCounters = await pruneRateLimits(env.DB, controller.scheduledTime);
    console.log(JSON.stringify({ level: "info", msg: "sweep", failedJobs: failed, prunedCounters }));
  }
  // Every trigger renews due allowances: the monthly cron does the bulk on the 1st, the 5-minute one catches
  // any account it missed (and accounts whose period ends later in the month).
  const renewed = await renewAllowances(env.DB, controller.scheduledTime);
  if (renewed) console.log(JSON.stringify({ level: "info", msg: "monthly allowance", renewed }));
};
