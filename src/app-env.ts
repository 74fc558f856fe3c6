/** Hono's environment type for this app: the bindings plus the per-request variables set by middleware. */
import type { Caller } from "./auth/caller";
import type { Ctx } from "./context";
import type { Env } from "./env";

export interface AppEnv {
  Bindings: Env;
  Variables: {
    requestId: string;
    /** Set for every request by the app's first middleware. */
    ctx: Ctx;
    /** Set by the authentication middleware. */
    caller: Caller;
  };
}
