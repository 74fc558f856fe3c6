/**
 * The MCP server as JsonCut's clients know it (jsoncut/jsoncut-mcp-server): its tool names beside ours
 * (get_image_schema, get_video_schema, create_image_config, create_video_config, validate_config), the config
 * schemas as resources (schema://image, schema://video), the instructions' link to /llms.txt; and the tools this
 * round added of our own: render_template, create_job's webhookUrl and metadata.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { configJsonSchema } from "../../src/schemas/json-schemas.ts";
import { body, call, json, newAccount } from "./helpers.ts";
import { connect, mcpCall } from "./mcp-client.ts";

describe("JsonCut's MCP names", () => {
  it("answers get_image_schema and get_video_schema with the JSON Schema itself, as the schema routes serve it", async () => {
    const { key } = await newAccount();
    const client = await connect({ "x-api-key": key });
    for (const name of ["image", "video"] as const) {
      const r = await mcpCall(client, `get_${name}_schema`);
      expect(r.isError).toBe(false);
      expect(r.body).toEqual(configJsonSchema(name));
      const served = await body<{ schema: unknown }>(await call(`/api/v1/schemas/${name}`));
      expect(r.body).toEqual(served.data!.schema);
    }
    expect((await mcpCall(client, "get_image_schema", { extra: 1 })).isError).toBe(true);
    await client.close();
  });

  it("serves schema://image and schema://video as resources, and refuses another URI", async () => {
    const { key } = await newAccount();
    const client = await connect({ "x-api-key": key });
    const { resources } = await client.listResources();
    expect(resources.map((r) => [r.uri, r.mimeType])).toEqual([
      ["schema://image", "application/json"],
      ["schema://video", "application/json"],
    ]);
    const read = await client.readResource({ uri: "schema://video" });
    expect(read.contents).toHaveLength(1);
    expect(JSON.parse(String((read.contents[0] as { text: string }).text))).toEqual(
      configJsonSchema("video"),
    );
    await expect(client.readResource({ uri: "schema://audio" })).rejects.toThrow(/Unknown resource/);
    await expect(client.readResource({ uri: "file:///etc/passwd" })).rejects.toThrow(/Unknown resource/);
    await client.close();
  });

  it("links the config guide from the server's instructions", async () => {
    const { key } = await newAccount();
    const client = await connect({ "x-api-key": key });
    expect(client.getInstructions()).toContain("http://127.0.0.1:8787/llms.txt");
    await client.close();
  });

  it("writes configs with JsonCut's defaults and the grammar's verdict, then validate_config and create_job take them", async () => {
    const { key } = await newAccount();
    const client = await connect({ "x-api-key": key });
    const image = await mcpCall(client, "create_image_config", {
      backgroundColor: "#112233",
      layers: [{ type: "text", text: "Hi", position: "center" }],
    });
    expect(image.isError).toBe(false);
    expect(image.body).toEqual({
      type: "image",
      config: {
        width: 1920,
        height: 1080,
        backgroundColor: "#112233",
        layers: [{ type: "text", text: "Hi", position: "center" }],
      },
      isValid: true,
      errors: [],
      warnings: [],
    });
    const video = await mcpCall(client, "create_video_config", {
      clips: [{ duration: 1, layers: [{ type: "title", text: "Hi" }] }],
    });
    expect(video.body).toMatchObject({
      type: "video",
      config: { width: 1280, height: 720, fps: 25, format: "mp4" },
      isValid: true,
    });
    // Given values win; other properties pass through to the grammar, whose errors come back at their fields.
    const bad = await mcpCall(client, "create_image_config", {
      width: 100,
      height: 50,
      layers: [{ type: "text", text: "x", fontSize: -3 }],
      verbose: true,
    });
    expect(bad.body).toMatchObject({
      config: { width: 100, height: 50, verbose: true },
      isValid: false,
      errors: [
        expect.objectContaining({ field: "config.layers[0].fontSize" }),
        expect.objectContaining({
          field: "config.verbose",
          message: 'Unknown property "verbose" in the image config',
        }),
      ],
    });
    // What create_image_config answers is what validate_config and create_job take.
    const { type, config } = image.body as { type: string; config: Record<string, unknown> };
    const checked = await mcpCall(client, "validate_config", { type, config });
    expect(checked.body).toMatchObject({ isValid: true, estimatedTokens: 3 });
    const created = await mcpCall(client, "create_job", { type, config });
    expect(created.body).toMatchObject({ status: "PENDING", type: "IMAGE" });
    // JsonCut's validate_config takes an apiKey argument: accepted and unused (the key is the request's).
    expect((await mcpCall(client, "validate_config", { type, config, apiKey: "jc_live_x" })).isError).toBe(
      false,
    );
    await client.close();
  });

  it("needs the validation route's permission for the config tools, as for validate_config", async () => {
    const mediaOnly = await newAccount({ permissions: [{ resource: "media", action: "full" }] });
    const client = await connect({ "x-api-key": mediaOnly.key });
    for (const name of ["create_image_config", "validate_config"]) {
      const r = await mcpCall(client, name, { type: "image", config: {}, layers: [] });
      expect(r, name).toMatchObject({ isError: true, body: { error: "This key cannot change jobs" } });
    }
    // The schemas need no permission, as their routes need none.
    expect((await mcpCall(client, "get_video_schema")).isError).toBe(false);
    await client.close();
  });
});

describe("MCP: template renders and job callbacks", () => {
  it("render_template creates one job from a template, with metadata; another account's template is not found", async () => {
    const owner = await newAccount();
    const created = await call(
      "/api/v2/templates",
      json(
        "POST",
        {
          name: "MCP card",
          type: "image",
          config: {
            width: 40,
            height: 20,
            layers: [
              { type: "text", text: "{{title}}", x: 1, y: 1 },
              { type: "text", text: "sale", x: 1, y: 10, when: { var: "badge", equals: "sale" } },
            ],
          },
        },
        owner.key,
      ),
    );
    const templateId = (await body<{ id: string }>(created)).data!.id;
    const client = await connect({ "x-api-key": owner.key });
    const ran = await mcpCall(client, "render_template", {
      templateId,
      variables: { title: "Hi", badge: "sale" },
      metadata: { via: "mcp" },
    });
    expect(ran.isError).toBe(false);
    expect(ran.body).toMatchObject({ status: "PENDING", type: "IMAGE", estimatedTokens: 4 });
    const job = await mcpCall(client, "get_job", { jobId: ran.body.jobId });
    expect(job.body).toMatchObject({ metadata: { via: "mcp" } });
    expect((job.body.config as { layers: unknown[] }).layers).toHaveLength(2);
    const missing = await mcpCall(client, "render_template", { templateId, variables: {} });
    expect(missing).toMatchObject({
      isError: true,
      body: {
        error: "The variables do not fit the template",
        details: { errors: [{ field: "variables.title" }] },
      },
    });
    const other = await newAccount();
    const stranger = await connect({ "x-api-key": other.key });
    expect(
      (await mcpCall(stranger, "render_template", { templateId, variables: { title: "x" } })).body,
    ).toMatchObject({
      success: false,
      error: "Template not found",
    });
    const reader = await connect({
      "x-api-key": (await newAccount({ permissions: [{ resource: "jobs", action: "read" }] })).key,
    });
    const refused = await mcpCall(reader, "render_template", { templateId, variables: { title: "x" } });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.body)).toContain("renders:create");
    const n = await env.DB.prepare("SELECT count(*) AS n FROM jobs WHERE user_id = ?")
      .bind(other.userId)
      .first();
    expect(n).toEqual({ n: 0 });
    await client.close();
  });

  it("create_job takes webhookUrl and metadata with the API's checks", async () => {
    const { key } = await newAccount();
    const client = await connect({ "x-api-key": key });
    const config = { width: 10, height: 10, layers: [{ type: "text", text: "x" }] };
    const ok = await mcpCall(client, "create_job", {
      type: "image",
      config,
      webhookUrl: "http://127.0.0.1:9/hook",
      metadata: { a: 1 },
    });
    expect(ok.isError).toBe(false);
    const job = await mcpCall(client, "get_job", { jobId: ok.body.jobId });
    expect(job.body).toMatchObject({ webhookUrl: "http://127.0.0.1:9/hook", metadata: { a: 1 } });
    const ssrf = await mcpCall(client, "create_job", {
      type: "image",
      config,
      webhookUrl: "http://169.254.169.254/latest/meta-data",
    });
    expect(ssrf).toMatchObject({
      isError: true,
      body: { details: { errors: [{ field: "webhookUrl", code: "URL_NOT_ALLOWED" }] } },
    });
    const big = await mcpCall(client, "create_job", {
      type: "image",
      config,
      metadata: { x: "y".repeat(5000) },
    });
    expect(big).toMatchObject({
      isError: true,
      body: { details: { errors: [{ code: "METADATA_TOO_LARGE" }] } },
    });
    await client.close();
  });
});
