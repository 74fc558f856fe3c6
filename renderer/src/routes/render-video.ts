/**
 * POST /render/video (renderer contract): validate the request with the contract's `RenderVideoRequest`
 * (the config with the same grammar the Worker used, and a signed URL for every file the job draws), offer it
 * to the bounded render queue (src/video/render-queue.ts) and answer 202, or 503 busy with `Retry-After` when the
 * queue or the account's share of it is full. The job then renders in the background (src/video/run-job.ts).
 * POST /render/cancel stops a job's render, waiting or running.
 */
import { Hono } from "hono";
import * as v from "valibot";
import { fieldPath, toFieldErrors } from "@media-render/contract/field-errors";
import { catalogFontFields, hostedFontFields } from "@media-render/contract/fonts/hosted";
import {
  CancelRender,
  RENDERER_PATHS,
  RenderVideoRequest,
  type CancelAnswer,
  type RenderAccepted,
  type RendererBusy,
} from "@media-render/contract/wire";
import { VIDEO_DEFAULTS } from "@media-render/contract/config/limits";
import type { AppDeps } from "../deps.ts";
import { BadRequest } from "../lib/errors.ts";
import { cancelRenders } from "../video/chunks.ts";
import { videoSpec, withJobFonts } from "../video/spec.ts";
import { missingInput } from "../video/fetch-inputs.ts";
import { videoJobTask } from "../video/run-job.ts";

/** The body as a contract schema's output, or a 400 naming the first bad field. */
const parseBody = async <S extends v.GenericSchema>(req: Request, schema: S): Promise<v.InferOutput<S>> => {
  let raw: unknown;
  try {
    raw = await req.json();
  } catch {
    throw new BadRequest("Body must be JSON");
  }
  const parsed = v.safeParse(schema, raw);
  if (!parsed.success) {
    const [first] = toFieldErrors(parsed.issues);
    throw new BadRequest(`${first?.field ?? "body"}: ${first?.message ?? "invalid"}`);
  }
  return parsed.output;
};

export const renderVideoRoutes = (deps: AppDeps): Hono =>
  new Hono()
    .post(RENDERER_PATHS.renderVideo, async (context) => {
      const job = await parseBody(context.req.raw, RenderVideoRequest);
      // The planned timeline must be this config's: its rate and one timing per clip.
      const fps = job.config.fps ?? VIDEO_DEFAULTS.fps;
      if (job.timeline && (job.timeline.fps !== fps || job.timeline.clips.length !== job.config.clips.length))
        throw new BadRequest(
          `timeline: planned at ${job.timeline.fps} fps with ${job.timeline.clips.length} clips; the config has ${fps} fps and ${job.config.clips.length} clips`,
        );
      // Every font outside the bundle needs its faces, and every file the job draws (those faces' too) its signed
      // URL: refuse now rather than fail after the 202.
      const unfetched = hostedFontFields(catalogFontFields(job.config)).find(
        (f) => !Object.hasOwn(job.fonts ?? {}, f.value),
      );
      if (unfetched)
        throw new BadRequest(
          `fonts: no faces for "${unfetched.value}" (${fieldPath(unfetched.path, "config")}), which the bundled fonts do not have`,
        );
      const missing = missingInput(withJobFonts(videoSpec(job.config), job.fonts), job.inputs);
      if (missing !== null) throw new BadRequest(`inputs: no signed URL for the file reference "${missing}"`);
      const offer = deps.renders.offer(videoJobTask(deps, job), { startNow: job.startNow });
      if (!offer.accepted) {
        const busy: v.InferOutput<typeof RendererBusy> = {
          error:
            offer.reason === "account"
              ? "This account already has as many jobs on this renderer as it may hold"
              : "The renderer's queue is full",
          busy: true,
          retryAfterSeconds: offer.retryAfterSeconds,
        };
        context.header("retry-after", String(offer.retryAfterSeconds));
        return context.json(busy, 503);
      }
      const accepted: v.InferOutput<typeof RenderAccepted> = { accepted: true };
      return context.json(accepted, 202);
    })
    .post(RENDERER_PATHS.cancel, async (context) => {
      const { jobId, attempt, chunk } = await parseBody(context.req.raw, CancelRender);
      const cancelled = cancelRenders(deps.renders, jobId, attempt, chunk);
      const answer: v.InferOutput<typeof CancelAnswer> = { cancelled };
      return context.json(answer);
    });
