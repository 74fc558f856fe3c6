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
 *
 * This file reads the command line (cli/command-line.ts) and runs the command's group: cli/jobs.ts, cli/files.ts,
 * cli/templates.ts, cli/account.ts.
 */
import { createClient } from "./index.ts";
import { callbacksCommand, keyCommand } from "./cli/account.ts";
import { commandProblem, readCommandLine, usage, usageError, type CommandGroup } from "./cli/command-line.ts";
import { filesCommand } from "./cli/files.ts";
import { jobsCommand, renderCommand, validateCommand } from "./cli/jobs.ts";
import { reportFailure } from "./cli/output.ts";
import { batchesCommand, templatesCommand } from "./cli/templates.ts";

/** Each command's group, by the command's name. */
const COMMANDS = new Map<string, CommandGroup>([
  ["render", renderCommand],
  ["validate", validateCommand],
  ["templates", templatesCommand],
  ["batches", batchesCommand],
  ["files", filesCommand],
  ["jobs", jobsCommand],
  ["callbacks", callbacksCommand],
  ["key", keyCommand],
]);

const main = async (argv: string[]): Promise<number> => {
  // `npm run cli` runs in the project's folder; paths on the command line are the caller's (npm's INIT_CWD).
  if (process.env.INIT_CWD) process.chdir(process.env.INIT_CWD);
  const { positionals, values } = readCommandLine(argv);
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
  return (
    (await COMMANDS.get(command)?.(client, sub, arg, values)) ?? usageError(`unknown command ${command}`)
  );
};

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => process.exit(reportFailure(e)),
);
