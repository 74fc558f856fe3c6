/**
 * /api/v1/tools: duration of video and audio files, singly or in bulk.
 * Permissions: the single-file tools only read, so any `media` permission (read or full) may call them;
 * the bulk tools spend tokens, so they need `media:full` or `jobs:full`.
 */
import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import { callerCtx, requireKeyOrSession } from "../auth/api-key.ts";
import type { Permission } from "../auth/caller.ts";
import type { AppEnv } from "../app-env.ts";
import { ok } from "../lib/envelope.ts";
import { Forbidden } from "../lib/errors.ts";
import { jsonBody } from "../lib/validate.ts";
import { bulkDuration } from "./bulk-duration.ts";
import { measureDuration } from "./measure-duration.ts";
import { BulkBody, BulkDurationResult, DurationResult, Target } from "./schemas.ts";
import { describe } from "../lib/openapi-route.ts";

const requireAny = (accepts: (p: Permission) => boolean) =>
  createMiddleware<AppEnv>(async (c, next) => {
    if (!c.var.caller.permissions.some(accepts)) throw new Forbidden();
    await next();
  });

const canRead = requireAny((p) => p.resource === "media");
const canSpend = requireAny((p) => p.action === "full" && (p.resource === "media" || p.resource === "jobs"));

export const toolRoutes = new Hono<AppEnv>().use(requireKeyOrSession);

const KIND = { video: "Video", audio: "Audio" } as const;

for (const kind of ["video", "audio"] as const) {
  toolRoutes.post(
    `/${kind}/duration`,
    canRead,
    describe({
      operationId: `measure${KIND[kind]}Duration`,
      tag: "Tools",
      summary: `Measure one ${kind} file's duration`,
      description: "A stored file (`path`) or a public URL (`url`, fetched through the SSRF guard). Free.",
      body: Target,
      ok: {
        status: 200,
        description: "`durationMs`, `durationFormatted`, `source`, `originalPath`",
        data: DurationResult,
      },
      errors: [403, 404, 422, 502],
      rateLimit: "general",
      mcp: false,
    }),
    async (c) => {
      const target = await jsonBody(c, Target);
      return ok(c, await measureDuration(callerCtx(c), target));
    },
  );
  toolRoutes.post(
    `/${kind}/duration/bulk`,
    canSpend,
    describe({
      operationId: `measure${KIND[kind]}Durations`,
      tag: "Tools",
      summary: `Measure many ${kind} files' durations`,
      description:
        "1 token per file attempted, charged up front; at most 5 files on the free plan, 300 on paid plans.",
      body: BulkBody,
      ok: {
        status: 200,
        description: "One result per input, in order, and a `summary`",
        data: BulkDurationResult,
      },
      errors: [402, 403],
      rateLimit: "general",
      mcp: false,
    }),
    async (c) => {
      const { files } = await jsonBody(c, BulkBody);
      return ok(c, await bulkDuration(callerCtx(c), { kind, files }));
    },
  );
}
