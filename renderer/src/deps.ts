/** What the routes get from the server (a leaf module, so routes and the app do not import each other). */
import type { Hono } from "hono";
import type { Config } from "./settings.ts";
import type { ToolUsers } from "./lib/tool-users.ts";
import type { ToolVersions } from "./tool-versions.ts";
import type { RenderQueue } from "./video/render-queue.ts";

/** What route modules may use; built once by server.ts. */
export interface AppDeps {
  config: Config;
  /** Tool versions read at start-up (GET /health). */
  tools: ToolVersions;
  /** Date.now() when the server started. */
  startedAt: number;
  /** Aborted when the server begins shutting down: long work (renders) should stop and clean up. */
  shutdownSignal: AbortSignal;
  /** The bounded queue of video renders (admission control), shared by the render, cancel and health routes. */
  renders: RenderQueue;
  /** The tool users tasks lease (lib/tool-users.ts): a job's or a probe's programs run as its own. */
  toolUsers: ToolUsers;
}

/** A route module: returns a sub-app whose paths are absolute (it is mounted at "/"). */
export type RouteFactory = (deps: AppDeps) => Hono;
