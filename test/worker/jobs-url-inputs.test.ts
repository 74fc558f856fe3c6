import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createJob } from "../../src/jobs/create-job.ts";
import { MAX_REMOTE_INPUTS } from "../../src/jobs/import-inputs.ts";
import { withStoragePaths } from "../../src/jobs/input-map.ts";
import { InsufficientTokens, ValidationFailed } from "../../src/lib/errors.ts";
import { asCaller, body, call, fixture, json, newAccount } from "./helpers.ts";
import { createJobCall, seedMediaFile } from "./jobs-seed.ts";
import { withDns } from "./fake-internet.ts";

/** A stand-in internet: exact URL -> response; everything else 404. Records what was fetched. */
const internet = (routes: Record<string, () => Response>) => {
  const fetched: string[] = [];
  const fetcher = withDns(async (r: Request) => {
    fetched.push(r.url);
    return routes[r.url]?.() ?? new Response("no", { status: 404 });
  });
  return { fetcher, fetched };
};

const PIC = "https://cdn.example.com/img/pic.png";
const png = () => new Response(fixture("emoji.png"), { headers: { "content-type": "image/png" } });

/** Video jobs: the queue hands them to the renderer, which cannot call back here, so nothing renders on. */
const videoWith = (layers: unknown[]) => ({
  type: "video",
  config: { width: 64, height: 64, fps: 10, clips: [{ duration: 1, layers }] },
});

const rejection = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error("expected a rejection");
};

describe("job inputs by public URL: happy path", () => {
  it("imports each distinct URL once into storage and lists it in inputFileIds, keeping the config as submitted", async () => {
    const { userId } = await newAccount({ tokens: 100 });
    const upload = await seedMediaFile(userId);
    const { fetcher, fetched } = internet({ [PIC]: png });
    const input = videoWith([
      { type: "image", path: PIC },
      { type: "image", path: upload.storageUrl },
      { type: "image-overlay", path: PIC },
    ]);
    const created = await createJob(asCaller(userId), input, fetcher);
    expect(fetched).toEqual([PIC]);
    const row = await env.DB.prepare("SELECT config, input_file_ids FROM jobs WHERE id = ?")
      .bind(created.jobId)
      .first<{ config: string; input_file_ids: string }>();
    expect(JSON.parse(row!.config)).toEqual(input.config);
    const ids = JSON.parse(row!.input_file_ids) as string[];
    expect(ids).toHaveLength(2);
    expect(ids[1]).toBe(upload.id);
    const file = await env.DB.prepare(
      "SELECT source, source_url, user_id, storage_url, storage_key, size FROM media_files WHERE id = ?",
    )
      .bind(ids[0])
      .first<Record<string, unknown>>();
    expect(file).toMatchObject({
      source: "url",
      source_url: PIC,
      user_id: userId,
      size: fixture("emoji.png").length,
    });
    expect((await env.FILES.head(String(file!.storage_key)))?.size).toBe(fixture("emoji.png").length);
    // What the renderers see: the public URL replaced by the imported copy's storage path.
    const mapped = withStoragePaths("video", input.config, [
      { storageUrl: String(file!.storage_url), sourceUrl: PIC, source: "url" },
    ]);
    expect(mapped.clips[0]!.layers[0]).toEqual({ type: "image", path: file!.storage_url });
  });

  it("validation accepts a public URL without fetching it and lists it without a size", async () => {
    const { key } = await newAccount();
    const res = await call(
      "/api/v1/jobs/validate",
      json("POST", videoWith([{ type: "image", path: PIC }]), key),
    );
    const b = await body<{ isValid: boolean; detectedResources: unknown[] }>(res);
    expect(b.data).toMatchObject({ isValid: true, detectedResources: [{ type: "image", url: PIC }] });
  });
});

describe("job inputs by public URL: errors (400 naming the field, nothing reserved)", () => {
  it("a remote 404 is URL_NOT_FOUND", async () => {
    const { userId } = await newAccount({ tokens: 100 });
    const { fetcher } = internet({});
    const e = await rejection(
      createJob(asCaller(userId), videoWith([{ type: "image", path: PIC }]), fetcher),
    );
    expect(e).toBeInstanceOf(ValidationFailed);
    expect((e as ValidationFailed).errors).toEqual([
      {
        field: "config.clips[0].layers[0].path",
        message: `Remote file not found: ${PIC}`,
        code: "URL_NOT_FOUND",
      },
    ]);
    const n = await env.DB.prepare("SELECT count(*) AS n FROM jobs WHERE user_id = ?")
      .bind(userId)
      .first<{ n: number }>();
    expect(n!.n).toBe(0);
  });

  it("content that is not what the slot expects is refused at its field", async () => {
    const { userId } = await newAccount({ tokens: 100 });
    const url = "https://cdn.example.com/clip.mp4";
    const { fetcher } = internet({ [url]: () => new Response(fixture("winxp.mp3")) });
    const e = (await rejection(
      createJob(asCaller(userId), videoWith([{ type: "video", path: url }]), fetcher),
    )) as ValidationFailed;
    expect(e).toBeInstanceOf(ValidationFailed);
    expect(e.errors[0]!.field).toBe("config.clips[0].layers[0].path");
  });

  it("402 before any download when the balance cannot cover the job", async () => {
    const { userId } = await newAccount({ tokens: 3 });
    const { fetcher, fetched } = internet({ [PIC]: png });
    const e = await rejection(
      createJob(asCaller(userId), videoWith([{ type: "image", path: PIC }]), fetcher),
    );
    expect(e).toBeInstanceOf(InsufficientTokens);
    expect(fetched).toEqual([]);
  });

  it(`more than ${MAX_REMOTE_INPUTS} distinct URLs is TOO_MANY_REMOTE_INPUTS`, async () => {
    const { key } = await newAccount({ tokens: 1000 });
    const layers = Array.from({ length: MAX_REMOTE_INPUTS + 1 }, (_, i) => ({
      type: "image",
      path: `https://cdn.example.com/${i}.png`,
    }));
    const config = { width: 64, height: 64, layers };
    const res = await createJobCall(key, { type: "image", config });
    expect(res.status).toBe(400);
    expect((await body(res)).details!.errors![0]).toMatchObject({ code: "TOO_MANY_REMOTE_INPUTS" });
  });
});

describe("job inputs by public URL: security (SSRF guard)", () => {
  it.each([
    "http://127.0.0.1/a.png",
    "http://169.254.169.254/latest/a.png",
    "http://10.0.0.8/a.png",
    "http://[::1]/a.png",
    "http://localhost/a.png",
    "http://printer.local/a.png",
  ])("refuses %s with 400 at the field, via HTTP create and validate", async (url) => {
    const { key, userId } = await newAccount({ tokens: 100 });
    const res = await createJobCall(
      key,
      videoWith([
        { type: "fill-color", color: "#000" },
        { type: "image", path: url },
      ]),
    );
    expect(res.status).toBe(400);
    expect((await body(res)).details!.errors).toEqual([
      expect.objectContaining({ field: "config.clips[0].layers[1].path", code: "URL_NOT_ALLOWED" }),
    ]);
    const v = await call(
      "/api/v1/jobs/validate",
      json("POST", videoWith([{ type: "image", path: url }]), key),
    );
    expect((await body<{ isValid: boolean; errors: Array<{ code: string }> }>(v)).data).toMatchObject({
      isValid: false,
      errors: [{ code: "URL_NOT_ALLOWED" }],
    });
    const n = await env.DB.prepare("SELECT count(*) AS n FROM media_files WHERE user_id = ?")
      .bind(userId)
      .first<{ n: number }>();
    expect(n!.n).toBe(0);
  });

  it("refuses a redirect into a private address", async () => {
    const { userId } = await newAccount({ tokens: 100 });
    const { fetcher } = internet({
      [PIC]: () => new Response(null, { status: 302, headers: { location: "http://169.254.169.254/a.png" } }),
    });
    const e = (await rejection(
      createJob(asCaller(userId), videoWith([{ type: "image", path: PIC }]), fetcher),
    )) as ValidationFailed;
    expect(e.errors[0]).toMatchObject({ field: "config.clips[0].layers[0].path", code: "URL_NOT_ALLOWED" });
  });
});
