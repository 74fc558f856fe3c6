/** GET /api/v1/jobs/{id}: the owner's job, with its autoSubtitles outputs when it asked for captions. */
import type { CallerCtx } from "../context";
import { captionsOfJob } from "./caption-outputs";
import { getOwnedJob } from "./internal";
import { toJob } from "./serialize";

export const getJob = async (ctx: CallerCtx, jobId: string) => {
  const row = await getOwnedJob(ctx, jobId);
  const captions = await captionsOfJob(ctx, row);
  return captions ? { ...toJob(row), captions } : toJob(row);
};
