/**
 * The MCP tools: each one is a route of the HTTP API (tool.ts), ours and JsonCut's names for what it has
 * (jsoncut-tools.ts).
 */
import * as v from "valibot";
import { allows } from "../auth/caller.ts";
import { holdsScope } from "../auth/scopes.ts";
import type { CallerCtx } from "../context.ts";
import { jsonSchemaOf } from "../docs/json-schema.ts";
import { importFromUrl } from "../files/import-url.ts";
import { getOwnFile } from "../files/internal.ts";
import { DownloadLink, FileId, toUploadResponse, UploadedFile } from "../files/serialize.ts";
import { createDownloadLink, LinkBody } from "../files/signed-link.ts";
import { createJob } from "../jobs/create-job.ts";
import { getJob } from "../jobs/get-job.ts";
import { ListJobsQuery, listJobs } from "../jobs/list-jobs.ts";
import { Job, JobCreated, JobId, JobList, JobRequest, JobValidation } from "../jobs/schemas.ts";
import { validateJob } from "../jobs/validate-job.ts";
import { Forbidden } from "../lib/errors.ts";
import { NoQuery, parseOrThrow } from "../lib/validate.ts";
import { MOUNTS } from "../paths.ts";
import { ConfigSchema, configSchema, SchemaList, schemaList, SchemaNameParam } from "../schemas/serialize.ts";
import { getBatch } from "../templates/batch-status.ts";
import { createBatch } from "../templates/create-batch.ts";
import { batchLimitsOf } from "../templates/limits.ts";
import { RenderBody, renderTemplate } from "../templates/render-template.ts";
import { Batch, BatchBody, BatchCreated, BatchId, TemplateId } from "../templates/schemas.ts";
import { JSONCUT_TOOLS } from "./jsoncut-tools.ts";
import { tool, type Tool } from "./tool.ts";

/** Importing a public URL has no route of its own (uploads are multipart): this tool's input is its own. */
const UrlInput = v.strictObject({
  url: v.pipe(v.string("url must be a string"), v.url("url must be an http(s) URL"), v.maxLength(2048)),
  ttlHours: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(720))),
});

/** A query string carries numbers as text: list_jobs takes them either way, then the route's own schema applies. */
const asQueryString = (args: unknown) =>
  typeof args === "object" && args !== null && !Array.isArray(args)
    ? Object.fromEntries(
        Object.entries(args).map(([k, value]) => [k, typeof value === "number" ? String(value) : value]),
      )
    : args;

export const TOOLS = {
  list_schemas: tool({
    description: "List the job config schemas (image, video) with what each describes and how to use it.",
    input: NoQuery,
    output: SchemaList,
    route: `GET ${MOUNTS.schemas}`,
    needs: null,
    run: async () => schemaList(MOUNTS.schemas),
  }),
  get_schema: tool({
    description: "The JSON Schema of the image or video job config: read it before writing a config.",
    input: v.strictObject({ name: SchemaNameParam }),
    output: ConfigSchema,
    route: `GET ${MOUNTS.schemas}/{name}`,
    needs: null,
    run: async (_ctx, { name }) => configSchema(name),
  }),
  validate_config: tool({
    description:
      "Check a job config without creating a job: isValid, field errors, warnings (properties accepted with no " +
      "effect), estimatedTokens, the stored files it uses. Text layers take catalogue fonts as googleFont " +
      '("Family" or "Family:weight"; catalogFont is an alias).',
    input: JobRequest,
    output: JobValidation,
    route: `POST ${MOUNTS.jobs}/validate`,
    needs: { resource: "jobs", method: "POST" },
    run: (ctx, input) => validateJob(ctx, input),
  }),
  create_job: tool({
    description:
      "Create a render job (reserves its estimated tokens; warnings name properties accepted with no effect). " +
      "Follow it with get_job until status is COMPLETED, then get_download_link on its outputFileId. Optional " +
      "webhookUrl: the job's render events are also posted there, signed; optional metadata: your own small JSON " +
      "object, echoed on the job and in every event.",
    input: JobRequest,
    output: JobCreated,
    route: `POST ${MOUNTS.jobs}`,
    needs: { resource: "jobs", method: "POST" },
    run: (ctx, input) => createJob(ctx, input),
  }),
  get_job: tool({
    description: "Read a job: status, progress, outputFileId, tokensUsed, errorMessage.",
    input: v.strictObject({ jobId: JobId }),
    output: Job,
    route: `GET ${MOUNTS.jobs}/{jobId}`,
    needs: { resource: "jobs", method: "GET" },
    run: (ctx, { jobId }) => getJob(ctx, jobId),
  }),
  list_jobs: tool({
    description: "List your jobs, newest first, optionally by status or type.",
    input: ListJobsQuery,
    output: JobList,
    route: `GET ${MOUNTS.jobs}`,
    needs: { resource: "jobs", method: "GET" },
    from: asQueryString,
    run: (ctx, query) => listJobs(ctx, query),
  }),
  upload_from_url: tool({
    description:
      "Store a public http(s) file (image, video, audio, font) for use in configs: answers its storageUrl. " +
      "Private addresses are refused.",
    input: UrlInput,
    output: UploadedFile,
    route: `POST ${MOUNTS.files}/upload`,
    needs: { resource: "media", method: "POST" },
    run: async (ctx, { url, ttlHours }) =>
      toUploadResponse(await importFromUrl(ctx, { userId: ctx.caller.userId, url, ttlHours })),
  }),
  run_template_batch: tool({
    description:
      "Render one of your templates once per row (POST /api/v2/templates/{id}/batches): every row is validated " +
      "before anything is charged. Follow it with get_batch; the ZIP is at /api/v2/batches/{batchId}/output.",
    input: v.strictObject({ templateId: TemplateId, ...BatchBody.entries }),
    output: BatchCreated,
    route: `POST ${MOUNTS.templates}/{id}/batches`,
    needs: { scope: "templates:bulk" },
    run: async (ctx, input) => createBatch(ctx, input, await batchLimitsOf(ctx)),
  }),
  render_template: tool({
    description:
      "Render one of your saved templates once (POST /api/v2/templates/{id}/renders): variables by name (their " +
      "types, defaults and conditions as in a batch row), optional webhookUrl and metadata as create_job. " +
      "Answers like create_job; follow it with get_job.",
    input: v.strictObject({ templateId: TemplateId, ...RenderBody.entries }),
    output: JobCreated,
    route: `POST ${MOUNTS.templates}/{id}/renders`,
    needs: { scope: "renders:create" },
    run: (ctx, input) => renderTemplate(ctx, input),
  }),
  get_batch: tool({
    description: "Read a template batch: status, counts per job state, progress and its jobs.",
    input: v.strictObject({ batchId: BatchId }),
    output: Batch,
    route: `GET ${MOUNTS.batches}/{id}`,
    needs: { scope: "operations:read" },
    run: (ctx, { batchId }) => getBatch(ctx, batchId),
  }),
  get_download_link: tool({
    description: "A signed link that downloads a file (a job's output) without a key, for expiresIn seconds.",
    input: v.strictObject({ fileId: FileId, ...LinkBody.entries }),
    output: DownloadLink,
    route: `POST ${MOUNTS.files}/{fileId}/link`,
    needs: { resource: "media", method: "POST" },
    run: async (ctx, { fileId, expiresIn }, origin) =>
      createDownloadLink(ctx, { origin, row: await getOwnFile(ctx, fileId), expiresIn }),
  }),
  ...JSONCUT_TOOLS,
};

type AnyTool = Tool<v.GenericSchema, v.GenericSchema>;
const byName = (name: string): AnyTool | undefined =>
  Object.hasOwn(TOOLS, name) ? (TOOLS as unknown as Record<string, AnyTool>)[name] : undefined;

/** The route a tool stands for (`{ method, path }`), whose rate limits a call of it counts against. */
export const toolRoute = (name: string) => {
  const route = byName(name)?.route;
  if (!route) return undefined;
  const [method, path] = route.split(" ") as [string, string];
  return { method, path };
};

/** The tools as MCP lists them: name, description, and the JSON Schemas of their input and output. */
export const toolList = () =>
  Object.entries(TOOLS as unknown as Record<string, AnyTool>).map(([name, t]) => ({
    name,
    description: t.description,
    inputSchema: jsonSchemaOf(t.input, { mode: "input", target: "draft-07" }) as { type: "object" },
    outputSchema: jsonSchemaOf(t.output, { mode: "output", target: "draft-07" }) as { type: "object" },
  }));

/** Runs a tool for the caller: its permission first, then its input, then the verb. */
export const runTool = async (ctx: CallerCtx, name: string, args: unknown, origin: string) => {
  const t = byName(name);
  if (!t) return undefined;
  if (t.needs && "scope" in t.needs) {
    if (!holdsScope(ctx.caller, t.needs.scope))
      throw new Forbidden(`This API key lacks the scope ${t.needs.scope}`);
  } else if (t.needs && !allows(ctx.caller.permissions, t.needs.resource, t.needs.method))
    throw new Forbidden(
      `This key cannot ${t.needs.method === "GET" ? "read" : "change"} ${t.needs.resource}`,
    );
  return t.run(ctx, parseOrThrow(t.input, (t.from ?? ((a) => a))(args ?? {})), origin);
};
