/**
 * GET /api/v1/jobs/{id}: the owner's job, with its caption and frame outputs and its destinations' deliveries when it
 * asked for them.
 */
import type { CallerCtx } from "../context.ts";
import { deliveriesOfJob } from "../destinations/results.ts";
import { captionsOfJob } from "./caption-outputs.ts";
import { framesOfJob } from "./frame-outputs.ts";
import { getOwnedJob } from "./lookup.ts";
import type { Job } from "./schemas.ts";
import { toJob } from "./serialize.ts";

export const getJob = async (ctx: CallerCtx, jobId: string): Promise<Job> =>
  jobWithCaptions(ctx, await getOwnedJob(ctx, jobId));

/** A job row as GET /api/v1/jobs/{id} answers it (the event stream's `done` sends the row it already read). */
export const jobWithCaptions = async (
  ctx: CallerCtx,
  row: Awaited<ReturnType<typeof getOwnedJob>>,
): Promise<Job> => {
  const captions = await captionsOfJob(ctx, row);
  const frames = await framesOfJob(ctx, row);
  const destinations = await deliveriesOfJob(ctx, row);
  return {
    ...toJob(row),
    ...(captions && { captions }),
    ...(frames && { frames }),
    ...(destinations && { destinations }),
  };
};
