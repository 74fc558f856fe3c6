#!/usr/bin/env node
/**
 * mrs: the media rendering service from a terminal (the typed client underneath: every answer is typed by the
 * OpenAPI document).
 *
 *   mrs render <job.json> [--out <file>]   upload the local files the config names, create the job, show its
 *                                          progress (Server-Sent Events), download the output
 *   mrs validate <job.json>                check a job without creating it (exit 1 when invalid)
 *   mrs templates [list | render <templateId> [--var name=value]... [--vars <vars.json>] [--out <file>] [--no-wait]]
 *                                          render a saved template once (then as `render` does)
 *   mrs batches [list [--template <id>] [--status S]]
 *   mrs files [list | upload <file> [--ttl <hours>] | delete <fileId>]
 *   mrs jobs [list [--status S] | get <jobId> | cancel <jobId>]
 *   mrs callbacks                          the signing secret of job callbacks (and their log's id)
 *   mrs key                                the account, plan and balance behind the key
 *
 * `render` and `templates render` take `--webhook-url <url>` (the job's render events are posted there, signed with
 * the callbacks secret) and `--metadata <json object>` (echoed on the job and in every event).
 *
 * MRS_API_KEY holds the key, MRS_API_URL the service (default http://127.0.0.1:8787). A job file is
 * `{ "type": "image" | "video", "config": {...} }`; a `path`, `fontPath` or `audioFilePath` in it that names an
 * existing file (relative to the job file) is uploaded first and replaced by its storage path.
 */
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { parseArgs } from "node:util";
import { ApiError, createClient, data, type Client, type Job, type operations } from "./index.ts";

/** A job file: the body of createJob (`{ "type": "image" | "video", "config": {...} }`). */
type JobRequest = operations["createJob"]["requestBody"]["content"]["application/json"];

const FILE_FIELDS = new Set(["path", "fontPath", "audioFilePath"]);

const usage = `usage: mrs render <job.json> [--out <file>] [--webhook-url <url>] [--metadata <json>] | validate <job.json>
       mrs templates [list | render <id> ...] | batches [list] | files [list|upload <file>|delete <id>]
       mrs jobs [list|get <id>|cancel <id>] | callbacks | key
  (npm run cli -- <command> ...)

commands:
  render <job.json>        upload the local files the job names, create it, follow its progress, download the output
  validate <job.json>      check a job without creating it (exit 1 when invalid)
  templates [list]         your templates
  templates render <id>    render a saved template once (then as render does)
  batches [list]           your template batches
  files [list]             your files
  files upload <file>      upload a file
  files delete <fileId>    delete a file
  jobs [list]              your jobs
  jobs get <jobId>         one job
  jobs cancel <jobId>      cancel a job
  callbacks                the signing secret of job callbacks (and their log's id)
  key                      the account, plan and balance behind the key

options:
  --out <file>             render, templates render: where the output goes (default: the job file's or template's
                           name with the output's extension)
  --webhook-url <url>      render, templates render: the job's render events are posted there, signed with the
                           callbacks secret
  --metadata <json>        render, templates render: a JSON object echoed on the job and in every event
  --var <name=value>       templates render: a variable (repeatable; over --vars)
  --vars <file.json>       templates render: the variables as a JSON object
  --no-wait                templates render: print the created job and exit
  --ttl <hours>            files upload: how long the file is kept
  --status <status>        jobs list, batches list: only those in this status
  --template <id>          batches list: only this template's batches
  -h, --help               this help

environment: MRS_API_KEY (required), MRS_API_URL (default http://127.0.0.1:8787)`;

/** A usage mistake found while reading the options' values: said in one line, exit 2. */
class UsageError extends Error {}

/** What is wrong with a command and its arguments, if anything. */
const commandProblem = (command: string, sub?: string, arg?: string): string | undefined => {
  const needs = (what: string) => `${[command, sub].filter(Boolean).join(" ")} needs ${what}`;
  switch (command) {
    case "render":
    case "validate":
      return sub ? undefined : needs("a job file");
    case "templates":
      if (sub === undefined || sub === "list") return undefined;
      if (sub === "render") return arg ? undefined : needs("a template id");
      return `unknown command templates ${sub}`;
    case "batches":
      return sub === undefined || sub === "list" ? undefined : `unknown command batches ${sub}`;
    case "files":
      if (sub === undefined || sub === "list") return undefined;
      if (sub === "upload") return arg ? undefined : needs("a file");
      if (sub === "delete") return arg ? undefined : needs("a file id");
      return `unknown command files ${sub}`;
    case "jobs":
      if (sub === undefined || sub === "list") return undefined;
      if (sub === "get" || sub === "cancel") return arg ? undefined : needs("a job id");
      return `unknown command jobs ${sub}`;
    case "callbacks":
    case "key":
      return undefined;
    default:
      return `unknown command ${command}`;
  }
};

/** Says what is wrong with the command line in one line, and exits 2. */
const usageError = (message: string): number => {
  process.stderr.write(`mrs: ${message} (npm run cli -- --help lists the commands and options)\n`);
  return 2;
};

/** `--webhook-url` and `--metadata` (a JSON object) as the request fields they set. */
const callbackFields = (values: { "webhook-url"?: string; metadata?: string }) => {
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

/** The variables of `templates render`: a JSON file's object, then each `--var name=value` over it. */
const variablesOf = (vars: string | undefined, pairs: string[] = []) => {
  const out: Record<string, unknown> = vars
    ? (JSON.parse(readFileSync(vars, "utf8")) as Record<string, unknown>)
    : {};
  for (const pair of pairs) {
    const at = pair.indexOf("=");
    if (at < 1) throw new UsageError(`--var takes name=value, not ${JSON.stringify(pair)}`);
    out[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return out;
};

const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);

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
const follow = async (client: Client, created: { jobId: string; estimatedTokens: number }, out: string) => {
  process.stderr.write(`job ${created.jobId} (${created.estimatedTokens} tokens reserved)\n`);
  let final: Job | undefined;
  for await (const e of client.events(created.jobId)) {
    if (e.event === "progress")
      process.stderr.write(bar(e.data.progress?.percent ?? 0, e.data.progress?.stage, e.data.status));
    else final = e.data;
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

const main = async (argv: string[]): Promise<number> => {
  // `npm run cli` runs in the project's folder; paths on the command line are the caller's (npm's INIT_CWD).
  if (process.env.INIT_CWD) process.chdir(process.env.INIT_CWD);
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        out: { type: "string" },
        ttl: { type: "string" },
        status: { type: "string" },
        template: { type: "string" },
        var: { type: "string", multiple: true },
        vars: { type: "string" },
        "no-wait": { type: "boolean" },
        "webhook-url": { type: "string" },
        metadata: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (e) {
    const { code, message } = e as { code?: string; message: string };
    return usageError(
      code === "ERR_PARSE_ARGS_UNKNOWN_OPTION"
        ? `unknown option ${/'([^']+)'/.exec(message)?.[1]}`
        : message.split(". ")[0]!,
    );
  }
  const { positionals, values } = parsed;
  const [command, sub, arg] = positionals;
  if (values.help) {
    process.stdout.write(`${usage}\n`);
    return 0;
  }
  if (!command) {
    process.stdout.write(`${usage}\n`);
    return 2;
  }
  const problem = commandProblem(command, sub, arg);
  if (problem) return usageError(problem);
  const apiKey = process.env.MRS_API_KEY;
  if (!apiKey)
    return usageError("MRS_API_KEY is not set (an API key: npm run key -- --email you@example.com)");
  const client = createClient({ baseUrl: process.env.MRS_API_URL ?? "http://127.0.0.1:8787", apiKey });
  switch (command) {
    case "render":
      if (!sub) break;
      return render(client, sub, values.out, callbackFields(values));
    case "validate": {
      if (!sub) break;
      const result = await data(client.api.POST("/api/v1/jobs/validate", { body: readJob(sub) }));
      print(result);
      return result.isValid ? 0 : 1;
    }
    case "files":
      if (!sub || sub === "list") return (print(await data(client.api.GET("/api/v1/files"))), 0);
      if (sub === "upload" && arg)
        return (
          print(
            await client.upload(readFileSync(arg), basename(arg), {
              ttlHours: values.ttl ? Number(values.ttl) : undefined,
            }),
          ),
          0
        );
      if (sub === "delete" && arg)
        return (
          print(
            await data(client.api.DELETE("/api/v1/files/{fileId}", { params: { path: { fileId: arg } } })),
          ),
          0
        );
      break;
    case "jobs":
      if (!sub || sub === "list") {
        const query = values.status ? { status: values.status } : {};
        return (print(await data(client.api.GET("/api/v1/jobs", { params: { query } }))), 0);
      }
      if (sub === "get" && arg)
        return (
          print(await data(client.api.GET("/api/v1/jobs/{jobId}", { params: { path: { jobId: arg } } }))), 0
        );
      if (sub === "cancel" && arg)
        return (
          print(await data(client.api.DELETE("/api/v1/jobs/{jobId}", { params: { path: { jobId: arg } } }))),
          0
        );
      break;
    case "templates":
      if (!sub || sub === "list") return (print(await data(client.api.GET("/api/v2/templates"))), 0);
      if (sub === "render" && arg) {
        const created = await data(
          client.api.POST("/api/v2/templates/{id}/renders", {
            params: { path: { id: arg } },
            body: { variables: variablesOf(values.vars, values.var), ...callbackFields(values) },
          }),
        );
        if (values["no-wait"]) return (print(created), 0);
        return follow(client, created, values.out ?? arg);
      }
      break;
    case "batches":
      if (!sub || sub === "list") {
        const query = {
          ...(values.template && { templateId: values.template }),
          ...(values.status && { status: values.status }),
        };
        return (print(await data(client.api.GET("/api/v2/batches", { params: { query } }))), 0);
      }
      break;
    case "callbacks":
      return (print(await data(client.api.GET("/api/v2/webhooks/job-callbacks"))), 0);
    case "key": {
      print({
        account: await data(client.api.GET("/api/v1/account")),
        usage: await data(client.api.GET("/api/v1/billing/usage")),
      });
      return 0;
    }
  }
  return usageError(`unknown command ${command}`);
};

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    if (e instanceof UsageError) process.exit(usageError(e.message));
    if (e instanceof ApiError) {
      process.stderr.write(`error ${e.status}: ${e.message}\n`);
      for (const f of e.details?.errors ?? []) process.stderr.write(`  ${f.field ?? ""}: ${f.message}\n`);
    } else process.stderr.write(`error: ${(e as Error).message}\n`);
    process.exit(1);
  },
);
