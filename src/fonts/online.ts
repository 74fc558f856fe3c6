/**
 * Whether the hosted font catalogue is on (`FONT_CATALOGUE_ONLINE = "true"`: production wrangler.toml vars;
 * "false" in local runs and tests, which have no internet).
 */
import type { Env } from "../env.ts";

export const catalogueOnline = (env: Pick<Env, "FONT_CATALOGUE_ONLINE">): boolean =>
  env.FONT_CATALOGUE_ONLINE === "true";
