/**
 * The renderer as a Cloudflare Container (production). Locally there is no Docker engine, so
 * `[dev] enable_containers = false` and the Worker reaches a plain Node process through RENDERER_URL instead.
 */
import { Container } from "@cloudflare/containers";
import type { Env } from "../env.ts";

export class RendererContainer extends Container<Env> {
  override defaultPort = 8080;
  // Keep a warm renderer for a while after the last job: start-up (ffmpeg + Chromium) costs seconds.
  override sleepAfter = "15m";

  constructor(ctx: DurableObjectState<{}>, env: Env) {
    super(ctx, env);
    this.envVars = { RENDERER_SECRET: env.RENDERER_SECRET, HOST: "0.0.0.0", PORT: "8080" };
  }
}
