/**
 * The MCP tools: those the routes declare in their describe() (`mcp`, src/lib/openapi-route.ts), read from the app.
 * A tool stands for its route: it answers with the route's answer schema (unless it declares its own: JsonCut's
 * names), it requires what the permission middlewares in front of the route require (src/auth/scopes.ts, `Need`)
 * and a call of it counts against the route's rate limits (src/mcp/routes.ts), so a key can do through MCP exactly
 * what it can do over HTTP and nothing more.
 */
import type { Hono } from "hono";
import type * as v from "valibot";
import type { AppEnv } from "../app-env.ts";
import { meets, needOf, type Need } from "../auth/scopes.ts";
import type { CallerCtx } from "../context.ts";
import { jsonSchemaOf } from "../docs/json-schema.ts";
import { declaredRoutes } from "../lib/declared-routes.ts";
import { Forbidden } from "../lib/errors.ts";
import type { RouteRateLimit } from "../lib/rate-limit.ts";
import type { RouteTool } from "../lib/route-tool.ts";
import { parseOrThrow } from "../lib/validate.ts";

export interface McpTool {
  description: string;
  input: v.GenericSchema;
  /** The answer: the route's answer schema (`data` of its envelope), or the tool's own. */
  output: v.GenericSchema;
  /** The route it stands for. */
  route: { method: string; path: string };
  /** The route's rate limits, which a call counts against (the general limit for a public route's tool). */
  rateLimit: RouteRateLimit;
  /** What the route's permission middlewares require. */
  needs: Need[];
  declared: RouteTool;
}

/** The tools the routes of `app` declare, by name. */
export const toolsOf = (app: Hono<AppEnv>): ReadonlyMap<string, McpTool> => {
  const tools = new Map<string, McpTool>();
  for (const { method, path, doc, before } of declaredRoutes(app)) {
    if (!doc.mcp) continue;
    const needs = before.map(needOf).filter((need) => need !== undefined);
    // Fail closed: a tool must never run where its route would have checked a permission this walk did not find.
    if (!doc.public && needs.length === 0)
      throw new Error(
        `${method} ${path}: no permission middleware found in front of the route its tools stand for`,
      );
    for (const [name, declared] of Object.entries(doc.mcp)) {
      const seen = tools.get(name);
      if (seen?.declared === declared) continue; // one description serving two methods (GET and HEAD)
      if (seen) throw new Error(`The MCP tool ${name} is declared by two routes`);
      const output = declared.output ?? doc.ok.data;
      if (!output)
        throw new Error(`The MCP tool ${name}: its route answers no JSON, so it must declare its output`);
      tools.set(name, {
        description: declared.description,
        input: declared.input,
        output,
        route: { method, path },
        rateLimit: doc.rateLimit ?? "general",
        needs,
        declared,
      });
    }
  }
  return tools;
};

/** The tools as MCP lists them: name, description, and the JSON Schemas of their input and output. */
export const toolList = (tools: ReadonlyMap<string, McpTool>) =>
  [...tools].map(([name, t]) => ({
    name,
    description: t.description,
    inputSchema: jsonSchemaOf(t.input, { mode: "input", target: "draft-07" }) as { type: "object" },
    outputSchema: jsonSchemaOf(t.output, { mode: "output", target: "draft-07" }) as { type: "object" },
  }));

const READS = new Set(["GET", "HEAD"]);

/** The refusal of a need the caller does not meet, in the words the tools have always used. */
const refusal = (need: Need, method: string) =>
  "scope" in need
    ? new Forbidden(`This API key lacks the scope ${need.scope}`)
    : new Forbidden(`This key cannot ${READS.has(method) ? "read" : "change"} ${need.resource}`);

/** Runs a tool for the caller: its route's permission first, then its input, then the verb. */
export const runTool = async (
  tools: ReadonlyMap<string, McpTool>,
  ctx: CallerCtx,
  name: string,
  args: unknown,
  origin: string,
) => {
  const tool = tools.get(name);
  if (!tool) return undefined;
  for (const need of tool.needs)
    if (!meets(ctx.caller, need, tool.route.method)) throw refusal(need, tool.route.method);
  const input = parseOrThrow(tool.input, (tool.declared.from ?? ((a) => a))(args ?? {}));
  return tool.declared.run(ctx, input, origin);
};
