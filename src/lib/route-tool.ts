/**
 * A route's MCP tool (`mcp` in its describe(), src/lib/openapi-route.ts): what an agent calls to do what the route
 * does. The route supplies the rest: the tool answers with the route's answer schema, needs the route's permission
 * and counts against the route's rate limits (src/mcp/tools.ts reads them from the app), so a key can do through MCP
 * exactly what it can do over HTTP and nothing more.
 */
import type * as v from "valibot";
import type { CallerCtx } from "../context.ts";

export interface RouteTool<
  S extends v.GenericSchema = v.GenericSchema,
  O extends v.GenericSchema = v.GenericSchema,
> {
  /** What the tool does and when to call it, for an agent. */
  description: string;
  /** Its arguments: the route's body, query or path (an id named as the route's other tools name it). */
  input: S;
  /**
   * The answer, only when it is not the route's (`ok.data`): JsonCut's names answer JsonCut's shapes, doing what
   * the route does (its permission, its rate limits).
   */
  output?: O;
  /** Turns the arguments into what `input` reads (list_jobs: numbers as query-string text). */
  from?: (args: unknown) => unknown;
  /** Calls the route's verb, as its handler does. */
  run(ctx: CallerCtx, input: v.InferOutput<S>, origin: string): Promise<v.InferOutput<O>>;
}

/** Declares a tool (infers its input's type for `run`). */
export const tool = <S extends v.GenericSchema, O extends v.GenericSchema = v.GenericSchema>(
  t: RouteTool<S, O>,
): RouteTool<S, O> => t;

/** A number given where a query string carries text: the route's query schema then reads it as it reads text. */
export const asQueryString = (args: unknown) =>
  typeof args === "object" && args !== null && !Array.isArray(args)
    ? Object.fromEntries(
        Object.entries(args).map(([k, value]) => [k, typeof value === "number" ? String(value) : value]),
      )
    : args;
