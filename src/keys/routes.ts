/** /api/v1/api-keys: the signed-in owner's keys (session only: a key cannot mint or list keys). */
import { Hono } from "hono";
import type { AppEnv } from "../app-env";
import { callerCtx, requireSession } from "../auth/api-key";
import { ok } from "../lib/envelope";
import { jsonBody } from "../lib/validate";
import { createApiKey } from "./create-api-key";
import { deleteApiKey, listApiKeys } from "./manage-keys";
import { CreateApiKeyBody } from "./schemas";

export const apiKeyRoutes = new Hono<AppEnv>()
  .use(requireSession)
  .get("/", async (c) => ok(c, await listApiKeys(callerCtx(c))))
  .post("/", async (c) => {
    const ctx = callerCtx(c);
    const body = await jsonBody(c, CreateApiKeyBody);
    return ok(
      c,
      await createApiKey(ctx, { userId: ctx.caller.userId, ...body }),
      201,
      "Store the key now: it is shown once",
    );
  })
  .delete("/:id", async (c) => ok(c, await deleteApiKey(callerCtx(c), c.req.param("id"))));
