/**
 * The Media Render node in a real n8n, rendering through the service started as `npm start` starts it: every
 * workflow is started by its webhook, and what n8n answers (the node's binary output) and stores (the execution's
 * data) is checked: pixels and sizes of images, the container and streams of a video, the field a refused config
 * names.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { decodeImage, distance, pngSize } from "../e2e/pixels.ts";
import { createCredential, executionOf, outputOf, webhookWorkflow } from "./workflows.ts";

const base = inject("baseUrl");
const key = inject("apiKey");
const fixtures = process.env.FIXTURES_DIR ?? join(process.cwd(), "..", "shared", "fixtures");

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${base}${path}`, { ...init, headers: { "x-api-key": key, ...init.headers } });

const bytesOf = async (res: Response) => new Uint8Array(await res.arrayBuffer());

let credential: { id: string; name: string };
beforeAll(async () => {
  credential = await createCredential({ baseUrl: base, apiKey: key });
});

describe("render image", () => {
  it("uploads the webhook's photo, renders it into an image and answers the PNG as n8n binary data", async () => {
    const flow = await webhookWorkflow(
      [
        { name: "Upload", parameters: { resource: "file", operation: "upload", binaryPropertyName: "data" } },
        {
          name: "Render",
          parameters: {
            resource: "render",
            operation: "renderImage",
            config: `={{ JSON.stringify({ width: 320, height: 180, backgroundColor: "#1e90ff", layers: [
              { type: "image", path: $json.storageUrl, x: 20, y: 20, width: 100, height: 100 } ] }) }}`,
            options: { fileName: "card.png" },
          },
        },
      ],
      credential,
      "binary",
    );
    const res = await flow.call(readFileSync(join(fixtures, "emoji.png")), "image/png");
    const png = await bytesOf(res);
    expect(res.status, new TextDecoder().decode(png.slice(0, 500))).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^image\/png/);
    expect([...png.slice(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(pngSize(png)).toEqual({ width: 320, height: 180 });
    const px = decodeImage(png, 320, 180);
    // The background far from the layer, and the uploaded emoji inside it (not the background there).
    expect(distance(px.at(300, 160), [0x1e, 0x90, 0xff])).toBeLessThan(3);
    expect(distance(px.at(70, 70), [0x1e, 0x90, 0xff])).toBeGreaterThan(60);

    const execution = await executionOf(flow.workflowId);
    expect(execution.status).toBe("success");
    const [uploaded] = outputOf(execution, "Upload");
    expect(uploaded).toMatchObject({ mimeType: "image/png", storageUrl: expect.any(String) });
    const render = execution.data.resultData.runData.Render![0]!.data!.main[0]![0]!;
    expect(render.json).toMatchObject({ status: "COMPLETED", type: "IMAGE", outputFormat: "png" });
    expect(render.binary?.data).toMatchObject({ mimeType: "image/png", fileName: "card.png" });
    // n8n's binary is the service's output file, byte for byte.
    const stored = await bytesOf(await api(`/api/v1/files/${render.json.outputFileId as string}/download`));
    expect(Buffer.compare(Buffer.from(stored), Buffer.from(png))).toBe(0);
  });

  it("surfaces a refused config in n8n with the field the service named", async () => {
    const flow = await webhookWorkflow(
      [
        {
          name: "Render",
          parameters: {
            resource: "render",
            operation: "renderImage",
            config: JSON.stringify({
              width: 320,
              height: 180,
              layers: [
                { type: "image", path: "https://example.com/a.png", x: 0, y: 0, width: -5, height: 10 },
              ],
            }),
          },
        },
      ],
      credential,
      "json",
    );
    const res = await flow.call("{}", "application/json");
    expect(res.status).toBe(500);
    const execution = await executionOf(flow.workflowId);
    expect(execution.status).toBe("error");
    const error = execution.data.resultData.error!;
    expect(error.node?.name).toBe("Render");
    expect(error.httpCode).toBe("400");
    expect(error.message).toMatch(/config\.layers\[0\]\.width/);
    expect(error.description).toMatch(/^config\.layers\[0\]\.width: .+ \(\w+\)$/m);
    // The node's own run says the same (the editor shows it on the node).
    expect(execution.data.resultData.runData.Render![0]!.error?.message).toMatch(
      /config\.layers\[0\]\.width/,
    );
  });
});

describe("render image, without waiting or failing", () => {
  it("answers the job as created when told not to wait", async () => {
    const flow = await webhookWorkflow(
      [
        {
          name: "Render",
          parameters: {
            resource: "render",
            operation: "renderImage",
            waitForCompletion: false,
            config: JSON.stringify({
              width: 64,
              height: 64,
              layers: [{ type: "text", text: "n8n", x: 4, y: 30 }],
            }),
          },
        },
      ],
      credential,
      "json",
    );
    const res = await flow.call("{}", "application/json");
    expect(res.status).toBe(200);
    const [created] = (await res.json()) as { jobId: string; status: string; type: string }[];
    expect(created).toMatchObject({
      status: "PENDING",
      type: "IMAGE",
      jobId: expect.stringMatching(/^job_/),
    });
    // The job exists for this account, and no file came with the item.
    expect((await api(`/api/v1/jobs/${created!.jobId}`)).status).toBe(200);
    const execution = await executionOf(flow.workflowId);
    expect(execution.data.resultData.runData.Render![0]!.data!.main[0]![0]!.binary).toBeUndefined();
  });

  it("with n8n's Continue setting, passes the field errors on as the item's JSON", async () => {
    const flow = await webhookWorkflow(
      [
        {
          name: "Render",
          onError: "continueRegularOutput",
          parameters: {
            resource: "render",
            operation: "renderImage",
            config: JSON.stringify({
              width: 64,
              height: -1,
              layers: [{ type: "text", text: "x", x: 0, y: 0 }],
            }),
          },
        },
      ],
      credential,
      "json",
    );
    const res = await flow.call("{}", "application/json");
    expect(res.status).toBe(200);
    const [item] = (await res.json()) as { error: string; description: string }[];
    expect(item!.error).toMatch(/^Validation failed: config\.height: /);
    expect(item!.description).toMatch(/^config\.height: .+ \(VALIDATION_ERROR\)$/m);
    expect((await executionOf(flow.workflowId)).status).toBe("success");
  });
});

describe("render video", () => {
  it("follows the job to the end and answers an mp4 that ffprobe reads", async () => {
    const flow = await webhookWorkflow(
      [
        {
          name: "Render",
          parameters: {
            resource: "render",
            operation: "renderVideo",
            config: JSON.stringify({
              width: 160,
              height: 90,
              fps: 10,
              clips: [{ duration: 1, layers: [{ type: "fill-color", color: "#00ff00" }] }],
            }),
            options: { timeout: 150 },
          },
        },
      ],
      credential,
      "binary",
    );
    const res = await flow.call("{}", "application/json");
    const mp4 = await bytesOf(res);
    expect(res.status, new TextDecoder().decode(mp4.slice(0, 500))).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^video\/mp4/);
    // ISO-BMFF: the first box is `ftyp`.
    expect(new TextDecoder().decode(mp4.slice(4, 8))).toBe("ftyp");
    const dir = mkdtempSync(join(tmpdir(), "mrs-n8n-video-"));
    try {
      const file = join(dir, "out.mp4");
      writeFileSync(file, mp4);
      const probe = JSON.parse(
        execFileSync(
          "ffprobe",
          ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", file],
          {
            encoding: "utf8",
          },
        ),
      ) as {
        format: { duration: string };
        streams: { codec_type: string; codec_name: string; width?: number }[];
      };
      const video = probe.streams.find((s) => s.codec_type === "video");
      expect(video).toMatchObject({ codec_name: "h264", width: 160, height: 90 });
      expect(Math.abs(Number(probe.format.duration) - 1)).toBeLessThanOrEqual(0.15);
      const frame = join(dir, "f.png");
      execFileSync("ffmpeg", ["-v", "error", "-ss", "0.5", "-i", file, "-frames:v", "1", "-y", frame]);
      expect(distance(decodeImage(readFileSync(frame), 160, 90).at(80, 45), [0, 255, 0])).toBeLessThan(30);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const execution = await executionOf(flow.workflowId);
    expect(outputOf(execution, "Render")[0]).toMatchObject({ status: "COMPLETED", type: "VIDEO" });
  });
});

describe("waiting", () => {
  it("gives up at the timeout with an error naming the job, which goes on rendering", async () => {
    const flow = await webhookWorkflow(
      [
        {
          name: "Render",
          parameters: {
            resource: "render",
            operation: "renderVideo",
            // A minute of 25 fps: 1,500 frames to compose and encode, seconds of work on any machine, while the node
            // waits 0.1 s (a one-second clip has ended within the node's last look on a quiet machine).
            config: JSON.stringify({
              width: 320,
              height: 180,
              fps: 25,
              clips: [{ duration: 60, layers: [{ type: "fill-color", color: "#0000ff" }] }],
            }),
            options: { timeout: 0.1 },
          },
        },
      ],
      credential,
      "json",
    );
    expect((await flow.call("{}", "application/json")).status).toBe(500);
    const error = (await executionOf(flow.workflowId)).data.resultData.error!;
    const jobId = /^Job (job_\S+) did not end within 0\.1 s \((PENDING|PROCESSING)/.exec(error.message)?.[1];
    expect(jobId, error.message).toBeDefined();
    expect(error.description).toMatch(/goes on rendering/);
    // The job was not cancelled: it ends on its own.
    const deadline = Date.now() + 120_000;
    let status = "";
    while (Date.now() < deadline) {
      status = ((await (await api(`/api/v1/jobs/${jobId}`)).json()) as { data: { status: string } }).data
        .status;
      if (status !== "PENDING" && status !== "PROCESSING") break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(status).toBe("COMPLETED");
  });
});

describe("render template", () => {
  it("renders a stored template with the webhook's variables", async () => {
    const made = await api("/api/v2/templates", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        name: "n8n card",
        type: "image",
        config: {
          width: 200,
          height: 100,
          backgroundColor: "{{colour}}",
          layers: [{ type: "text", text: "{{title}}", x: 100, y: 60, fontSize: 20, color: "#ffffff" }],
        },
      }),
    });
    expect(made.status).toBe(201);
    const template = ((await made.json()) as { data: { id: string } }).data;
    const flow = await webhookWorkflow(
      [
        {
          name: "Render",
          parameters: {
            resource: "render",
            operation: "renderTemplate",
            templateId: template.id,
            variables: "={{ JSON.stringify($json.body) }}",
          },
        },
      ],
      credential,
      "binary",
    );
    const res = await flow.call(JSON.stringify({ colour: "#ff8800", title: "Hi" }), "application/json");
    const png = await bytesOf(res);
    expect(res.status, new TextDecoder().decode(png.slice(0, 500))).toBe(200);
    expect(pngSize(png)).toEqual({ width: 200, height: 100 });
    // The variable's colour is the background.
    expect(distance(decodeImage(png, 200, 100).at(5, 5), [0xff, 0x88, 0x00])).toBeLessThan(3);
    const execution = await executionOf(flow.workflowId);
    // One job through POST /api/v2/templates/{id}/renders (the node falls back to a one-row batch only where a
    // service has no such route: integrations/n8n/README.md).
    const rendered = outputOf(execution, "Render")[0]!;
    expect(rendered).toMatchObject({ templateId: template.id, status: "COMPLETED" });
    expect(rendered).not.toHaveProperty("batchId");
  });

  it("surfaces a variable the template refuses, naming it", async () => {
    const made = await api("/api/v2/templates", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        name: "n8n colour",
        type: "image",
        config: {
          width: 64,
          height: 64,
          backgroundColor: "{{colour}}",
          layers: [{ type: "text", text: "·", x: 4, y: 4 }],
        },
      }),
    });
    const template = ((await made.json()) as { data: { id: string } }).data;
    const flow = await webhookWorkflow(
      [
        {
          name: "Render",
          parameters: {
            resource: "render",
            operation: "renderTemplate",
            templateId: template.id,
            variables: JSON.stringify({ colour: "not a colour" }),
          },
        },
      ],
      credential,
      "json",
    );
    expect((await flow.call("{}", "application/json")).status).toBe(500);
    const error = (await executionOf(flow.workflowId)).data.resultData.error!;
    expect(error.httpCode).toBe("400");
    expect(`${error.message}\n${error.description}`).toMatch(/colour/);
  });
});
