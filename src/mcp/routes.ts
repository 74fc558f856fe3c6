/**
 * /mcp: a remote MCP server over Streamable HTTP (stateless: every request carries the caller's API key, in
 * `x-api-key` or `Authorization: Bearer`), whose tools are the API's own verbs (tools.ts). A tool's failure is
 * answered as an MCP tool error carrying the API's error envelope, so an agent reads the same message a
 * developer would.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { Hono } from "hono";
import type { AppEnv } from "../app-env";
import { callerCtx, requireMcpCaller } from "../auth/api-key";
import type { CallerCtx } from "../context";
import { errorBody } from "../lib/envelope";
import { DomainError } from "../lib/errors";
import { readBytesBounded } from "../lib/body";
import { isJsonType, MAX_JSON_BYTES, refuseTooDeep } from "../lib/validate";
import { runTool, toolList } from "./tools";

const serverFor = (ctx: CallerCtx, origin: string) => {
  const server = new Server(
    { name: "media-render-service", version: ctx.env.SERVICE_VERSION },
    {
      capabilities: { tools: {} },
      instructions:
        "Render images and videos from JSON configs. Read a config schema (get_schema), check a config " +
        "(validate_config), create_job, poll get_job until COMPLETED, then get_download_link on outputFileId.",
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: toolList() }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args } = request.params;
    try {
      const result = await runTool(ctx, name, args, origin);
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

export const mcpRoutes = new Hono<AppEnv>().all("/", requireMcpCaller, async (c) => {
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    maxRequestBodySize: MAX_JSON_BYTES,
  });
  let request = c.req.raw;
  if (request.method === "POST" && isJsonType(c.req.header("content-type"))) {
    // Read here so the body's nesting is checked before the SDK parses and walks it (the same bound as every
    // other JSON route's); the transport then reads the very bytes handed back.
    const bytes = await readBytesBounded(request, MAX_JSON_BYTES);
    refuseTooDeep(new TextDecoder().decode(bytes));
    request = new Request(request, { body: bytes });
  }
  const server = serverFor(callerCtx(c), new URL(c.req.url).origin);
  await server.connect(transport);
  try {
    return await transport.handleRequest(request);
  } finally {
    c.executionCtx.waitUntil(server.close());
  }
});
