/** The MCP test client: the official SDK's client over Streamable HTTP, its fetch this Worker's own (helpers.ts). */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { BASE, send } from "./helpers.ts";

export const connect = async (headers: Record<string, string>) => {
  const client = new Client({ name: "test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${BASE}/mcp`), {
    requestInit: { headers },
    fetch: (url, init) => send(new Request(url, init)),
  });
  await client.connect(transport);
  return client;
};

type Result = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: unknown };

/** Calls a tool: whether it is a tool error, and its text content as JSON. */
export const mcpCall = async (client: Client, name: string, args: Record<string, unknown> = {}) => {
  const r = (await client.callTool({ name, arguments: args })) as Result;
  return {
    isError: r.isError ?? false,
    body: JSON.parse(r.content[0]!.text) as Record<string, unknown>,
    structured: r.structuredContent,
  };
};
