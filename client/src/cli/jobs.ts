/**
 * The job commands: `render <job.json>` (upload the local files the job names, create it, follow its progress,
 * download the output), `validate <job.json>` and `jobs [list | get <jobId> | cancel <jobId>]`.
 */
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { data, type Client, type Job, type operations } from "../index.ts";
import { UsageError, type CommandGroup, type Options } from "./command-line.ts";
import { print } from "./output.ts";

/** A job file: the body of createJob (`{ "type": "image" | "video", "config": {...} }`). */
type JobRequest = operations["createJob"]["requestBody"]["content"]["application/json"];

const FILE_FIELDS = new Set(["path", "fontPath", "audioFilePath"]);

/** `--webhook-url` and `--metadata` (a JSON object) as the request fields they set. */
export const callbackFields = (values: { "webhook-url"?: string; metadata?: string }) => {
  let metadata: Record<string, unknown> | undefined;
  if (values.metadata !== undefined) {
    try {
      metadata = JSON.parse(values.metadata) as Record<string, unknown>;
    } catch {
      throw new UsageError(`--metadata is not JSON: ${values.metadata}`);
    }
  }
  return {
    ...(values["webhook-url"] !== undefined && { webhookUrl: values["webhook-url"] }),
    ...(metadata !== undefined && { metadata }),
  };
};

const isLocalFile = (value: string, dir: string) => {
  if (/^[a-z]+:\/\//i.test(value)) return false;
  try {
    return statSync(resolve(dir, value)).isFile();
  } catch {
    return false;
  }
};

/** Uploads every local file the config names (once each) and answers the config with storage paths. */
const uploadLocalFiles = async (
  client: Client,
  node: unknown,
  dir: string,
  done = new Map<string, string>(),
) => {
  if (Array.isArray(node)) {
    const out: unknown[] = [];
    for (const item of node) out.push(await uploadLocalFiles(client, item, dir, done));
    return out;
  }
  if (node === null || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (FILE_FIELDS.has(key) && typeof value === "string" && isLocalFile(value, dir)) {
      const file = resolve(dir, value);
      if (!done.has(file)) {
        process.stderr.write(`uploading ${value}\n`);
        done.set(file, (await client.upload(readFileSync(file), basename(file))).storageUrl);
      }
      out[key] = done.get(file);
    } else out[key] = await uploadLocalFiles(client, value, dir, done);
  }
  return out;
};

/** A job's progress as one line of a terminal, redrawn in place. */
const bar = (percent: number, stage: string | null | undefined, status: string) => {
  const width = 30;
  const filled = Math.round((Math.max(0, Math.min(100, percent)) / 100) * width);
  return `\r[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${String(Math.round(percent)).padStart(3)}% ${status}${stage ? ` (${stage})` : ""}   `;
};

/** The job file as written: the service validates it (and says what is wrong with it). */
const readJob = (file: string) => JSON.parse(readFileSync(file, "utf8")) as JobRequest;

const render = async (
  client: Client,
  file: string,
  out: string | undefined,
  extra: ReturnType<typeof callbackFields>,
) => {
  const job = readJob(file);
  const config = (await uploadLocalFiles(client, job.config, dirname(resolve(file)))) as typeof job.config;
  const created = await data(
    client.api.POST("/api/v1/jobs", { body: { ...job, config, ...extra } as JobRequest }),
  );
  return follow(client, created, out ?? `${basename(file).replace(/\.json$/i, "")}`);
};

/**
 * Shows a created job's progress (its event stream) and downloads its output to `out` (a name without an
 * extension gets the output's); exit 1 when the job does not complete.
 */
export const follow = async (
  client: Client,
  created: { jobId: string; estimatedTokens: number },
  out: string,
) => {
  process.stderr.write(`job ${created.jobId} (${created.estimatedTokens} tokens reserved)\n`);
  let final: Job | undefined;
  for await (const event of client.events(created.jobId)) {
    if (event.event === "progress")
      process.stderr.write(
        bar(event.data.progress?.percent ?? 0, event.data.progress?.stage, event.data.status),
      );
    else final = event.data;
  }
  process.stderr.write("\n");
  if (final?.status !== "COMPLETED" || final.outputFileId === null) {
    process.stderr.write(`job ${final?.status ?? "ended"}: ${final?.errorMessage ?? ""}\n`);
    return 1;
  }
  const target = /\.[a-z0-9]+$/i.test(basename(out)) ? out : `${out}.${final.outputFormat}`;
  writeFileSync(target, await client.download(final.outputFileId));
  process.stderr.write(`${target} (${final.tokensUsed} tokens)\n`);
  return 0;
};

/** `mrs render <job.json> [--out <file>] [--webhook-url <url>] [--metadata <json>]`. */
export const renderCommand: CommandGroup = async (client, sub, _arg, values) =>
  sub ? render(client, sub, values.out, callbackFields(values)) : undefined;

/** `mrs validate <job.json>`: the service's verdict, exit 1 when invalid. */
export const validateCommand: CommandGroup = async (client, sub) => {
  if (!sub) return undefined;
  const result = await data(client.api.POST("/api/v1/jobs/validate", { body: readJob(sub) }));
  print(result);
  return result.isValid ? 0 : 1;
};

const listJobs = async (client: Client, values: Options) => {
  const query = values.status ? { status: values.status } : {};
  print(await data(client.api.GET("/api/v1/jobs", { params: { query } })));
  return 0;
};

const getJob = async (client: Client, jobId: string) => {
  print(await data(client.api.GET("/api/v1/jobs/{jobId}", { params: { path: { jobId } } })));
  return 0;
};

const cancelJob = async (client: Client, jobId: string) => {
  print(await data(client.api.DELETE("/api/v1/jobs/{jobId}", { params: { path: { jobId } } })));
  return 0;
};

/** `mrs jobs [list [--status S] | get <jobId> | cancel <jobId>]`. */
export const jobsCommand: CommandGroup = async (client, sub, arg, values) => {
  if (!sub || sub === "list") return listJobs(client, values);
  if (sub === "get" && arg) return getJob(client, arg);
  if (sub === "cancel" && arg) return cancelJob(client, arg);
  return undefined;
};
