/**
 * What each operation does with one input item: the requests it sends and the item it outputs. Renders create a job
 * (POST /api/v1/jobs, or a template's render), wait for it (wait-for-job.ts) and download its output as binary data.
 */
import type { IBinaryData, IDataObject, IExecuteFunctions, INodeExecutionData } from "n8n-workflow";
import { NodeOperationError } from "n8n-workflow";
import { apiError, call, downloadFile, send } from "./api.ts";
import { type Job, waitForJob } from "./wait-for-job.ts";

/** An operation's output for one item: its JSON and, for downloads, its binary data. */
type Output = Pick<INodeExecutionData, "json" | "binary">;

/** A json parameter's value as an object: n8n hands it over as text, or as an object from an expression. */
const objectParameter = (ctx: IExecuteFunctions, name: string, itemIndex: number): IDataObject => {
  const value = ctx.getNodeParameter(name, itemIndex) as unknown;
  let parsed = value;
  if (typeof value === "string") {
    try {
      parsed = JSON.parse(value);
    } catch (error) {
      throw new NodeOperationError(ctx.getNode(), `${name} is not valid JSON: ${(error as Error).message}`, {
        itemIndex,
      });
    }
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    throw new NodeOperationError(ctx.getNode(), `${name} must be a JSON object`, { itemIndex });
  return parsed as IDataObject;
};

/**
 * `Idempotency-Key` for a creation: the same execution, node and item send the same key, so n8n's "Retry On Fail"
 * gets the first job back instead of a second one (and a second charge).
 */
const idempotencyKey = (ctx: IExecuteFunctions, itemIndex: number, what: string) => {
  const execution = ctx.getExecutionId();
  return execution ? { "Idempotency-Key": `n8n-${execution}-${ctx.getNode().id}-${itemIndex}-${what}` } : {};
};

/** Waits for a created job, fails with its error, and downloads its output when asked to. */
const finish = async (ctx: IExecuteFunctions, itemIndex: number, jobId: string, extra: IDataObject = {}) => {
  const options = ctx.getNodeParameter("options", itemIndex, {}) as {
    timeout?: number;
    binaryPropertyName?: string;
    fileName?: string;
  };
  const job = await waitForJob(ctx, itemIndex, jobId, options.timeout ?? 600);
  if (job.status !== "COMPLETED")
    throw new NodeOperationError(
      ctx.getNode(),
      `Job ${job.id} ${job.status.toLowerCase()}${job.errorMessage ? `: ${job.errorMessage}` : ""}`,
      { itemIndex, description: job.errorMessage ?? undefined },
    );
  const output: Output = { json: { ...extra, ...job } as IDataObject };
  if (ctx.getNodeParameter("downloadOutput", itemIndex, true) && job.outputFileId) {
    const file = await downloadFile(ctx, itemIndex, job.outputFileId);
    const name = options.fileName || file.fileName || `${job.id}.${job.outputFormat}`;
    output.binary = {
      [options.binaryPropertyName || "data"]: await ctx.helpers.prepareBinaryData(
        file.bytes,
        name,
        file.mimeType,
      ),
    };
  }
  return output;
};

const render = async (
  ctx: IExecuteFunctions,
  itemIndex: number,
  type: "image" | "video",
): Promise<Output> => {
  const config = objectParameter(ctx, "config", itemIndex);
  const created = await call<IDataObject & { jobId: string }>(ctx, itemIndex, "POST", "/api/v1/jobs", {
    body: { type, config },
    headers: idempotencyKey(ctx, itemIndex, "job"),
  });
  if (!ctx.getNodeParameter("waitForCompletion", itemIndex, true)) return { json: created };
  return await finish(ctx, itemIndex, created.jobId);
};

/**
 * A template rendered once: POST /api/v2/templates/{id}/renders, or, where the service has no such route yet (404),
 * a batch of one row (POST /api/v2/templates/{id}/batches), whose one job is then followed like any other.
 */
const renderTemplate = async (ctx: IExecuteFunctions, itemIndex: number): Promise<Output> => {
  const templateId = ctx.getNodeParameter("templateId", itemIndex) as string;
  const variables = objectParameter(ctx, "variables", itemIndex);
  const path = `/api/v2/templates/${encodeURIComponent(templateId)}`;
  const direct = await send(ctx, {
    method: "POST",
    path: `${path}/renders`,
    json: true,
    body: { variables },
    headers: idempotencyKey(ctx, itemIndex, "render"),
  });
  let jobId: string;
  let created: IDataObject;
  let extra: IDataObject = { templateId };
  if (direct.status === 404) {
    const batch = await call<IDataObject & { batchId: string }>(ctx, itemIndex, "POST", `${path}/batches`, {
      body: { rows: [variables], mode: "all-or-nothing" },
      headers: idempotencyKey(ctx, itemIndex, "batch"),
    });
    const read = await call<{ jobs: { jobId: string }[] }>(
      ctx,
      itemIndex,
      "GET",
      `/api/v2/batches/${encodeURIComponent(batch.batchId)}`,
    );
    jobId = read.jobs[0]!.jobId;
    created = { ...batch, jobId };
    extra = { templateId, batchId: batch.batchId };
  } else if (direct.status >= 200 && direct.status < 300) {
    created = (direct.body as { data: IDataObject }).data;
    jobId = String(created.jobId ?? created.id);
  } else throw apiError(ctx, direct, itemIndex);
  if (!ctx.getNodeParameter("waitForCompletion", itemIndex, true))
    return { json: { templateId, ...created } };
  return await finish(ctx, itemIndex, jobId, extra);
};

const validateConfig = async (ctx: IExecuteFunctions, itemIndex: number): Promise<Output> => ({
  json: await call<IDataObject>(ctx, itemIndex, "POST", "/api/v1/jobs/validate", {
    body: {
      type: ctx.getNodeParameter("jobType", itemIndex) as string,
      config: objectParameter(ctx, "config", itemIndex),
    },
  }),
});

const getJob = async (ctx: IExecuteFunctions, itemIndex: number, jobId: string) =>
  await call<Job>(ctx, itemIndex, "GET", `/api/v1/jobs/${encodeURIComponent(jobId)}`);

const downloadOutput = async (ctx: IExecuteFunctions, itemIndex: number): Promise<Output> => {
  const job = await getJob(ctx, itemIndex, ctx.getNodeParameter("jobId", itemIndex) as string);
  if (job.status !== "COMPLETED" || !job.outputFileId)
    throw new NodeOperationError(
      ctx.getNode(),
      `Job ${job.id} is ${job.status}: it has no output to download`,
      {
        itemIndex,
        description: job.errorMessage ?? undefined,
      },
    );
  const file = await downloadFile(ctx, itemIndex, job.outputFileId);
  const property = ctx.getNodeParameter("binaryPropertyName", itemIndex, "data") as string;
  const data: IBinaryData = await ctx.helpers.prepareBinaryData(
    file.bytes,
    file.fileName ?? `${job.id}.${job.outputFormat}`,
    file.mimeType,
  );
  return { json: job as IDataObject, binary: { [property]: data } };
};

/**
 * Pages through GET /api/v1/jobs until the limit or the last page. Every page has the same size (a page is an
 * offset of `(page - 1) * limit`): the limit when it is under 100, else 100, the most the service gives a page.
 */
const listJobs = async (ctx: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> => {
  const returnAll = ctx.getNodeParameter("returnAll", itemIndex) as boolean;
  const limit = returnAll ? Infinity : (ctx.getNodeParameter("limit", itemIndex) as number);
  const filters = ctx.getNodeParameter("filters", itemIndex, {}) as IDataObject;
  const size = Math.min(100, limit);
  const jobs: IDataObject[] = [];
  for (let page = 1; jobs.length < limit; page++) {
    const answer = await call<{ jobs: IDataObject[]; pagination: { hasNextPage: boolean } }>(
      ctx,
      itemIndex,
      "GET",
      "/api/v1/jobs",
      { qs: { ...filters, page, limit: size } },
    );
    jobs.push(...answer.jobs);
    if (!answer.pagination.hasNextPage || answer.jobs.length === 0) break;
  }
  return jobs.slice(0, limit);
};

const upload = async (ctx: IExecuteFunctions, itemIndex: number): Promise<Output> => {
  const property = ctx.getNodeParameter("binaryPropertyName", itemIndex) as string;
  const options = ctx.getNodeParameter("options", itemIndex, {}) as { category?: string; ttlHours?: number };
  const binary = ctx.helpers.assertBinaryData(itemIndex, property);
  const bytes = await ctx.helpers.getBinaryDataBuffer(itemIndex, property);
  const form = new FormData();
  form.set("file", new Blob([new Uint8Array(bytes)], { type: binary.mimeType }), binary.fileName ?? "upload");
  if (options.category) form.set("category", options.category);
  if (options.ttlHours) form.set("ttlHours", String(options.ttlHours));
  const answer = await send(ctx, {
    method: "POST",
    path: "/api/v1/files/upload",
    // n8n passes a FormData through to its HTTP client, which writes it as multipart with its boundary.
    body: form as unknown as IDataObject,
    headers: idempotencyKey(ctx, itemIndex, "upload"),
  });
  if (answer.status !== 201 && answer.status !== 200) throw apiError(ctx, answer, itemIndex);
  return { json: (answer.body as { data: IDataObject }).data };
};

/** Runs `resource`/`operation` for one item; answers its output items (Get Many answers one per job). */
export const runOperation = async (
  ctx: IExecuteFunctions,
  itemIndex: number,
  resource: string,
  operation: string,
): Promise<Output[]> => {
  const op = `${resource}.${operation}`;
  if (op === "render.renderImage") return [await render(ctx, itemIndex, "image")];
  if (op === "render.renderVideo") return [await render(ctx, itemIndex, "video")];
  if (op === "render.renderTemplate") return [await renderTemplate(ctx, itemIndex)];
  if (op === "render.validateConfig") return [await validateConfig(ctx, itemIndex)];
  if (op === "job.get")
    return [
      {
        json: (await getJob(
          ctx,
          itemIndex,
          ctx.getNodeParameter("jobId", itemIndex) as string,
        )) as IDataObject,
      },
    ];
  if (op === "job.downloadOutput") return [await downloadOutput(ctx, itemIndex)];
  if (op === "job.getAll") return (await listJobs(ctx, itemIndex)).map((json) => ({ json }));
  if (op === "file.upload") return [await upload(ctx, itemIndex)];
  throw new NodeOperationError(ctx.getNode(), `Unknown operation ${op}`, { itemIndex });
};
