/**
 * The context every domain verb takes first: `verb(ctx, input)`. Built once per request, queue batch or cron
 * run from the bindings, with the clock (tests may fix it), the renderer and a way to defer background work;
 * requests of an authenticated caller carry the caller too. Verbs reach D1 only through `ctx.db` (drizzle) and
 * `ctx.d1` (batches of guarded statements); handlers never touch either. Verbs reach the renderer only through
 * `ctx.renderer`, so a domain that the renderer's callback drives (jobs) does not import the renderer's folder back.
 */
import type { Caller } from "./auth/caller.ts";
import { getDb, type Db } from "./db/client.ts";
import type { Env } from "./env.ts";
import { rendererFor, type Renderer } from "./renderer/client.ts";

export interface Ctx {
  env: Env;
  /** The raw D1 binding, for atomic `batch`es of guarded statements. */
  d1: D1Database;
  db: Db;
  /** Milliseconds since the epoch. */
  now: () => number;
  /** The renderer pool (src/renderer/client.ts). */
  renderer: Renderer;
  /** Work that may finish after the response (`waitUntil`); errors are the work's own business. */
  defer: (work: Promise<unknown>) => void;
}

/** The context of a request made by an authenticated caller: every query it makes is scoped to `caller`. */
export interface CallerCtx extends Ctx {
  caller: Caller;
}

export const createContext = (
  env: Env,
  options: { now?: () => number; defer?: (work: Promise<unknown>) => void } = {},
): Ctx => ({
  env,
  d1: env.DB,
  db: getDb(env.DB),
  now: options.now ?? Date.now,
  renderer: rendererFor(env),
  defer: options.defer ?? ((work) => void work.catch(() => undefined)),
});

export const withCaller = (ctx: Ctx, caller: Caller): CallerCtx => ({ ...ctx, caller });
