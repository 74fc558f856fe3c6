/** /api/v1/api-keys: the signed-in owner's keys (session only: a key cannot mint or list keys). */
import { Hono } from "hono";
import type { AppEnv } from "../app-env.ts";
import { callerCtx, requireSession } from "../auth/api-key.ts";
import { Deleted, ok } from "../lib/envelope.ts";
import { jsonBody } from "../lib/validate.ts";
import { createApiKey } from "./create-api-key.ts";
import { deleteApiKey, listApiKeys } from "./manage-keys.ts";
import { ApiKeyList, CreateApiKeyBody, CreatedApiKey } from "./schemas.ts";
import { describe } from "../lib/openapi-route.ts";

export const apiKeyRoutes = new Hono<AppEnv>()
  .use(requireSession)
  .get(
    "/",
    describe({
      operationId: "listApiKeys",
      tag: "API keys",
      summary: "List your API keys",
      ok: {
        status: 200,
        description: "Each key's id, name, prefix, permissions, scopes, dates (never the key)",
        data: ApiKeyList,
      },
      rateLimit: "general",
      mcp: false,
    }),
    async (c) => ok(c, await listApiKeys(callerCtx(c))),
  )
  .post(
    "/",
    describe({
      operationId: "createApiKey",
      tag: "API keys",
      summary: "Create an API key",
      description: "The key (`mrk_...`) is in the answer once; only its hash is stored. At most 50 keys.",
      body: CreateApiKeyBody,
      ok: { status: 201, description: "`key` (shown once) and the key's record", data: CreatedApiKey },
      rateLimit: "general",
      mcp: false,
    }),
    async (c) => {
      const ctx = callerCtx(c);
      const body = await jsonBody(c, CreateApiKeyBody);
      return ok(
        c,
        await createApiKey(ctx, { userId: ctx.caller.userId, ...body }),
        201,
        "Store the key now: it is shown once",
      );
    },
  )
  .delete(
    "/:id",
    describe({
      operationId: "deleteApiKey",
      tag: "API keys",
      summary: "Revoke an API key",
      ok: { status: 200, description: "`id`, `deleted`", data: Deleted },
      rateLimit: "general",
      mcp: false,
    }),
    async (c) => ok(c, await deleteApiKey(callerCtx(c), c.req.param("id"))),
  );
