/**
 * Reads back what routes say of themselves in their describe() (src/lib/openapi-route.ts): the declaration of the
 * route answering a request (its rate limits, for the credential's gate), and every described route of an app with
 * the middlewares in front of it (its tools and their permission, for the MCP server).
 */
import type { Context } from "hono";
import { matchedRoutes } from "hono/route";
import type { RouterRoute } from "hono/types";
import { routeDocOf, type RouteDoc } from "./openapi-route.ts";

/**
 * What the route answering `c` says of itself, or undefined where no described route matches (a 404, an internal
 * route). Routes match in the order they were registered and a described route always answers, so the first
 * described one among the matches is the one that answers (`/stats` before `/:jobId`).
 */
export const answeringRouteDoc = (c: Context): RouteDoc | undefined => {
  for (const route of matchedRoutes(c)) {
    const doc = routeDocOf(route.handler);
    if (doc) return doc;
  }
  return undefined;
};

export interface DeclaredRoute {
  method: string;
  /** The path as the OpenAPI document writes it (`/api/v1/jobs/{jobId}`). */
  path: string;
  doc: RouteDoc;
  /** The middlewares that run before the route's handler: authentication, permissions, in order. */
  before: RouterRoute["handler"][];
}

/** Hono's `/:id` and `/:name{image|video}` as OpenAPI's `{id}`, without a trailing slash. */
export const openApiPath = (path: string) =>
  path.replace(/\/:(\w+)(\{[^}]*\})?/g, "/{$1}").replace(/\/$/, "") || "/";

/** Whether a handler registered at `pattern` runs for requests to the route at `path`: the same, or a `/*` above it. */
const covers = (pattern: string, path: string) => {
  if (pattern === path || pattern === "*" || pattern === "/*") return true;
  if (!pattern.endsWith("/*")) return false;
  const base = pattern.slice(0, -2);
  return path === base || path.startsWith(`${base}/`);
};

/** Every described route of `app`, in the order they were registered. */
export const declaredRoutes = (app: { routes: readonly RouterRoute[] }): DeclaredRoute[] => {
  const { routes } = app;
  const declared: DeclaredRoute[] = [];
  routes.forEach((route, i) => {
    const doc = routeDocOf(route.handler);
    if (!doc) return;
    // The route's own handler is the last one registered for its method and path; what comes before it runs first.
    const last = routes.findLastIndex((r) => r.method === route.method && r.path === route.path);
    const before = routes
      .slice(0, last)
      .filter(
        (r, j) => j !== i && (r.method === "ALL" || r.method === route.method) && covers(r.path, route.path),
      )
      .map((r) => r.handler);
    declared.push({ method: route.method, path: openApiPath(route.path), doc, before });
  });
  return declared;
};
