/**
 * /mcp: a remote MCP server over Streamable HTTP (stateless: every request carries the caller's API key, in
 * `x-api-key` or `Authorization: Bearer`), whose tools are those the API's routes declare (tools.ts). A tools/call
 * counts against the rate limits of its tool's route, in the same credential gate as the route itself (create_job as
 * POST /api/v1/jobs), so MCP is no way around them; one tools/call per request. A tool's failure is answered as an
 * MCP tool error carrying the API's error envelope, so an agent reads the same message a developer would.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { Hono, type Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env.ts";
import { callerCtx, requireMcpCaller } from "../auth/api-key.ts";
import type { CallerCtx } from "../context.ts";
import { readTextBounded } from "../lib/body.ts";
import { errorBody } from "../lib/envelope.ts";
import { DomainError, ValidationFailed } from "../lib/errors.ts";
import { tooDeep } from "../lib/json-depth.ts";
import { isJsonType, MAX_JSON_BYTES, refuseTooDeep } from "../lib/validate.ts";
import { MOUNTS } from "../paths.ts";
import { readResource, resourceList } from "./resources.ts";
import { runTool, toolList, toolsOf, type McpTool } from "./tools.ts";

type Tools = ReadonlyMap<string, McpTool>;

const serverFor = (tools: Tools, ctx: CallerCtx, origin: string) => {
  const server = new Server(
    { name: "media-render-service", version: ctx.env.SERVICE_VERSION },
    {
      capabilities: { tools: {}, resources: {} },
      instructions:
        "Render images and videos from JSON configs. Read a config schema (get_schema, or the resources " +
        "schema://image and schema://video), check a config (validate_config), create_job (or render_template " +
        "for a saved template), poll get_job until COMPLETED, then get_download_link on outputFileId. How to write " +
        `configs (the grammar in brief, worked examples, limits, errors): ${origin}${MOUNTS.llms}`,
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: toolList(tools) }));
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: resourceList() }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    try {
      return readResource(request.params.uri);
    } catch (e) {
      if (!(e instanceof DomainError)) throw e;
      // A protocol error (resources have no tool-error form): the API's message, and its envelope as data.
      throw new McpError(ErrorCode.InvalidParams, e.message, errorBody(e.message, e.details));
    }
  });
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args } = request.params;
    try {
      const result = await runTool(tools, ctx, name, args, origin);
      if (result === undefined)
        return {
          isError: true,
          content: [{ type: "text", text: JSON.stringify(errorBody(`Unknown tool: ${name}`)) }],
        };
      return {
        content: [{ type: "text", text: JSON.stringify(result) }],
        structuredContent: result as Record<string, unknown>,
      };
    } catch (e) {
      if (!(e instanceof DomainError)) throw e;
      return {
        isError: true,
        content: [{ type: "text", text: JSON.stringify(errorBody(e.message, e.details)) }],
      };
    }
  });
  return server;
};

/** The rate limits of the one tool a JSON-RPC message (or batch) calls, if it calls one. */
const calledRateLimit = (tools: Tools, text: string) => {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return undefined; // the transport answers the parse error
  }
  const calls = (Array.isArray(message) ? message : [message]).filter(
    (m): m is { params?: { name?: unknown } } => (m as { method?: unknown })?.method === "tools/call",
  );
  if (calls.length > 1)
    throw new ValidationFailed([
      { field: "body", message: "Send one tools/call per request", code: "ONE_TOOL_CALL_PER_REQUEST" },
    ]);
  const name = calls[0]?.params?.name;
  return typeof name === "string" ? tools.get(name)?.rateLimit : undefined;
};

/** Reads the message before authentication, so the credential's gate counts a tools/call as its tool's route. */
const countAsTheTool = (tools: () => Tools) =>
  createMiddleware<AppEnv>(async (c, next) => {
    if (c.req.method === "POST") {
      const text = await readTextBounded(c.req.raw, MAX_JSON_BYTES);
      c.set("mcpMessage", text);
      // A body nested too deep is not parsed here: it is refused once the caller is known (below).
      const rateLimit = tooDeep(text) ? undefined : calledRateLimit(tools(), text);
      if (rateLimit) c.set("rateLimitAs", rateLimit);
    }
    await next();
  });

/** Answers one MCP request of the authenticated caller. */
const answer = async (c: Context<AppEnv>, tools: Tools) => {
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    maxRequestBodySize: MAX_JSON_BYTES,
  });
  const message = c.var.mcpMessage;
  // The body's nesting is checked before the SDK parses and walks it (the same bound as every other JSON route's);
  // the transport then reads the very text read above.
  if (message !== undefined && isJsonType(c.req.header("content-type"))) refuseTooDeep(message);
  const server = serverFor(tools, callerCtx(c), new URL(c.req.url).origin);
  await server.connect(transport);
  const request =
    message === undefined
      ? c.req.raw
      : new Request(c.req.url, { method: c.req.method, headers: c.req.raw.headers, body: message });
  try {
    return await transport.handleRequest(request);
  } finally {
    c.executionCtx.waitUntil(server.close());
  }
};

/** /mcp; `app` is the whole API, whose routes declare the tools (read once per isolate, on first use). */
export const mcpRoutes = (app: () => Hono<AppEnv>) => {
  let cached: Tools | undefined;
  const tools = () => (cached ??= toolsOf(app()));
  return new Hono<AppEnv>().all("/", countAsTheTool(tools), requireMcpCaller, (c) => answer(c, tools()));
};
