/**
 * The developer surface over real HTTP against the service `npm start` runs: an AI agent's path through the MCP
 * endpoint (the official client SDK), a job followed with Server-Sent Events, and the OpenAPI document.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, inject, it } from "vitest";
import { decodeImage, distance } from "./pixels.ts";

const base = inject("baseUrl");
const key = inject("apiKey");

const tool = async (client: Client, name: string, args: Record<string, unknown> = {}) => {
  const r = (await client.callTool({ name, arguments: args })) as {
    isError?: boolean;
    content: { text: string }[];
  };
  expect(r.isError ?? false, r.content[0]!.text).toBe(false);
  return JSON.parse(r.content[0]!.text) as Record<string, unknown>;
};

const config = {
  width: 320,
  height: 180,
  backgroundColor: "#00ff00",
  layers: [{ type: "rectangle", x: 0, y: 0, width: 160, height: 180, fill: "#ff0000" }],
};

describe("MCP over HTTP", () => {
  it("lets an agent read the schema, validate, render and fetch the output", async () => {
    const client = new Client({ name: "e2e-agent", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${key}` } },
      }),
    );
    const schema = await tool(client, "get_schema", { name: "image" });
    expect((schema.schema as { properties: object }).properties).toHaveProperty("layers");
    expect(await tool(client, "validate_config", { type: "image", config })).toMatchObject({ isValid: true });
    const { jobId } = (await tool(client, "create_job", { type: "image", config })) as { jobId: string };
    let job: Record<string, unknown> = {};
    for (const deadline = Date.now() + 45_000; Date.now() < deadline;) {
      job = await tool(client, "get_job", { jobId });
      if (job.status === "COMPLETED" || job.status === "FAILED") break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(job.status).toBe("COMPLETED");
    const link = await tool(client, "get_download_link", { fileId: job.outputFileId, expiresIn: 120 });
    const png = new Uint8Array(await (await fetch(link.url as string)).arrayBuffer());
    const px = decodeImage(png, 320, 180);
    expect(distance(px.at(80, 90), [255, 0, 0])).toBeLessThan(8);
    expect(distance(px.at(240, 90), [0, 255, 0])).toBeLessThan(8);
    await client.close();
  });
});

describe("Server-Sent Events over HTTP", () => {
  it("follows a video job from PENDING to done without polling", async () => {
    const created = await fetch(`${base}/api/v1/jobs`, {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "application/json" },
      body: JSON.stringify({
        type: "video",
        config: {
          width: 160,
          height: 90,
          fps: 10,
          clips: [{ duration: 1, layers: [{ type: "fill-color", color: "#123456" }] }],
        },
      }),
    });
    const { jobId } = ((await created.json()) as { data: { jobId: string } }).data;
    const res = await fetch(`${base}/api/v1/jobs/${jobId}/events`, { headers: { "x-api-key": key } });
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const text = await res.text(); // the stream closes after `done`
    const events = text
      .split("\n\n")
      .filter((b) => b.startsWith("event:") || b.includes("\nevent:"))
      .map((b) => ({
        event: /event: ?(\w+)/.exec(b)![1],
        data: JSON.parse(/data: ?(.*)/.exec(b)![1]!) as { status: string },
      }));
    expect(events.at(-1)).toMatchObject({ event: "done", data: { status: "COMPLETED" } });
    const statuses = events.filter((e) => e.event === "progress").map((e) => e.data.status);
    expect(statuses.at(-1)).toBe("COMPLETED");
    expect(new Set(statuses).size).toBeGreaterThanOrEqual(2);
  });
});

describe("the API description", () => {
  it("is served with its UI, offline", async () => {
    const doc = (await (await fetch(`${base}/api/v1/user-api/docs`)).json()) as {
      info: { version: string };
      paths: object;
    };
    expect(doc.info.version).toBe("1.0.0");
    expect(Object.keys(doc.paths)).toContain("/api/v1/jobs/{jobId}/events");
    const ui = await fetch(`${base}/api/v1/user-api/docs/ui`);
    expect(await ui.text()).toContain("swagger-ui-bundle.js");
  });
});
