/**
 * POST /probe: the raw body is one media file. It is streamed to a temp file (never buffered), probed
 * (probe-media.ts, complete: every field as ffprobe reports it), and the temp directory is removed
 * whatever the outcome.
 */
import { join } from "node:path";
import { Hono } from "hono";
import { RENDERER_PATHS, type ProbeResult } from "@media-render/contract/wire";
import type { AppDeps } from "../deps.ts";
import { PayloadTooLarge } from "../lib/errors.ts";
import { saveBody } from "../lib/save-body.ts";
import { withTempDir } from "../lib/temp-dir.ts";
import { probeInputName } from "../probe/ffprobe-args.ts";
import { toProbeResult } from "../probe/media-facts.ts";
import { probeMedia } from "../probe/probe-media.ts";

/**
 * Probes are short (<= 30 s), so shutdown lets them finish rather than aborting them. Each runs its ffprobe as a tool
 * user of its own (lib/tool-users.ts), which owns the probe's folder.
 */
export const probeRoutes = ({ config, toolUsers }: AppDeps): Hono =>
  new Hono().post(RENDERER_PATHS.probe, async (context) => {
    // Refuse a declared oversize body before reading a byte; chunked bodies are capped while streaming.
    const declared = Number(context.req.header("content-length"));
    if (Number.isFinite(declared) && declared > config.probeMaxBytes)
      throw new PayloadTooLarge(config.probeMaxBytes);

    const lease = await toolUsers.lease(`probe-${crypto.randomUUID()}`);
    let result: ProbeResult;
    try {
      result = await withTempDir(config.tmpDir, "probe-", async (dir) => {
        await lease.own(dir);
        const inputPath = join(dir, probeInputName(context.req.header("x-filename")));
        await saveBody(context.req.raw.body, inputPath, config.probeMaxBytes);
        const options = { ffprobePath: config.ffprobePath, user: lease.user, complete: true };
        return toProbeResult(await probeMedia(inputPath, options));
      });
    } finally {
      await lease.release();
    }
    return context.json(result);
  });
