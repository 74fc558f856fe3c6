/**
 * Administrator basic auth for operational routes (detailed health, queue status), required when
 * ENVIRONMENT is production. Outside production these routes are open so local tooling can read them.
 */
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env";
import { isProduction } from "../env";
import { timingSafeEqual } from "../contract/crypto";
import { errorBody } from "../lib/envelope";

export const adminAuth = createMiddleware<AppEnv>(async (c, next) => {
  if (!isProduction(c.env)) return next();
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
