/**
 * What creation parsed and planned, read back from a job row: the config in the grammar's normal form
 * (`jobs.normalized_config`, packages/contract/src/config/normal-form.ts) and a video's plan (`jobs.plan`: its
 * timeline, seconds, reserve and deadline). Dispatch, chunking, pricing and the outputs read a job through these
 * and nothing else; the config as submitted (`jobs.config`) is only echoed back to its owner.
 *
 * Stored data crosses a boundary like any input: it is parsed (the normal form by its grammar, which gives it back
 * unchanged; the plan by its schema), never cast. Rows written before migration 0010 have neither column: their
 * config as submitted is parsed here once more and their plan computed as creation would, the only place that
 * still happens.
 */
import { inArray } from "drizzle-orm";
import * as v from "valibot";
import {
  HostedImageConfigSchema,
  VideoConfigSchema,
  type ImageConfig,
  type VideoConfig,
} from "@media-render/contract/config";
import type { Ctx } from "../context.ts";
import { mediaFiles, type jobs } from "../db/schema.ts";
import { InvalidState } from "../lib/errors.ts";
import { referenceTargets } from "./input-map.ts";
import { plannedVideo, VideoPlanSchema, type VideoPlan } from "./planned-length.ts";

type JobRow = typeof jobs.$inferSelect;
/** The columns a job is read back from. */
export type StoredJob = Pick<JobRow, "id" | "type" | "config" | "normalizedConfig">;

/** A stored value its own schema refuses: the job cannot be rendered by this version of the service. */
const unreadable = (job: { id: string }, what: string, issues: v.BaseIssue<unknown>[]) =>
  new InvalidState(
    `Job ${job.id}'s stored ${what} is not valid for this version of the service (${issues[0]?.message ?? "invalid"}); submit the job again`,
  );

const parsedWith = <S extends v.GenericSchema>(schema: S, job: StoredJob): v.InferOutput<S> => {
  const parsed = v.safeParse(schema, job.normalizedConfig ?? job.config);
  if (!parsed.success) throw unreadable(job, "config", parsed.issues);
  return parsed.output;
};

/** A video job's config in normal form. */
export const storedVideoConfig = (job: StoredJob): VideoConfig => parsedWith(VideoConfigSchema, job);

/**
 * An image job's config in normal form. Read with the hosted catalogue's grammar: which fonts exist was validation's
 * call at creation (and the font source's when it renders), not this reader's.
 */
export const storedImageConfig = (job: StoredJob): ImageConfig => parsedWith(HostedImageConfigSchema, job);

/** A video job's plan: stored at creation, or (a row older than the column) computed as creation would have. */
export const storedVideoPlan = async (
  ctx: Ctx,
  job: StoredJob & Pick<JobRow, "plan" | "inputFileIds">,
  config: VideoConfig,
): Promise<VideoPlan> => {
  if (job.plan !== null) {
    const parsed = v.safeParse(VideoPlanSchema, job.plan);
    if (!parsed.success) throw unreadable(job, "plan", parsed.issues);
    return parsed.output;
  }
  const files = job.inputFileIds.length
    ? await ctx.db.query.mediaFiles.findMany({ where: inArray(mediaFiles.id, job.inputFileIds) })
    : [];
  const byReference = referenceTargets(files);
  return plannedVideo(config, (ref) => byReference.get(ref)?.duration ?? null);
};
