// The command lines of the scripts a user runs (`npm start`, `npm test`, `npm run key`, `deploy`, `bench`, `faults`,
// `image:check`, `setup`, `client:generate`): `--help` prints the script's usage, options and settings and exits 0; a
// bad option or argument prints one line naming it and exits 2, never a stack trace. Plain Node (node:util's
// parseArgs): it runs before the npm packages are installed, so `--help` answers at once and changes nothing.
import { parseArgs } from "node:util";

/**
 * @typedef {{ type: "string" | "boolean", value?: string, help: string, default?: string | boolean, multiple?: boolean }} Option
 * @typedef {{
 *   name: string,
 *   command: string,
 *   args?: string,
 *   about: string,
 *   options?: Record<string, Option>,
 *   positionals?: string,
 *   env?: Record<string, string>,
 *   check?: (values: Record<string, unknown>, positionals: string[]) => string | undefined,
 * }} CommandSpec
 */

const column = (rows) => {
  const width = Math.max(...rows.map(([left]) => left.length)) + 2;
  return rows.map(([left, right]) => `  ${left.padEnd(width)}${right}`).join("\n");
};

/** The text `--help` prints. */
export const helpText = (spec) => {
  const options = Object.entries(spec.options ?? {}).map(([name, o]) => [
    `--${name}${o.type === "string" ? ` <${o.value ?? "value"}>` : ""}${o.multiple ? " (repeatable)" : ""}`,
    `${o.help}${o.default !== undefined && o.default !== false ? ` (default: ${o.default})` : ""}`,
  ]);
  options.push(["-h, --help", "this help"]);
  const env = Object.entries(spec.env ?? {});
  return [
    `usage: ${spec.command}${spec.args ? ` -- ${spec.args}` : ""}`,
    "",
    spec.about,
    ...(spec.positionals ? ["", spec.positionals] : []),
    "",
    "options:",
    column(options),
    ...(env.length ? ["", "settings (environment variables):", column(env)] : []),
    "",
  ].join("\n");
};

/** parseArgs' messages, shortened to what the user needs: the option or argument at fault. */
const plain = (e) => {
  if (e.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") return `unknown option ${/'([^']+)'/.exec(e.message)?.[1]}`;
  return e.message.split(". ")[0].replace(/^\w/, (c) => c.toLowerCase());
};

/** Says what is wrong in one line on stderr, pointing at --help, and exits 2. */
export const usageError = (spec, message) => {
  process.stderr.write(`[${spec.name}] ${message} (${spec.command} -- --help lists the options)\n`);
  process.exit(2);
};

/**
 * Parses the script's command line (`argv`, default process.argv) by `spec`: answers `--help` and bad input itself
 * (exiting), else returns parseArgs' `{ values, positionals }`.
 * @param {CommandSpec} spec
 * @param {string[]} [argv]
 */
export const parseCommandLine = (spec, argv = process.argv.slice(2)) => {
  const options = { help: { type: "boolean", short: "h" } };
  for (const [name, o] of Object.entries(spec.options ?? {}))
    options[name] = {
      type: o.type,
      ...(o.multiple ? { multiple: true } : {}),
      ...(o.default !== undefined ? { default: o.default } : {}),
    };
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: Boolean(spec.positionals), strict: true });
  } catch (e) {
    usageError(spec, plain(e));
  }
  if (parsed.values.help) {
    process.stdout.write(helpText(spec));
    process.exit(0);
  }
  const problem = spec.check?.(parsed.values, parsed.positionals);
  if (problem) usageError(spec, problem);
  return parsed;
};
