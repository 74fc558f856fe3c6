/**
 * POST /probe: the raw body is one media file. It is streamed to a temp file (never buffered), probed
 * with ffprobe, and the temp directory is removed whatever the outcome.
 */
import { join } from "node:path";
import { Hono } from "hono";
import type { AppDeps } from "../app.ts";
import { PayloadTooLarge } from "../lib/errors.ts";
import { saveBody } from "../lib/save-body.ts";
import { withTempDir } from "../lib/temp-dir.ts";
import { probeInputName } from "../probe/ffprobe-args.ts";
import { probeFile } from "../probe/probe-file.ts";

/** Probes are short (<= 30 s), so shutdown lets them finish rather than aborting them. */
export const probeRoutes = ({ config }: AppDeps): Hono =>
  new Hono().post("/probe", async (c) => {
    // Refuse a declared oversize body before reading a byte; chunked bodies are capped while streaming.
    const declared = Number(c.req.header("content-length"));
    if (Number.isFinite(declared) && declared > config.probeMaxBytes)
      throw new PayloadTooLarge(config.probeMaxBytes);

    const result = await withTempDir(config.tmpDir, "probe-", async (dir) => {
      const inputPath = join(dir, probeInputName(c.req.header("x-filename")));
      await saveBody(c.req.raw.body, inputPath, config.probeMaxBytes);
      return probeFile(config.ffprobePath, inputPath);
    });
    return c.json(result);
  });
