/**
 * The MCP tools: each one is a verb the HTTP API already has, with the valibot schema that validates its input
 * (published to MCP clients as JSON Schema, generated from it) and the permission the equivalent route needs, so
 * a key can do through MCP exactly what it can do over HTTP and nothing more.
 */
import { toJsonSchema } from "@valibot/to-json-schema";
import * as v from "valibot";
import { allows, type Resource } from "../auth/caller";
import { holdsScope, type Scope } from "../auth/scopes";
import type { CallerCtx } from "../context";
import { importFromUrl } from "../files/import-url";
import { getOwnFile } from "../files/internal";
import { toUploadResponse } from "../files/serialize";
import { createDownloadLink, LinkBody } from "../files/signed-link";
import { createJob } from "../jobs/create-job";
import { getJob } from "../jobs/get-job";
import { ListJobsQuery, listJobs } from "../jobs/list-jobs";
import { validateJob } from "../jobs/validate-job";
import { Forbidden } from "../lib/errors";
import { parseOrThrow } from "../lib/validate";
import { configJsonSchema, SCHEMA_DESCRIPTIONS, SCHEMA_NAMES, SCHEMA_VERSION } from "../schemas/json-schemas";
import { getBatch } from "../templates/batch-status";
import { createBatch } from "../templates/create-batch";
import { batchLimitsOf } from "../templates/limits";
import { BATCH_MODES } from "../templates/schemas";

const JobInput = v.strictObject({
  type: v.pipe(v.picklist(["image", "video"], "type must be image or video"), v.description("The job type")),
  config: v.pipe(
    v.record(v.string(), v.unknown(), "config must be an object"),
    v.description("The job config: see get_schema for its JSON Schema"),
  ),
});

const JobId = v.strictObject({ jobId: v.pipe(v.string("jobId must be a string"), v.maxLength(64)) });

/** list_jobs takes numbers where the query string takes strings; the route's own schema then applies. */
const ListInput = v.strictObject({
  page: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100))),
  status: v.optional(v.picklist(["PENDING", "PROCESSING", "COMPLETED", "FAILED", "CANCELLED"])),
  type: v.optional(v.picklist(["IMAGE", "VIDEO"])),
});

const UrlInput = v.strictObject({
  url: v.pipe(v.string("url must be a string"), v.url("url must be an http(s) URL"), v.maxLength(2048)),
  ttlHours: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(720))),
});

const LinkInput = v.strictObject({
  fileId: v.pipe(v.string("fileId must be a string"), v.maxLength(64)),
  ...LinkBody.entries,
});

const BatchInput = v.strictObject({
  templateId: v.pipe(v.string("templateId must be a string"), v.maxLength(64)),
  rows: v.pipe(
    v.array(v.record(v.string(), v.unknown(), "each row must be an object of column -> value")),
    v.description("One object per row: variable name -> value"),
  ),
  mode: v.optional(v.picklist(BATCH_MODES), "all-or-nothing"),
  nameColumn: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(64))),
});

interface Tool<S extends v.GenericSchema> {
  description: string;
  input: S;
  /** The route this tool stands for: its resource and method (v1), or its v2 scope, decide the permission. */
  needs: { resource: Resource; method: "GET" | "POST" } | { scope: Scope } | null;
  run: (ctx: CallerCtx, input: v.InferOutput<S>, origin: string) => Promise<unknown>;
}

const tool = <S extends v.GenericSchema>(t: Tool<S>) => t;

export const TOOLS = {
  list_schemas: tool({
    description: "List the job config schemas (image, video) with what each describes and how to use it.",
    input: v.strictObject({}),
    needs: null,
    run: async () => ({
      version: SCHEMA_VERSION,
      schemas: SCHEMA_NAMES.map((name) => ({ name, ...SCHEMA_DESCRIPTIONS[name] })),
    }),
  }),
  get_schema: tool({
    description: "The JSON Schema of the image or video job config: read it before writing a config.",
    input: v.strictObject({ name: v.picklist(["image", "video"], "name must be image or video") }),
    needs: null,
    run: async (_ctx, { name }) => ({ version: SCHEMA_VERSION, schema: configJsonSchema(name) }),
  }),
  validate_config: tool({
    description:
      "Check a job config without creating a job: isValid, field errors, warnings (properties accepted with no " +
      "effect), estimatedTokens, the stored files it uses. Text layers take catalogue fonts as googleFont " +
      '("Family" or "Family:weight"; catalogFont is an alias).',
    input: JobInput,
    needs: { resource: "jobs", method: "POST" },
    run: (ctx, input) => validateJob(ctx, input),
  }),
  create_job: tool({
    description:
      "Create a render job (reserves its estimated tokens; warnings name properties accepted with no effect). " +
      "Follow it with get_job until status is COMPLETED, then get_download_link on its outputFileId.",
    input: JobInput,
    needs: { resource: "jobs", method: "POST" },
    run: (ctx, input) => createJob(ctx, input),
  }),
  get_job: tool({
    description: "Read a job: status, progress, outputFileId, tokensUsed, errorMessage.",
    input: JobId,
    needs: { resource: "jobs", method: "GET" },
    run: (ctx, { jobId }) => getJob(ctx, jobId),
  }),
  list_jobs: tool({
    description: "List your jobs, newest first, optionally by status or type.",
    input: ListInput,
    needs: { resource: "jobs", method: "GET" },
    run: (ctx, input) =>
      listJobs(
        ctx,
        parseOrThrow(
          ListJobsQuery,
          Object.fromEntries(Object.entries(input).map(([k, value]) => [k, String(value)])),
        ),
      ),
  }),
  upload_from_url: tool({
    description:
      "Store a public http(s) file (image, video, audio, font) for use in configs: answers its storageUrl. " +
      "Private addresses are refused.",
    input: UrlInput,
    needs: { resource: "media", method: "POST" },
    run: async (ctx, { url, ttlHours }) =>
      toUploadResponse(await importFromUrl(ctx, { userId: ctx.caller.userId, url, ttlHours })),
  }),
  run_template_batch: tool({
    description:
      "Render one of your templates once per row (POST /api/v2/templates/{id}/batches): every row is validated " +
      "before anything is charged. Follow it with get_batch; the ZIP is at /api/v2/batches/{batchId}/output.",
    input: BatchInput,
    needs: { scope: "templates:bulk" },
    run: async (ctx, input) => createBatch(ctx, input, await batchLimitsOf(ctx)),
  }),
  get_batch: tool({
    description: "Read a template batch: status, counts per job state, progress and its jobs.",
    input: v.strictObject({ batchId: v.pipe(v.string("batchId must be a string"), v.maxLength(64)) }),
    needs: { scope: "operations:read" },
    run: (ctx, { batchId }) => getBatch(ctx, batchId),
  }),
  get_download_link: tool({
    description: "A signed link that downloads a file (a job's output) without a key, for expiresIn seconds.",
    input: LinkInput,
    needs: { resource: "media", method: "POST" },
    run: async (ctx, { fileId, expiresIn }, origin) =>
      createDownloadLink(ctx, { origin, row: await getOwnFile(ctx, fileId), expiresIn }),
  }),
};

/** The tools as MCP lists them: name, description and input JSON Schema. */
export const toolList = () =>
  Object.entries(TOOLS).map(([name, t]) => ({
    name,
    description: t.description,
    inputSchema: toJsonSchema(t.input, { errorMode: "ignore" }) as { type: "object" },
  }));

/** Runs a tool for the caller: its permission first, then its input, then the verb. */
export const runTool = async (ctx: CallerCtx, name: string, args: unknown, origin: string) => {
  if (!Object.hasOwn(TOOLS, name)) return undefined;
  const t = (TOOLS as unknown as Record<string, Tool<v.GenericSchema>>)[name]!;
  if (t.needs && "scope" in t.needs) {
    if (!holdsScope(ctx.caller, t.needs.scope))
      throw new Forbidden(`This API key lacks the scope ${t.needs.scope}`);
  } else if (t.needs && !allows(ctx.caller.permissions, t.needs.resource, t.needs.method))
    throw new Forbidden(
      `This key cannot ${t.needs.method === "GET" ? "read" : "change"} ${t.needs.resource}`,
    );
  return t.run(ctx, parseOrThrow(t.input, args ?? {}), origin);
};
