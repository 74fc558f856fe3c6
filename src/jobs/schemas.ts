/**
 * The job routes' schemas: what a request names (the job body, a job id) and every answer's shape. The serializers
 * and verbs are typed by the answers, the OpenAPI document and the MCP tools take them from here.
 */
import * as v from "valibot";
import { CAPTION_OUTPUTS, CaptionsReport } from "@media-render/contract/wire";
import type { DetectedResource as ReferencedFile } from "@media-render/contract/config";
import { FILE_EXTENSIONS, type FileKind } from "@media-render/contract/config/file-ref";
import { FieldError, FieldWarning } from "@media-render/contract/field-errors";
import { JOB_STATUSES, JOB_TYPES } from "../db/schema.ts";
import { DeliveryList, Destinations } from "../destinations/schemas.ts";
import { Timestamp } from "../lib/envelope.ts";
import { MAX_CALLBACK_URL_LENGTH } from "../webhooks/job-callbacks.ts";
import { MAX_METADATA_BYTES } from "./metadata.ts";

const Int = v.pipe(v.number(), v.integer());
const Count = v.pipe(v.number(), v.integer(), v.minValue(0));

/** The optional callback fields of a job request (a job, a template render), checked by createJob. */
export const CallbackFields = v.object({
  webhookUrl: v.optional(
    v.pipe(
      v.unknown(),
      v.metadata({ type: "string", format: "uri", maxLength: MAX_CALLBACK_URL_LENGTH }),
      v.description(
        "Also deliver this job's render events here: signed with the account's job-callback secret (GET " +
          "/api/v2/webhooks/job-callbacks), retried like webhook deliveries; https on a public address",
      ),
    ),
  ),
  metadata: v.optional(
    v.pipe(
      v.unknown(),
      v.metadata({ type: "object", additionalProperties: true }),
      v.description(
        `Your own JSON object (at most ${MAX_METADATA_BYTES} bytes as JSON), echoed on the job, in its events and webhook payloads`,
      ),
    ),
  ),
});

/**
 * A job request. `type` and `config` are checked by validateJobConfig, so its codes (INVALID_JOB_TYPE,
 * INVALID_CONFIG_TYPE, then the grammar's) and their order apply; the metadata states what it accepts.
 */
export const JobRequest = v.object({
  type: v.pipe(v.unknown(), v.metadata({ enum: ["image", "video"] }), v.description("The job type")),
  config: v.pipe(
    v.unknown(),
    v.metadata({ type: "object" }),
    v.description("The job config: its JSON Schema is GET /api/v1/schemas/{type} (MCP: get_schema)"),
  ),
  ...CallbackFields.entries,
  destinations: v.optional(Destinations),
});

/** A job's id, as a path names it. */
export const JobId = v.pipe(v.string("jobId must be a string"), v.maxLength(64), v.description("job_..."));

/** Progress while a job renders (and 100 once completed); null before it starts. */
const Progress = v.nullable(
  v.object({
    percent: v.pipe(v.number(), v.minValue(0), v.maxValue(100)),
    stage: v.pipe(
      v.nullable(v.string()),
      v.description("The renderer's stage (e.g. `encoding`); `completed` once the job is"),
    ),
  }),
);

const listItemEntries = {
  id: v.string(),
  type: v.picklist(JOB_TYPES),
  status: v.picklist(JOB_STATUSES),
  outputFormat: v.pipe(v.string(), v.description("png, jpeg, webp, mp4, webm, ...")),
  outputFileId: v.pipe(v.nullable(v.string()), v.description("The output file, once COMPLETED")),
  tokensUsed: Count,
  errorMessage: v.nullable(v.string()),
  startedAt: v.nullable(Timestamp),
  completedAt: v.nullable(Timestamp),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  progress: Progress,
};

/** A job as GET /api/v1/jobs lists it. */
export const JobListItem = v.object(listItemEntries);
export type JobListItem = v.InferOutput<typeof JobListItem>;

const CaptionFile = v.object({
  kind: v.picklist(CAPTION_OUTPUTS),
  fileId: v.string(),
  mimeType: v.string(),
  size: Count,
  downloadUrl: v.pipe(v.string(), v.description("The file's download path (API key or session)")),
});

/** autoSubtitles' outputs: pending until the job completes, then the transcription report and its files. */
export const Captions = v.pipe(
  v.variant("status", [
    v.object({ status: v.literal("pending"), files: v.pipe(v.array(CaptionFile), v.maxLength(0)) }),
    v.object({ status: v.literal("done"), ...CaptionsReport.entries, files: v.array(CaptionFile) }),
  ]),
  v.description("Only for a video that asked for autoSubtitles"),
);
export type Captions = v.InferOutput<typeof Captions>;

const FrameFile = v.object({
  kind: v.picklist(["poster", "thumbnail", "sprite", "sprite-vtt"]),
  time: v.pipe(
    v.nullable(v.number()),
    v.description("Seconds into the video the image shows (poster, thumbnail)"),
  ),
  fileId: v.string(),
  mimeType: v.string(),
  size: Count,
  downloadUrl: v.pipe(v.string(), v.description("The file's download path (API key or session)")),
});

/** Posters and thumbnails: pending until the job completes, then each stored image (and the sprite's WebVTT). */
export const Frames = v.pipe(
  v.variant("status", [
    v.object({ status: v.literal("pending"), files: v.pipe(v.array(FrameFile), v.maxLength(0)) }),
    v.object({ status: v.literal("done"), files: v.array(FrameFile) }),
  ]),
  v.description("Only for a video that asked for a poster or thumbnails"),
);
export type Frames = v.InferOutput<typeof Frames>;

/** A job's `metadata` as its owner gave it (null without). */
const Metadata = v.pipe(
  v.nullable(v.record(v.string(), v.unknown())),
  v.description("The metadata the job was created with; null without"),
);

/** A job as GET /api/v1/jobs/{jobId} answers it (and the event stream's `done` event carries it). */
export const Job = v.object({
  ...listItemEntries,
  config: v.pipe(v.record(v.string(), v.unknown()), v.description("The config as submitted")),
  inputFileIds: v.array(v.string()),
  priority: Int,
  webhookUrl: v.pipe(
    v.nullable(v.string()),
    v.description("Where its render events are also delivered; null without"),
  ),
  metadata: Metadata,
  captions: v.optional(Captions),
  frames: v.optional(Frames),
  destinations: v.optional(DeliveryList),
});
export type Job = v.InferOutput<typeof Job>;

/** A page of a list with page numbers. */
export const Pagination = v.object({
  page: Int,
  limit: Int,
  totalCount: Count,
  totalPages: Count,
  hasNextPage: v.boolean(),
  hasPrevPage: v.boolean(),
});

export const JobList = v.object({ jobs: v.array(JobListItem), pagination: Pagination });
export type JobList = v.InferOutput<typeof JobList>;

/** Properties the config carries that are accepted with no effect (empty when there are none). */
const Warnings = v.pipe(
  v.array(FieldWarning),
  v.description("Accepted properties that change nothing here (an editly option such as `outPath`)"),
);

/** The answer of POST /api/v1/jobs. */
export const JobCreated = v.object({
  jobId: v.string(),
  status: v.literal("PENDING"),
  type: v.picklist(JOB_TYPES),
  estimatedTokens: v.pipe(Count, v.description("Reserved now; the final cost is settled when it ends")),
  createdAt: Timestamp,
  warnings: Warnings,
});
export type JobCreated = v.InferOutput<typeof JobCreated>;

/** A file a config references, as validation reports it (`size` when it is one of your uploads). */
const DetectedResource: v.GenericSchema<unknown, ReferencedFile> = v.object({
  type: v.picklist([...(Object.keys(FILE_EXTENSIONS) as FileKind[]), "unknown"]),
  url: v.string(),
  size: v.optional(Count),
});

/** The answer of POST /api/v1/jobs/validate: always a result, valid or not. */
export const JobValidation = v.object({
  isValid: v.boolean(),
  errors: v.array(FieldError),
  warnings: Warnings,
  estimatedTokens: v.pipe(Count, v.description("What creating it would reserve (0 when invalid)")),
  detectedResources: v.array(DetectedResource),
});
export type JobValidation = v.InferOutput<typeof JobValidation>;

export const JobCancelled = v.object({
  id: v.string(),
  status: v.picklist(JOB_STATUSES),
  updatedAt: Timestamp,
});
export type JobCancelled = v.InferOutput<typeof JobCancelled>;

const byKey = <T extends readonly string[]>(keys: T) =>
  v.object(Object.fromEntries(keys.map((k) => [k, Count])) as { [K in T[number]]: typeof Count });

export const JobStats = v.object({
  total: Count,
  totalTokensUsed: Count,
  byStatus: byKey(JOB_STATUSES),
  byType: byKey(JOB_TYPES),
});
export type JobStats = v.InferOutput<typeof JobStats>;

/** Jobs finished per UTC day, oldest first, 30 days. */
export const DailyJobCounts = v.array(
  v.object({ date: v.pipe(v.string(), v.isoDate()), success: Count, failed: Count }),
);
export type DailyJobCounts = v.InferOutput<typeof DailyJobCounts>;

/** The data of the event stream's `progress` events (its `done` event carries the whole Job). */
export const JobProgressEvent = v.object({
  id: v.string(),
  status: v.picklist(JOB_STATUSES),
  progress: Progress,
  metadata: Metadata,
  updatedAt: Timestamp,
});
export type JobProgressEvent = v.InferOutput<typeof JobProgressEvent>;

/**
 * One event of GET /api/v1/jobs/{jobId}/events, as its `event:` name and the JSON of its `data:` lines (the
 * document describes the stream as the sequence of these).
 */
export const JobEvent = v.variant("event", [
  v.object({ event: v.literal("progress"), data: JobProgressEvent }),
  v.object({ event: v.literal("done"), data: Job }),
]);
export type JobEvent = v.InferOutput<typeof JobEvent>;
