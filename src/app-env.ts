/** Hono's environment type for this app: the bindings plus the per-request variables set by middleware. */
import type { Caller } from "./auth/caller.ts";
import type { Ctx } from "./context.ts";
import type { Env } from "./env.ts";
import type { RouteRateLimit } from "./lib/rate-limit.ts";

export interface AppEnv {
  Bindings: Env;
  Variables: {
    requestId: string;
    /** Set for every request by the app's first middleware. */
    ctx: Ctx;
    /** Set by the authentication middleware. */
    caller: Caller;
    /**
     * The rate limits this request counts against when not its own route's: an MCP tools/call counts as a request
     * to the route its tool stands for (src/mcp/routes.ts).
     */
    rateLimitAs?: RouteRateLimit;
    /** The MCP request's JSON-RPC message, read before authentication to find its tool (src/mcp/routes.ts). */
    mcpMessage?: string;
  };
}
