/**
 * Whether the hosted font catalogue is on (`FONT_CATALOGUE_ONLINE = "true"`: production wrangler.toml vars;
 * "false" in local runs and tests, which have no internet). Read from the Worker's env at call time, so
 * config validation (which has no env parameter) and the renderer agree.
 */
import { env } from "cloudflare:workers";

export const catalogueOnline = (): boolean =>
  (env as { FONT_CATALOGUE_ONLINE?: string }).FONT_CATALOGUE_ONLINE === "true";
