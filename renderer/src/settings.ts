/**
 * Renderer configuration, read once from the environment and validated (the environment is a trust boundary).
 * This is the only module that reads `process.env`: everything else receives its settings through `AppDeps`
 * or a render's options, so what `/health` reports is what the renderer actually launches.
 * Empty strings count as unset so `PORT=` in a shell does not turn into port 0.
 * Like the other files at the root, it wires: it imports the folders (what a render needs and its defaults are
 * video/render-tools.ts), and no folder imports a value from it (scripts/check-layers.mjs).
 */
import { readFileSync } from "node:fs";
import { availableParallelism, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import * as v from "valibot";
import { DEFAULT_TOOL_UIDS, type UidRange } from "./lib/tool-users.ts";
import { CHROMIUM_SANDBOX } from "./video/raster/launch-chromium.ts";
import { CAPTURE_METHODS, DEFAULT_RENDER_TOOLS, type RenderTools } from "./video/render-tools.ts";

export { DEFAULT_RENDER_TOOLS };

const DEFAULT_PROBE_MAX_BYTES = 200 * 1024 * 1024;

const GL_TRANSITIONS = ["native", "page"] as const;

const MAX_CAPTURE_WORKERS = 8;

/** One render per CPU pair: an encode keeps two cores busy (measured: a second render on 2 cores halves both). */
const DEFAULT_SLOTS = Math.max(1, Math.floor(availableParallelism() / 2));

/**
 * The machine's memory: the cgroup's limit when the renderer runs under one that is lower (a container), else
 * the total.
 */
const machineMemory = (): number => {
  try {
    const limit = Number(readFileSync("/sys/fs/cgroup/memory.max", "utf8").trim());
    if (Number.isFinite(limit) && limit > 0) return Math.min(limit, totalmem());
  } catch {
    // no cgroup v2 limit (or "max"): the machine's total
  }
  return totalmem();
};

/**
 * A render's share of memory by default: three quarters of the machine (the rest is Node, the browsers, the
 * system) split between the slots. A `standard-1` instance (4 GiB, one slot): 3 GiB.
 */
const defaultJobMemoryMb = (slots: number) => Math.floor((0.75 * machineMemory()) / slots / 2 ** 20);

const unsignedInt = (name: string, max: number) =>
  v.pipe(
    v.string(),
    v.regex(/^\d+$/, `${name} must be a non-negative integer`),
    v.transform(Number),
    v.maxValue(max, `${name} must be at most ${max}`),
  );

const nonEmpty = (name: string) => v.pipe(v.string(), v.nonEmpty(`${name} must not be empty`));

/** `first-last`: the uids tools run as (never 0, first <= last). */
const uidRange = v.pipe(
  v.string(),
  v.regex(/^\d{1,10}-\d{1,10}$/, "TOOL_UIDS must be two uids, first-last"),
  v.transform((range): UidRange => {
    const [first, last] = range.split("-").map(Number) as [number, number];
    return { first, last };
  }),
  v.check((r) => r.first >= 1 && r.first <= r.last, "TOOL_UIDS must go from a uid above 0 up to a uid"),
);

/** The environment variables the renderer reads; the output type is {@link Config}. */
export const RendererEnv = v.object({
  HOST: v.optional(nonEmpty("HOST"), "127.0.0.1"),
  PORT: v.optional(unsignedInt("PORT", 65535), "8788"),
  RENDERER_SECRET: v.pipe(v.string("RENDERER_SECRET is required"), v.nonEmpty("RENDERER_SECRET is required")),
  TMP_DIR: v.optional(nonEmpty("TMP_DIR"), join(tmpdir(), "renderer")),
  PROBE_MAX_BYTES: v.optional(
    unsignedInt("PROBE_MAX_BYTES", Number.MAX_SAFE_INTEGER),
    String(DEFAULT_PROBE_MAX_BYTES),
  ),
  FFMPEG_PATH: v.optional(nonEmpty("FFMPEG_PATH"), DEFAULT_RENDER_TOOLS.ffmpegPath),
  FFPROBE_PATH: v.optional(nonEmpty("FFPROBE_PATH"), DEFAULT_RENDER_TOOLS.ffprobePath),
  CHROMIUM_HEADLESS_PATH: v.optional(nonEmpty("CHROMIUM_HEADLESS_PATH"), DEFAULT_RENDER_TOOLS.chromiumPath),
  CHROMIUM_USER: v.optional(nonEmpty("CHROMIUM_USER"), DEFAULT_RENDER_TOOLS.chromiumUser),
  CHROMIUM_SANDBOX: v.optional(
    v.picklist(CHROMIUM_SANDBOX, `CHROMIUM_SANDBOX must be one of ${CHROMIUM_SANDBOX.join(", ")}`),
    DEFAULT_RENDER_TOOLS.chromiumSandbox,
  ),
  HTML_CAPTURE: v.optional(
    v.picklist(CAPTURE_METHODS, `HTML_CAPTURE must be one of ${CAPTURE_METHODS.join(", ")}`),
    DEFAULT_RENDER_TOOLS.htmlCapture,
  ),
  HTML_CAPTURE_WORKERS: v.optional(
    v.pipe(
      unsignedInt("HTML_CAPTURE_WORKERS", MAX_CAPTURE_WORKERS),
      v.minValue(1, "HTML_CAPTURE_WORKERS must be at least 1"),
    ),
    String(DEFAULT_RENDER_TOOLS.htmlCaptureWorkers),
  ),
  RENDER_SLOTS: v.optional(
    v.pipe(unsignedInt("RENDER_SLOTS", 64), v.minValue(1, "RENDER_SLOTS must be at least 1")),
    String(DEFAULT_SLOTS),
  ),
  RENDER_QUEUE_MAX: v.optional(unsignedInt("RENDER_QUEUE_MAX", 1000)),
  RENDER_QUEUE_PER_ACCOUNT: v.optional(
    v.pipe(
      unsignedInt("RENDER_QUEUE_PER_ACCOUNT", 1000),
      v.minValue(1, "RENDER_QUEUE_PER_ACCOUNT must be at least 1"),
    ),
  ),
  RENDER_JOB_MEMORY_MB: v.optional(
    v.pipe(
      unsignedInt("RENDER_JOB_MEMORY_MB", 1 << 20),
      v.minValue(16, "RENDER_JOB_MEMORY_MB must be at least 16"),
    ),
  ),
  POCKETSPHINX_PATH: v.optional(nonEmpty("POCKETSPHINX_PATH"), DEFAULT_RENDER_TOOLS.pocketsphinxPath),
  ESPEAK_PATH: v.optional(nonEmpty("ESPEAK_PATH"), DEFAULT_RENDER_TOOLS.espeakPath),
  GL_TRANSITIONS: v.optional(
    v.picklist(GL_TRANSITIONS, `GL_TRANSITIONS must be one of ${GL_TRANSITIONS.join(", ")}`),
    "native",
  ),
  GL_TRANSITION_PATH: v.optional(nonEmpty("GL_TRANSITION_PATH")),
  TOOL_UIDS: v.optional(uidRange, `${DEFAULT_TOOL_UIDS.first}-${DEFAULT_TOOL_UIDS.last}`),
  GL_FRAME_SECONDS: v.optional(
    v.pipe(unsignedInt("GL_FRAME_SECONDS", 600), v.minValue(1, "GL_FRAME_SECONDS must be at least 1")),
    String(DEFAULT_RENDER_TOOLS.glFrameSeconds),
  ),
});

/** Validated renderer settings. */
export interface Config extends RenderTools {
  host: string;
  /** 0 asks the OS for a free port (tests). */
  port: number;
  /** Shared with the Worker: signs Worker -> renderer requests and renderer -> Worker callbacks. */
  rendererSecret: string;
  /** Root for per-request temp directories; created at start-up. */
  tmpDir: string;
  /** Largest body POST /probe accepts (413 beyond it). */
  probeMaxBytes: number;
  /** Renders at once (RENDER_SLOTS, default one per CPU pair). */
  renderSlots: number;
  /** Accepted jobs waiting for a slot, beyond which offers are answered busy (RENDER_QUEUE_MAX, default 2 x slots). */
  renderQueueMax: number;
  /** Jobs of one account held at once, running or waiting (RENDER_QUEUE_PER_ACCOUNT, default slots + 1). */
  renderQueuePerAccount: number;
  /**
   * The resident memory a render's own processes (its ffmpeg runs and GL helpers) may hold together before it is
   * stopped as the job's fault (RENDER_JOB_MEMORY_MB, default 3/4 of the machine's memory split between the slots).
   */
  renderJobMemoryMb: number;
  /**
   * The uids external tools run as when the renderer is root (TOOL_UIDS, default 60000-60999): one per task at a
   * time (lib/tool-users.ts). None may belong to a user or group of the machine.
   */
  toolUids: UidRange;
}

/** Reads and validates the configuration; throws one Error listing every problem. */
export const loadConfig = (env: Record<string, string | undefined> = process.env): Config => {
  const cleaned = Object.fromEntries(
    Object.keys(RendererEnv.entries).map((key) => [key, env[key] === "" ? undefined : env[key]]),
  );
  const result = v.safeParse(RendererEnv, cleaned);
  if (!result.success) {
    const problems = result.issues.map((issue) => issue.message).join("; ");
    throw new Error(`Invalid renderer configuration: ${problems}`);
  }
  const parsed = result.output;
  // Two waiting places per slot, and one account may hold a slot's worth plus one: its next job is always ready
  // when a render ends (no idle gap while it backs off), and a place is always left for another account.
  const queueMax = parsed.RENDER_QUEUE_MAX ?? 2 * parsed.RENDER_SLOTS;
  return {
    host: parsed.HOST,
    port: parsed.PORT,
    rendererSecret: parsed.RENDERER_SECRET,
    tmpDir: parsed.TMP_DIR,
    probeMaxBytes: parsed.PROBE_MAX_BYTES,
    ffmpegPath: parsed.FFMPEG_PATH,
    ffprobePath: parsed.FFPROBE_PATH,
    chromiumPath: parsed.CHROMIUM_HEADLESS_PATH,
    chromiumUser: parsed.CHROMIUM_USER,
    chromiumSandbox: parsed.CHROMIUM_SANDBOX,
    htmlCapture: parsed.HTML_CAPTURE,
    htmlCaptureWorkers: parsed.HTML_CAPTURE_WORKERS,
    renderSlots: parsed.RENDER_SLOTS,
    renderQueueMax: queueMax,
    renderQueuePerAccount:
      parsed.RENDER_QUEUE_PER_ACCOUNT ?? Math.min(parsed.RENDER_SLOTS + 1, parsed.RENDER_SLOTS + queueMax),
    renderJobMemoryMb: parsed.RENDER_JOB_MEMORY_MB ?? defaultJobMemoryMb(parsed.RENDER_SLOTS),
    pocketsphinxPath: parsed.POCKETSPHINX_PATH,
    espeakPath: parsed.ESPEAK_PATH,
    glTransitionPath:
      parsed.GL_TRANSITIONS === "page"
        ? null
        : (parsed.GL_TRANSITION_PATH ?? DEFAULT_RENDER_TOOLS.glTransitionPath),
    glFrameSeconds: parsed.GL_FRAME_SECONDS,
    toolUids: parsed.TOOL_UIDS,
  };
};
