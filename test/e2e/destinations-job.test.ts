/**
 * Outputs delivered to the user's storage, end to end: an S3-protocol server that checks SigV4 signatures
 * (test/s3-server.ts) started by this file on a port of its own, a storage connection to it, and a real video render
 * with a poster and thumbnails whose files land in the bucket, under the keys the templates give, with their content
 * types, byte for byte what the service stores; the job shows each destination's result.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AwsClient } from "aws4fetch";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { until } from "../poll.ts";
import { startS3Server } from "../s3-server.ts";

const base = inject("baseUrl");
const key = inject("apiKey");

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${base}${path}`, { ...init, headers: { "x-api-key": key, ...init.headers } });

const post = async <T>(path: string, payload: unknown) => {
  const res = await api(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(payload),
  });
  const b = (await res.json()) as { data: T };
  expect(res.status, JSON.stringify(b)).toBe(201);
  return b.data;
};

let s3: Awaited<ReturnType<typeof startS3Server>>;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3?.close();
});

/** An object of the bucket, read with a signed request of our own. */
const object = async (objectKey: string) => {
  const client = new AwsClient({
    accessKeyId: s3.accessKeyId,
    secretAccessKey: s3.secretAccessKey,
    service: "s3",
    region: "us-east-1",
    retries: 0,
  });
  const path = objectKey.split("/").map(encodeURIComponent).join("/");
  const res = await client.fetch(`http://127.0.0.1:${s3.port}/${s3.bucket}/${path}`);
  expect(res.status, objectKey).toBe(200);
  return { type: res.headers.get("content-type"), bytes: new Uint8Array(await res.arrayBuffer()) };
};

type Delivery = {
  status: string;
  key: string;
  error: string | null;
  files: { name: string; key: string; contentType: string; size: number }[];
};
type Job = {
  status: string;
  outputFileId: string | null;
  errorMessage: string | null;
  destinations: Delivery[];
};

describe("a video job with an S3 destination, end to end", () => {
  it("lands its output, poster and thumbnails in the bucket under the templated keys", async () => {
    const connection = await post<{ id: string }>("/api/v2/storage-connections", {
      name: "local bucket",
      endpoint: `http://127.0.0.1:${s3.port}`,
      bucket: s3.bucket,
      accessKeyId: s3.accessKeyId,
      secretAccessKey: s3.secretAccessKey,
      keyTemplate: "renders/{date}/{jobId}.{ext}",
    });
    const created = await post<{ jobId: string }>("/api/v1/jobs", {
      type: "video",
      config: {
        width: 320,
        height: 180,
        fps: 10,
        clips: [{ duration: 2, layers: [{ type: "fill-color", color: "#2060c0" }] }],
        poster: { time: 1 },
        thumbnails: { count: 2 },
      },
      destinations: [{ connectionId: connection.id }],
    });
    const jobId = created.jobId;
    const job = await until(
      `${jobId} delivered`,
      async () => {
        const j = ((await (await api(`/api/v1/jobs/${jobId}`)).json()) as { data: Job }).data;
        if (j.status === "FAILED") return j;
        return j.destinations[0]!.status === "delivered" || j.destinations[0]!.status === "failed"
          ? j
          : undefined;
      },
      120_000,
      250,
    );
    expect(job.errorMessage).toBeNull();
    const [delivery] = job.destinations;
    expect(delivery!.error).toBeNull();
    expect(delivery!.status).toBe("delivered");
    const day = new Date().toISOString().slice(0, 10);
    const prefix = `renders/${day}/${jobId}`;
    expect(delivery!.files.map((f) => [f.name, f.key, f.contentType])).toEqual([
      ["output", `${prefix}.mp4`, "video/mp4"],
      [".poster.png", `${prefix}.poster.png`, "image/png"],
      [".thumb-001.jpg", `${prefix}.thumb-001.jpg`, "image/jpeg"],
      [".thumb-002.jpg", `${prefix}.thumb-002.jpg`, "image/jpeg"],
    ]);

    // Byte for byte what the service stores, and a real video.
    const landed = await object(`${prefix}.mp4`);
    expect(landed.type).toBe("video/mp4");
    const stored = new Uint8Array(
      await (await api(`/api/v1/files/${job.outputFileId}/download`)).arrayBuffer(),
    );
    expect(Buffer.from(landed.bytes).equals(Buffer.from(stored))).toBe(true);
    const dir = mkdtempSync(join(tmpdir(), "mrs-e2e-destinations-"));
    writeFileSync(join(dir, "out.mp4"), landed.bytes);
    const probe = execFileSync(
      "ffprobe",
      [
        "-v",
        "error",
        "-select_streams",
        "v:0",
        "-show_entries",
        "stream=codec_type,width,height",
        "-of",
        "csv=p=0",
        join(dir, "out.mp4"),
      ],
      { encoding: "utf8" },
    );
    expect(probe.trim()).toBe("video,320,180");
    const poster = await object(`${prefix}.poster.png`);
    expect(poster.type).toBe("image/png");
    expect([...poster.bytes.subarray(1, 4)]).toEqual([0x50, 0x4e, 0x47]);
    const thumb = await object(`${prefix}.thumb-002.jpg`);
    expect(thumb.type).toBe("image/jpeg");
    expect([...thumb.bytes.subarray(0, 2)]).toEqual([0xff, 0xd8]);
  });
});
