/**
 * A video config parsed by the contract's grammar, as the route hands it to the renderer: tests that call
 * renderVideo directly build their configs through this, so they can only render what a request could ask.
 */
import * as v from "valibot";
import { VideoConfigSchema, type VideoConfig } from "@media-render/contract/config/video";
import { toFieldErrors } from "@media-render/contract/field-errors";

/** Parses `raw`; throws listing every field the grammar refuses. */
export const videoConfig = (raw: unknown): VideoConfig => {
  const parsed = v.safeParse(VideoConfigSchema, raw);
  if (parsed.success) return parsed.output;
  const errors = toFieldErrors(parsed.issues, "config").map((e) => `${e.field}: ${e.message}`);
  throw new Error(`invalid video config: ${errors.join("; ")}`);
};
