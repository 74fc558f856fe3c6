/** The spec's Job resource and list item, built from a row (their shapes: schemas.ts). */
import type { jobs } from "../db/schema.ts";
import { iso } from "../lib/time.ts";
import type { Job, JobListItem } from "./schemas.ts";

type JobRow = typeof jobs.$inferSelect;

export const toListItem = (row: JobRow): JobListItem => ({
  id: row.id,
  type: row.type,
  status: row.status,
  outputFormat: row.outputFormat,
  outputFileId: row.outputFileId,
  tokensUsed: row.tokensUsed,
  errorMessage: row.errorMessage,
  startedAt: iso(row.startedAt),
  completedAt: iso(row.completedAt),
  createdAt: iso(row.createdAt)!,
  updatedAt: iso(row.updatedAt)!,
  // Not in the spec's table: progress while PROCESSING (percent 0..100 and the renderer's stage).
  progress:
    row.status === "PROCESSING" || row.status === "COMPLETED"
      ? { percent: row.progress ?? 0, stage: row.stage }
      : null,
});

export const toJob = (row: JobRow): Job => ({
  ...toListItem(row),
  config: row.config,
  inputFileIds: row.inputFileIds,
  priority: row.priority,
  webhookUrl: row.webhookUrl,
  metadata: row.metadata,
});
