/** Fetch-or-throw helpers for jobs; every lookup is scoped to the owner. */
import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { jobs } from "../db/schema";
import { NotFound } from "../lib/errors";

export const getOwnedJob = async (db: Db, userId: string, jobId: string) => {
  const row = await db.query.jobs.findFirst({ where: and(eq(jobs.id, jobId), eq(jobs.userId, userId)) });
  if (!row) throw new NotFound("Job");
  return row;
};

/** For trusted internal callers (queue consumers, the runner callback) that act on any account's job. */
export const getJobById = async (db: Db, jobId: string) => {
  const row = await db.query.jobs.findFirst({ where: eq(jobs.id, jobId) });
  if (!row) throw new NotFound("Job");
  return row;
};
