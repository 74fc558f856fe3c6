/**
 * Administrator basic auth for operational routes (detailed health, queue status). Fails closed: required in every
 * environment except `development` (local runs and the test suite), so a staging name, a typo or a missing
 * ENVIRONMENT never leaves them open. Without ADMIN_USER and ADMIN_PASSWORD nobody gets in.
 */
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env.ts";
import { isDevelopment } from "../env.ts";
import { timingSafeEqual } from "@media-render/contract/crypto";
import { errorBody } from "../lib/envelope.ts";

export const adminAuth = createMiddleware<AppEnv>(async (c, next) => {
  if (isDevelopment(c.env)) return next();
  const header = c.req.header("authorization") ?? "";
  const [scheme, encoded] = header.split(" ");
  let user = "";
  let pass = "";
  try {
    [user = "", pass = ""] = atob(encoded ?? "").split(/:(.*)/s);
  } catch {
    /* malformed: stays empty */
  }
  const { ADMIN_USER, ADMIN_PASSWORD } = c.env;
  const valid =
    scheme?.toLowerCase() === "basic" &&
    !!ADMIN_USER &&
    !!ADMIN_PASSWORD &&
    timingSafeEqual(user, ADMIN_USER) &&
    timingSafeEqual(pass, ADMIN_PASSWORD);
  if (!valid) {
    c.header("WWW-Authenticate", 'Basic realm="admin"');
    return c.json(errorBody("Unauthorized"), 401);
  }
  return next();
});
