/**
 * /api/v1/auth (register, login, verify, logout) and /api/v1/account (the signed-in account). Registration and
 * login need no credential; the account is read with a key or a session and changed with a session only.
 */
import { Hono, type Context } from "hono";
import type { AppEnv } from "../app-env";
import { callerCtx, requireKeyOrSession, requireSession } from "../auth/api-key";
import { ok } from "../lib/envelope";
import { jsonBody } from "../lib/validate";
import { confirmEmailChange, logout, readAccount, updateAccount } from "./profile";
import { ConfirmEmailBody, LoginBody, RegisterBody, UpdateAccountBody, VerifyBody } from "./schemas";
import { login, register, verifyCode, type Client } from "./sign-in";

/** The caller's address as Cloudflare reports it (absent locally). */
const clientOf = (c: Context<AppEnv>): Client => ({ ip: c.req.header("cf-connecting-ip") ?? "local" });

export const authRoutes = new Hono<AppEnv>()
  .post("/register", async (c) =>
    ok(
      c,
      await register(c.var.ctx, await jsonBody(c, RegisterBody), clientOf(c)),
      202,
      "If the address can receive mail, a code is on its way",
    ),
  )
  .post("/login", async (c) =>
    ok(
      c,
      await login(c.var.ctx, await jsonBody(c, LoginBody), clientOf(c)),
      202,
      "If the address can receive mail, a code is on its way",
    ),
  )
  .post("/verify", async (c) =>
    ok(c, await verifyCode(c.var.ctx, await jsonBody(c, VerifyBody), clientOf(c))),
  )
  .post("/logout", requireSession, async (c) => ok(c, await logout(callerCtx(c))));

export const accountRoutes = new Hono<AppEnv>()
  .get("/", requireKeyOrSession, async (c) => ok(c, await readAccount(callerCtx(c))))
  .patch("/", requireSession, async (c) =>
    ok(c, await updateAccount(callerCtx(c), await jsonBody(c, UpdateAccountBody))),
  )
  .post("/email/verify", requireSession, async (c) =>
    ok(c, await confirmEmailChange(callerCtx(c), await jsonBody(c, ConfirmEmailBody))),
  );
