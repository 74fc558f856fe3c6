/**
 * The mrs command line: its help, its options, and what is wrong with a command and its arguments (said in one
 * line, exit 2), before any command runs.
 */
import { parseArgs } from "node:util";
import type { Client } from "../index.ts";

export const usage = `usage: mrs render <job.json> [--out <file>] [--webhook-url <url>] [--metadata <json>] | validate <job.json>
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

const OPTIONS = {
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
} as const;

const parse = (args: string[]) => parseArgs({ args, allowPositionals: true, options: OPTIONS });

/** The options' values, by name. */
export type Options = ReturnType<typeof parse>["values"];

/**
 * A command group (`jobs`, `files`...): runs the command its subcommand and argument name and answers the exit code;
 * undefined when they name none of its commands.
 */
export type CommandGroup = (
  client: Client,
  sub: string | undefined,
  arg: string | undefined,
  values: Options,
) => Promise<number | undefined>;

/** A usage mistake found while reading the command line or the options' values: said in one line, exit 2. */
export class UsageError extends Error {}

/** The command line's words and options; a malformed one is a UsageError naming the option. */
export const readCommandLine = (argv: string[]) => {
  try {
    return parse(argv);
  } catch (e) {
    const { code, message } = e as { code?: string; message: string };
    throw new UsageError(
      code === "ERR_PARSE_ARGS_UNKNOWN_OPTION"
        ? `unknown option ${/'([^']+)'/.exec(message)?.[1]}`
        : message.split(". ")[0]!,
    );
  }
};

/** What is wrong with a command and its arguments, if anything. */
export const commandProblem = (command: string, sub?: string, arg?: string): string | undefined => {
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
export const usageError = (message: string): number => {
  process.stderr.write(`mrs: ${message} (npm run cli -- --help lists the commands and options)\n`);
  return 2;
};
