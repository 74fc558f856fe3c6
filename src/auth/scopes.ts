/**
 * v2 scopes (spec, Authentication rule 8): `resource:action` strings on API keys. A key's effective scopes are the
 * scopes it was given plus those its v1 permissions imply, so a `jobs:full` key works on v2 render routes without
 * being re-issued; scopes only ever add. The table is the one docs/api-guide.md publishes.
 */
import { createMiddleware } from "hono/factory";
import { findTargetHandler } from "hono/utils/handler";
import type { AppEnv } from "../app-env.ts";
import { Forbidden } from "../lib/errors.ts";
import { allows, type Action, type Caller, type Resource } from "./caller.ts";
import { documented } from "../lib/openapi-route.ts";

/** Every scope, with what it allows. */
export const SCOPES = {
  "renders:create":
    "create renders (jobs, template renders), manage render webhooks (create, update, delete, rotate, test, the job-callback secret) and storage connections",
  "renders:read": "read renders and their outputs",
  "operations:read": "read operations: webhook deliveries, batch status",
  "operations:cancel": "cancel operations: batches, replay dead-lettered deliveries",
  "templates:read": "read templates",
  "templates:write": "create, update and delete templates",
  "templates:bulk": "submit template batches and download their bulk outputs",
} as const;

export type Scope = keyof typeof SCOPES;
export const SCOPE_NAMES = Object.keys(SCOPES) as [Scope, ...Scope[]];

/**
 * The v2 scopes a v1 permission implies (docs/api-guide.md's table): `jobs:read` reads renders and operations and
 * templates; `jobs:full` also creates renders (and manages webhooks), cancels operations and writes templates.
 */
const IMPLIED: Record<`${Resource}:${Action}`, readonly Scope[]> = {
  "jobs:read": ["renders:read", "operations:read", "templates:read"],
  "jobs:full": [
    "renders:read",
    "operations:read",
    "templates:read",
    "renders:create",
    "operations:cancel",
    "templates:write",
    "templates:bulk",
  ],
  "media:read": [],
  "media:full": [],
};

/** Whether `caller` holds `scope`: the account's owner (a session) holds every scope; a key its own and implied ones. */
export const holdsScope = (caller: Caller, scope: Scope): boolean =>
  caller.owner === true ||
  caller.scopes.includes(scope) ||
  caller.permissions.some((p) => IMPLIED[`${p.resource}:${p.action}`].includes(scope));

/**
 * What a permission middleware requires of the caller: a v1 permission on a resource (read for GET/HEAD, full for
 * the rest) or a v2 scope. Each such middleware carries it, so what else acts for a route (its MCP tools,
 * src/mcp/tools.ts) requires exactly what the route does.
 */
export type Need = { resource: Resource } | { scope: Scope };

const NEED = Symbol("need");

/** Marks `middleware` as requiring `need`. */
export const requiring = <M extends object>(middleware: M, need: Need): M =>
  Object.assign(middleware, { [NEED]: need });

/** What `handler` requires, if it is a permission middleware. */
export const needOf = (handler: unknown): Need | undefined =>
  typeof handler === "function" ? (findTargetHandler(handler) as { [NEED]?: Need })[NEED] : undefined;

/** Whether `caller` meets `need` for a request of `method`. */
export const meets = (caller: Caller, need: Need, method: string): boolean =>
  "scope" in need ? holdsScope(caller, need.scope) : allows(caller.permissions, need.resource, method);

/** Requires the authenticated caller to hold `scope` (spec, Authentication rule 8): 403 otherwise. */
export const requireScope = (scope: Scope) =>
  requiring(
    documented(
      createMiddleware<AppEnv>(async (c, next) => {
        if (!holdsScope(c.var.caller, scope)) throw new Forbidden(undefined, { requiredScope: scope });
        await next();
      }),
      { errors: [403] },
    ),
    { scope },
  );
