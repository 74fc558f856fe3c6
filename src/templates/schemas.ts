/** valibot schemas of the template and batch requests and answers. */
import * as v from "valibot";
import { FieldError } from "@media-render/contract/field-errors";
import { BATCH_STATUSES, JOB_STATUSES } from "../db/schema.ts";
import { Timestamp } from "../lib/envelope.ts";
import { Pagination } from "../jobs/schemas.ts";
import { MAX_TEMPLATE_VARIABLES } from "./limits.ts";
import { VARIABLE_NAME, VARIABLE_TYPES } from "@media-render/contract/config/template-variables";

export const VariableDeclSchema = v.object({
  name: v.pipe(
    v.string(),
    v.regex(VARIABLE_NAME, "name must be a letter or _ then up to 63 letters, digits or _"),
  ),
  type: v.picklist(VARIABLE_TYPES, `type must be one of ${VARIABLE_TYPES.join(", ")}`),
  required: v.optional(v.boolean(), true),
  default: v.optional(v.union([v.string(), v.number()], "default must be a string or a number")),
});

/** A template's id and a batch's id, as paths name them. */
export const TemplateId = v.pipe(
  v.string("templateId must be a string"),
  v.maxLength(64),
  v.description("tpl_..."),
);
export const BatchId = v.pipe(
  v.string("batchId must be a string"),
  v.maxLength(64),
  v.description("bat_..."),
);

/** POST /api/v2/templates and PUT /api/v2/templates/{id}. */
export const TemplateBody = v.object({
  name: v.pipe(v.string(), v.trim(), v.minLength(1, "name is required"), v.maxLength(200)),
  type: v.picklist(["image", "video"], 'type must be "image" or "video"'),
  config: v.record(v.string(), v.unknown(), "config must be an object"),
  variables: v.optional(
    v.pipe(
      v.array(VariableDeclSchema),
      v.maxLength(MAX_TEMPLATE_VARIABLES, `at most ${MAX_TEMPLATE_VARIABLES} variables`),
    ),
    [],
  ),
});
export type TemplateBody = v.InferOutput<typeof TemplateBody>;

export const BATCH_MODES = ["valid-only", "all-or-nothing"] as const;
export type BatchMode = (typeof BATCH_MODES)[number];

const Mode = v.optional(
  v.picklist(BATCH_MODES, 'mode must be "valid-only" or "all-or-nothing"'),
  "all-or-nothing",
);
const NameColumn = v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(64)));

/** The options of a batch: in the JSON body, or in the query of a `text/csv` body. */
export const BatchOptions = v.object({ mode: Mode, nameColumn: NameColumn });
export type BatchOptions = v.InferOutput<typeof BatchOptions>;

/** A JSON batch: rows of column -> value. */
export const BatchBody = v.object({
  rows: v.array(v.record(v.string(), v.unknown(), "each row must be an object of column -> value")),
  mode: Mode,
  nameColumn: NameColumn,
});

export const ManifestQuery = v.object({
  format: v.optional(v.picklist(["json", "csv"], 'format must be "json" or "csv"'), "json"),
});

const Count = v.pipe(v.number(), v.integer(), v.minValue(0));

/** A template's variable as stored: declared, or derived from a placeholder (string, required). */
const Variable = v.object({
  name: v.string(),
  type: v.picklist(VARIABLE_TYPES),
  required: v.boolean(),
  default: v.optional(v.union([v.string(), v.number()])),
});

export const Template = v.object({
  id: v.string(),
  name: v.string(),
  type: v.picklist(["image", "video"]),
  config: v.pipe(
    v.record(v.string(), v.unknown()),
    v.description("The config with its {{name}} placeholders"),
  ),
  variables: v.array(Variable),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Template = v.InferOutput<typeof Template>;

export const TemplateList = v.object({ templates: v.array(Template) });
export type TemplateList = v.InferOutput<typeof TemplateList>;

/** The answer of a batch submission: rows accepted (one job each) and the rows refused with their errors. */
export const BatchCreated = v.object({
  batchId: v.string(),
  templateId: v.string(),
  status: v.literal("RUNNING"),
  mode: v.picklist(BATCH_MODES),
  totalRows: Count,
  accepted: Count,
  rejected: v.array(v.object({ row: Count, errors: v.array(FieldError) })),
  estimatedTokens: Count,
  createdAt: Timestamp,
});
export type BatchCreated = v.InferOutput<typeof BatchCreated>;

/** A batch's job, in row order. */
export const BatchJob = v.object({
  row: Count,
  name: v.nullable(v.string()),
  jobId: v.string(),
  status: v.picklist(JOB_STATUSES),
  progress: v.pipe(v.number(), v.minValue(0), v.maxValue(100)),
  outputFileId: v.nullable(v.string()),
  error: v.nullable(v.string()),
});
export type BatchJob = v.InferOutput<typeof BatchJob>;

const batchEntries = {
  id: v.string(),
  templateId: v.string(),
  status: v.picklist(BATCH_STATUSES),
  mode: v.picklist(BATCH_MODES),
  nameColumn: v.nullable(v.string()),
  totalRows: Count,
  accepted: Count,
  rejected: Count,
  counts: v.object(
    Object.fromEntries(JOB_STATUSES.map((s) => [s, Count])) as {
      [K in (typeof JOB_STATUSES)[number]]: typeof Count;
    },
  ),
  progress: v.pipe(Count, v.maxValue(100)),
  createdAt: Timestamp,
  endedAt: v.nullable(Timestamp),
};

/** A batch with its jobs (GET /api/v2/batches/{id}). */
export const Batch = v.object({ ...batchEntries, jobs: v.array(BatchJob) });
export type Batch = v.InferOutput<typeof Batch>;

/** A batch as GET /api/v2/batches lists it: without its jobs. */
export const BatchSummary = v.object(batchEntries);
export type BatchSummary = v.InferOutput<typeof BatchSummary>;

export const BatchList = v.object({ batches: v.array(BatchSummary), pagination: Pagination });
export type BatchList = v.InferOutput<typeof BatchList>;

/** row -> job -> file -> status, rejected rows included (their status `REJECTED`). */
export const ManifestEntry = v.object({
  row: Count,
  name: v.nullable(v.string()),
  jobId: v.nullable(v.string()),
  status: v.picklist([...JOB_STATUSES, "REJECTED"]),
  fileId: v.nullable(v.string()),
  zipEntry: v.pipe(
    v.nullable(v.string()),
    v.description("The entry's name in the ZIP, when its output is there"),
  ),
  error: v.nullable(v.string()),
});
export type ManifestEntry = v.InferOutput<typeof ManifestEntry>;

export const BatchManifest = v.object({
  batchId: v.string(),
  status: v.picklist(BATCH_STATUSES),
  createdAt: Timestamp,
  entries: v.array(ManifestEntry),
});
export type BatchManifest = v.InferOutput<typeof BatchManifest>;
