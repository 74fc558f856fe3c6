/**
 * What an MCP tool is here: a route of the HTTP API, with that route's schemas (its body, query or path as the
 * input, its answer as the output, both published to MCP clients as JSON Schema generated from them), the
 * permission the route needs and the route's rate limits (a tools/call counts as a request to `route`:
 * src/mcp/routes.ts), so a key can do through MCP exactly what it can do over HTTP and nothing more.
 */
import type * as v from "valibot";
import type { Resource } from "../auth/caller.ts";
import type { Scope } from "../auth/scopes.ts";
import type { CallerCtx } from "../context.ts";

export interface Tool<S extends v.GenericSchema, O extends v.GenericSchema> {
  description: string;
  input: S;
  /** The answer: the route's answer schema (`data` of its envelope). */
  output: O;
  /** The route this tool stands for (`METHOD /path`): its rate limits count the call. */
  route: string;
  /** The route's permission: its resource and method (v1), or its v2 scope. */
  needs: { resource: Resource; method: "GET" | "POST" } | { scope: Scope } | null;
  /**
   * The tool is one of JsonCut's names (jsoncut-tools.ts): it does what `route` does (its permission, its rate
   * limits) but takes and answers JsonCut's shapes, not the route's.
   */
  jsoncut?: true;
  /** Turns the arguments into what `input` reads (list_jobs: numbers as query-string text). */
  from?: (args: unknown) => unknown;
  run: (ctx: CallerCtx, input: v.InferOutput<S>, origin: string) => Promise<v.InferOutput<O>>;
}

export const tool = <S extends v.GenericSchema, O extends v.GenericSchema>(t: Tool<S, O>) => t;
