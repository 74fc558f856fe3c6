/**
 * The typed client (client/, generated from the OpenAPI document) against the service `npm start` runs: an upload,
 * a job followed over its event stream to `done`, the output downloaded and checked by its pixels, reads typed by
 * the document, and errors as ApiError with the envelope's message. Every answer also passes the contract check
 * of this suite (contract.ts).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { ApiError, createClient, data, type JobEvent } from "../../client/src/index.ts";
import { decodeImage, distance, pngSize } from "./pixels.ts";

const client = createClient({ baseUrl: inject("baseUrl"), apiKey: inject("apiKey") });
const fixtures = process.env.FIXTURES_DIR ?? join(process.cwd(), "..", "shared", "fixtures");

describe("the typed client against the running service", () => {
  it("uploads, creates a job, follows its events to done and downloads the output", async () => {
    const photo = new Uint8Array(readFileSync(join(fixtures, "emoji.png")));
    const file = await client.upload(photo, "emoji.png", { ttlHours: 1 });
    expect(file.storageUrl).toMatch(/^\//);
    const meta = await data(
      client.api.GET("/api/v1/files/{fileId}/metadata", { params: { path: { fileId: file.id } } }),
    );
    expect(meta.storageUrl).toBe(file.storageUrl);

    const config = {
      width: 200,
      height: 100,
      backgroundColor: "#00ff00",
      layers: [{ type: "image" as const, path: file.storageUrl, x: 0, y: 0, width: 100, height: 100 }],
    };
    const checked = await data(client.api.POST("/api/v1/jobs/validate", { body: { type: "image", config } }));
    expect(checked).toMatchObject({ isValid: true, errors: [] });
    expect(checked.detectedResources).toEqual([
      { type: "image", url: file.storageUrl, size: photo.byteLength },
    ]);

    const created = await data(client.api.POST("/api/v1/jobs", { body: { type: "image", config } }));
    expect(created).toMatchObject({ status: "PENDING", type: "IMAGE" });
    const events: JobEvent[] = [];
    for await (const e of client.events(created.jobId)) events.push(e);
    const done = events.at(-1)!;
    expect(done.event).toBe("done");
    if (done.event !== "done") throw new Error("no done event");
    expect(done.data).toMatchObject({ id: created.jobId, status: "COMPLETED", outputFormat: "png" });
    expect(events.slice(0, -1).every((e) => e.event === "progress")).toBe(true);

    const png = await client.download(done.data.outputFileId!);
    expect(pngSize(png)).toEqual({ width: 200, height: 100 });
    const px = decodeImage(png, 200, 100);
    expect(distance(px.at(150, 50), [0, 255, 0])).toBeLessThan(8);

    const job = await data(
      client.api.GET("/api/v1/jobs/{jobId}", { params: { path: { jobId: created.jobId } } }),
    );
    expect(job.tokensUsed).toBeGreaterThan(0);
    const page = await data(
      client.api.GET("/api/v1/jobs", { params: { query: { limit: "5", type: "image" } } }),
    );
    expect(page.jobs.map((j) => j.id)).toContain(created.jobId);
  });

  it("answers errors as ApiError with the envelope's message and field errors", async () => {
    const missing = await data(
      client.api.GET("/api/v1/jobs/{jobId}", { params: { path: { jobId: "job_none" } } }),
    ).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(ApiError);
    expect(missing).toMatchObject({ status: 404, message: "Job not found" });
    const invalid = await data(
      client.api.POST("/api/v1/jobs", {
        body: { type: "image", config: { width: 0, height: 10, layers: [] } },
      }),
    ).catch((e: unknown) => e);
    expect(invalid).toMatchObject({ status: 400 });
    expect((invalid as ApiError).details?.errors?.map((e) => e.field)).toContain("config.width");
    const wrongKey = createClient({ baseUrl: inject("baseUrl"), apiKey: "mrk_wrong" });
    await expect(data(wrongKey.api.GET("/api/v1/account"))).rejects.toMatchObject({ status: 401 });
  });
});
