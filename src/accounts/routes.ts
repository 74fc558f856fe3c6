/**
 * /api/v1/auth (register, login, verify, logout) and /api/v1/account (the signed-in account). Registration and
 * login need no credential; the account is read with a key or a session and changed with a session only.
 */
import { Hono, type Context } from "hono";
import type { AppEnv } from "../app-env.ts";
import { callerCtx, requireKeyOrSession, requireSession } from "../auth/api-key.ts";
import { ok } from "../lib/envelope.ts";
import { jsonBody } from "../lib/validate.ts";
import { confirmEmailChange, logout, readAccount, updateAccount } from "./profile.ts";
import {
  Account,
  AccountUpdated,
  CodeSent,
  ConfirmEmailBody,
  LoggedOut,
  LoginBody,
  RegisterBody,
  SignedIn,
  UpdateAccountBody,
  VerifyBody,
} from "./schemas.ts";
import { login, register, verifyCode, type Client } from "./sign-in.ts";
import { describe } from "../lib/openapi-route.ts";

/** The caller's address as Cloudflare reports it (absent locally). */
export const clientOf = (c: Context<AppEnv>): Client => ({ ip: c.req.header("cf-connecting-ip") ?? "local" });

export const authRoutes = new Hono<AppEnv>()
  .post(
    "/register",
    describe({
      operationId: "register",
      tag: "Account",
      summary: "Sign up: e-mails a 6-digit code",
      description:
        "Then POST /api/v1/auth/verify with the code. Needs `hcaptchaToken` where the captcha is on.",
      public: true,
      body: RegisterBody,
      ok: {
        status: 202,
        description: "Always the same answer, whether or not the address has an account",
        data: CodeSent,
      },
      errors: [429],
      mcp: false,
    }),
    async (c) =>
      ok(
        c,
        await register(c.var.ctx, await jsonBody(c, RegisterBody), clientOf(c)),
        202,
        "If the address can receive mail, a code is on its way",
      ),
  )
  .post(
    "/login",
    describe({
      operationId: "login",
      tag: "Account",
      summary: "Sign in: e-mails a 6-digit code",
      public: true,
      body: LoginBody,
      ok: {
        status: 202,
        description: "Always the same answer, whether or not the address has an account",
        data: CodeSent,
      },
      errors: [429],
      mcp: false,
    }),
    async (c) =>
      ok(
        c,
        await login(c.var.ctx, await jsonBody(c, LoginBody), clientOf(c)),
        202,
        "If the address can receive mail, a code is on its way",
      ),
  )
  .post(
    "/verify",
    describe({
      operationId: "verifyCode",
      tag: "Account",
      summary: "Exchange the e-mailed code for a session",
      public: true,
      body: VerifyBody,
      ok: { status: 200, description: "`session` (`token`, `expiresAt`) and the account", data: SignedIn },
      errors: [401, 429],
      mcp: false,
    }),
    async (c) => ok(c, await verifyCode(c.var.ctx, await jsonBody(c, VerifyBody), clientOf(c))),
  )
  .post(
    "/logout",
    requireSession,
    describe({
      operationId: "logout",
      tag: "Account",
      summary: "End this session",
      ok: { status: 200, description: "`loggedOut`", data: LoggedOut },
      rateLimit: "general",
      mcp: false,
    }),
    async (c) => ok(c, await logout(callerCtx(c))),
  );

export const accountRoutes = new Hono<AppEnv>()
  .get(
    "/",
    requireKeyOrSession,
    describe({
      operationId: "getAccount",
      tag: "Account",
      summary: "Read your account",
      ok: { status: 200, description: "The account", data: Account },
      rateLimit: "general",
      mcp: false,
    }),
    async (c) => ok(c, await readAccount(callerCtx(c))),
  )
  .patch(
    "/",
    requireSession,
    describe({
      operationId: "updateAccount",
      tag: "Account",
      summary: "Change your name, e-mail (confirmed by a code) or marketing consent",
      description:
        "A new `email` needs `hcaptchaToken` where sign-in does, and is counted like a sign-in from the " +
        "requester's address, per account and per new address (429 past a limit, nothing changed).",
      body: UpdateAccountBody,
      ok: {
        status: 200,
        description: "The account, and `emailChange` when a code went to a new address",
        data: AccountUpdated,
      },
      errors: [409, 429],
      rateLimit: "general",
      mcp: false,
    }),
    async (c) => ok(c, await updateAccount(callerCtx(c), await jsonBody(c, UpdateAccountBody), clientOf(c))),
  )
  .post(
    "/email/verify",
    requireSession,
    describe({
      operationId: "confirmEmailChange",
      tag: "Account",
      summary: "Confirm a new e-mail address with its code",
      body: ConfirmEmailBody,
      ok: { status: 200, description: "The account with its new address", data: AccountUpdated },
      errors: [401, 409],
      rateLimit: "general",
      mcp: false,
    }),
    async (c) => ok(c, await confirmEmailChange(callerCtx(c), await jsonBody(c, ConfirmEmailBody))),
  );
