/**
 * Parse once (issue 40): a job stores its config as submitted (echoed to its owner), the grammar's normal form of
 * it and its plan; dispatch builds the render request from those alone, in the form the renderer's request schema
 * takes. Every editly example that needs no JavaScript goes through, shorthands included (editly's one-layer
 * `layers: {...}` once crashed dispatch after the job had been accepted and charged a reserve).
 */
import { env } from "cloudflare:workers";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { RenderVideoRequest } from "@media-render/contract/wire";
import { editlyExamples } from "../../../packages/contract/test/helpers/editly-examples.ts";
import { createContext, withCaller } from "../../../src/context.ts";
import type { Env } from "../../../src/env.ts";
import { createJob } from "../../../src/jobs/create-job.ts";
import { getJobById } from "../../../src/jobs/lookup.ts";
import { finishJob } from "../../../src/jobs/lifecycle.ts";
import { videoRequest } from "../../../src/queues/dispatch-video.ts";
import { body, call, FULL, fixture, newAccount, upload } from "../helpers.ts";
import { jobRow } from "../jobs-seed.ts";

const SHADER = "precision highp float;\nvoid main() { gl_FragColor = vec4(1.0, 0.5, 0.0, 1.0); }\n";

/** Uploads what editly's examples use, as `key`'s files; their storage URLs by role. */
const uploadMedia = async (key: string) => {
  const put = async (name: string, bytes: Uint8Array) => {
    const res = await upload(key, name, bytes);
    expect(res.status, name).toBe(201);
    return (await body<{ storageUrl: string }>(res)).data!.storageUrl;
  };
  const video = await put("kohlipe3.mp4", fixture("kohlipe3.mp4"));
  return {
    video,
    video2: video,
    photo: await put("img2.jpg", fixture("img2.jpg")),
    overlay: await put("emoji.png", fixture("emoji.png")),
    music: await put("winxp.mp3", fixture("winxp.mp3")),
    voice: await put("speech-en.wav", fixture("speech-en.wav")),
    font: await put("PatuaOne-Regular.ttf", fixture("PatuaOne-Regular.ttf")),
    shader: await put("orange.frag", new TextEncoder().encode(SHADER)),
  };
};

/** A caller's context whose video queue keeps what is sent (no render starts: dispatch is called by the test). */
const quietCaller = (userId: string) => {
  const sent: unknown[] = [];
  const queue = { send: async (message: unknown) => void sent.push(message) };
  const ctx = createContext({ ...env, VIDEO_QUEUE: queue } as unknown as Env);
  return { ctx: withCaller(ctx, { userId, keyId: null, permissions: FULL, scopes: [] }), sent };
};

describe("a job's config is parsed once, at creation", () => {
  it("stores the config as submitted, its normal form and its plan; GET answers the submitted one", async () => {
    const { key, userId } = await newAccount({ planId: "pro", tokens: 10_000 });
    const media = await uploadMedia(key);
    const audio2 = editlyExamples(media).audio2! as { clips: { layers: unknown }[] };
    const { ctx, sent } = quietCaller(userId);
    const created = await createJob(ctx, { type: "video", config: audio2 });
    expect(sent).toEqual([{ kind: "render", jobId: created.jobId, userId }]);
    const row = await jobRow(created.jobId);
    const stored = {
      config: JSON.parse(String(row!.config)),
      normal: JSON.parse(String(row!.normalized_config)),
      plan: JSON.parse(String(row!.plan)),
    };
    // editly's single-layer shorthand as written, and as a list in the normal form.
    expect(Array.isArray(stored.config.clips[1].layers)).toBe(false);
    expect(stored.normal.clips[1].layers).toEqual([audio2.clips[1]!.layers]);
    expect(stored.normal.format).toBe("mp4"); // from editly's outPath
    // The first clip lasts its video's cut (1 s), the second 15 s: 16 s at 25 fps, charged 10 + 2 x 16.
    expect(stored.plan).toMatchObject({
      seconds: 16,
      estimatedTokens: 42,
      timeline: { fps: 25, totalFrames: 400 },
    });
    expect(created.estimatedTokens).toBe(42);
    const answer = await body<{ config: unknown }>(
      await call(`/api/v1/jobs/${created.jobId}`, { headers: { "x-api-key": key } }),
    );
    expect(answer.data!.config).toEqual(audio2);
  });

  it("hands every editly example that needs no JavaScript to the renderer in the form its request schema takes", async () => {
    const { key, userId } = await newAccount({ planId: "business", tokens: 100_000 });
    const media = await uploadMedia(key);
    const examples = Object.entries(editlyExamples(media));
    expect(examples.length).toBeGreaterThanOrEqual(31);
    const { ctx } = quietCaller(userId);
    const refused: string[] = [];
    for (const [name, config] of examples) {
      const created = await createJob(ctx, { type: "video", config }).catch((e: unknown) => {
        refused.push(`${name}: ${JSON.stringify((e as { details?: unknown }).details ?? String(e))}`);
        return null;
      });
      if (!created) continue;
      const job = await getJobById(ctx, created.jobId);
      const built = await videoRequest(ctx, job);
      // What crosses the wire: JSON, parsed by the renderer's own request schema.
      const wire = JSON.parse(JSON.stringify({ ...built!.request, attempt: 1 }));
      const parsed = v.safeParse(RenderVideoRequest, wire);
      const plan = JSON.parse(String((await jobRow(job.id))!.plan)) as { timeline: { totalFrames: number } };
      // The request carries the planned timeline as stored: every render of the job draws the same frames.
      expect(parsed.success ? parsed.output.timeline?.totalFrames : parsed.issues[0].message, name).toBe(
        plan.timeline.totalFrames,
      );
      await finishJob(ctx, job, { status: "CANCELLED" });
    }
    // Only an example whose cut starts past our shorter fixture's end is refused, at that field (editly's own clip
    // is longer than the 34.9 s one here).
    expect(refused).toEqual([
      expect.stringMatching(/^commonFeatures: .*config\.clips\[10\]\.layers\[0\]\.cutFrom.*CUT_OUTSIDE_FILE/),
    ]);
  });

  it("refuses a video layer cut past the end of its stored file at creation, naming the field", async () => {
    const { key } = await newAccount({ tokens: 1000 });
    const media = await uploadMedia(key);
    const res = await call("/api/v1/jobs", {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "application/json" },
      body: JSON.stringify({
        type: "video",
        config: {
          width: 64,
          height: 64,
          clips: [{ duration: 1, layers: [{ type: "video", path: media.video, cutFrom: 40 }] }],
        },
      }),
    });
    expect(res.status).toBe(400);
    expect((await body(res)).details!.errors).toEqual([
      {
        field: "config.clips[0].layers[0].cutFrom",
        message: "starts at 40 s, at or after the end of this video (34.91 s long)",
        code: "CUT_OUTSIDE_FILE",
      },
    ]);
  });

  it("takes a frame of a stored video in an image layer, and refuses one past its end, naming the field", async () => {
    const { key } = await newAccount({ tokens: 1000 });
    const media = await uploadMedia(key);
    const create = (frameTime: number) =>
      call("/api/v1/jobs", {
        method: "POST",
        headers: { "x-api-key": key, "content-type": "application/json" },
        body: JSON.stringify({
          type: "video",
          config: {
            width: 64,
            height: 64,
            clips: [{ duration: 1, layers: [{ type: "image-overlay", path: media.video, frameTime }] }],
          },
        }),
      });
    const inside = await create(34.5);
    expect(inside.status, JSON.stringify(await body(inside.clone()))).toBe(201);
    const past = await create(34.91);
    expect(past.status).toBe(400);
    expect((await body(past)).details!.errors).toEqual([
      {
        field: "config.clips[0].layers[0].frameTime",
        message: "is 34.91 s, at or after the end of this video (34.91 s long)",
        code: "CUT_OUTSIDE_FILE",
      },
    ]);
  });
});
