/**
 * The template commands: `templates [list | render <templateId> ...]` (a saved template rendered once, then followed
 * as `render` does) and `batches [list]`.
 */
import { readFileSync } from "node:fs";
import { data, type Client } from "../index.ts";
import { UsageError, type CommandGroup, type Options } from "./command-line.ts";
import { callbackFields, follow } from "./jobs.ts";
import { print } from "./output.ts";

/** The variables of `templates render`: a JSON file's object, then each `--var name=value` over it. */
export const variablesOf = (vars: string | undefined, pairs: string[] = []) => {
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

const listTemplates = async (client: Client) => {
  print(await data(client.api.GET("/api/v2/templates")));
  return 0;
};

/** Renders a template once with the variables and callback fields the options give; --no-wait prints the job. */
const renderTemplate = async (client: Client, id: string, values: Options) => {
  const created = await data(
    client.api.POST("/api/v2/templates/{id}/renders", {
      params: { path: { id } },
      body: { variables: variablesOf(values.vars, values.var), ...callbackFields(values) },
    }),
  );
  if (values["no-wait"]) return (print(created), 0);
  return follow(client, created, values.out ?? id);
};

/** `mrs templates [list | render <templateId> [--var name=value]... [--vars <vars.json>] [--out <file>] [--no-wait]]`. */
export const templatesCommand: CommandGroup = async (client, sub, arg, values) => {
  if (!sub || sub === "list") return listTemplates(client);
  if (sub === "render" && arg) return renderTemplate(client, arg, values);
  return undefined;
};

/** `mrs batches [list [--template <id>] [--status S]]`. */
export const batchesCommand: CommandGroup = async (client, sub, _arg, values) => {
  if (sub && sub !== "list") return undefined;
  const query = {
    ...(values.template && { templateId: values.template }),
    ...(values.status && { status: values.status }),
  };
  print(await data(client.api.GET("/api/v2/batches", { params: { query } })));
  return 0;
};
