/**
 * Renderer configuration, read once from the environment and validated (the environment is a trust boundary).
 * Empty strings count as unset so `PORT=` in a shell does not turn into port 0.
 */
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as v from "valibot";

const DEFAULT_PROBE_MAX_BYTES = 200 * 1024 * 1024;

const unsignedInt = (name: string, max: number) =>
  v.pipe(
    v.string(),
    v.regex(/^\d+$/, `${name} must be a non-negative integer`),
    v.transform(Number),
    v.maxValue(max, `${name} must be at most ${max}`),
  );

const nonEmpty = (name: string) => v.pipe(v.string(), v.nonEmpty(`${name} must not be empty`));

/** The environment variables the renderer reads; the output type is {@link Config}. */
export const RendererEnv = v.object({
  HOST: v.optional(nonEmpty("HOST"), "127.0.0.1"),
  PORT: v.optional(unsignedInt("PORT", 65535), "8788"),
  RUNNER_SECRET: v.pipe(v.string("RUNNER_SECRET is required"), v.nonEmpty("RUNNER_SECRET is required")),
  TMP_DIR: v.optional(nonEmpty("TMP_DIR"), join(tmpdir(), "renderer")),
  PROBE_MAX_BYTES: v.optional(
    unsignedInt("PROBE_MAX_BYTES", Number.MAX_SAFE_INTEGER),
    String(DEFAULT_PROBE_MAX_BYTES),
  ),
  FFMPEG_PATH: v.optional(nonEmpty("FFMPEG_PATH"), "ffmpeg"),
  FFPROBE_PATH: v.optional(nonEmpty("FFPROBE_PATH"), "ffprobe"),
  CHROMIUM_PATH: v.optional(nonEmpty("CHROMIUM_PATH"), "/usr/bin/chromium"),
});

/** Validated renderer settings. */
export interface Config {
  host: string;
  /** 0 asks the OS for a free port (tests). */
  port: number;
  /** Shared with the Worker: signs Worker -> renderer requests and renderer -> Worker callbacks. */
  runnerSecret: string;
  /** Root for per-request temp directories; created at start-up. */
  tmpDir: string;
  /** Largest body POST /probe accepts (413 beyond it). */
  probeMaxBytes: number;
  ffmpegPath: string;
  ffprobePath: string;
  chromiumPath: string;
}

/** Reads and validates the configuration; throws one Error listing every problem. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(
    Object.keys(RendererEnv.entries).map((key) => [key, env[key] === "" ? undefined : env[key]]),
  );
  const result = v.safeParse(RendererEnv, cleaned);
  if (!result.success) {
    const problems = result.issues.map((issue) => issue.message).join("; ");
    throw new Error(`Invalid renderer configuration: ${problems}`);
  }
  const e = result.output;
  return {
    host: e.HOST,
    port: e.PORT,
    runnerSecret: e.RUNNER_SECRET,
    tmpDir: e.TMP_DIR,
    probeMaxBytes: e.PROBE_MAX_BYTES,
    ffmpegPath: e.FFMPEG_PATH,
    ffprobePath: e.FFPROBE_PATH,
    chromiumPath: e.CHROMIUM_PATH,
  };
}
