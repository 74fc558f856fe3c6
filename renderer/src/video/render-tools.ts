/**
 * The external programs a render launches and how it drives Chromium, and their defaults: what video/ needs of the
 * renderer's configuration. settings.ts (the environment, at the root) reads them over these defaults and passes them
 * down (`renderVideo({ tools })`), so the settings flow one way: the root imports video/, never the reverse.
 */
import { builtGlTransition } from "./gl/native-gl.ts";
import chromiumIsolation from "./raster/chromium-isolation.json" with { type: "json" };
import type { ChromiumLaunch } from "./raster/launch-chromium.ts";

/** How html layers are captured: HeadlessExperimental.beginFrame (fast), or page.screenshot (fallback). */
export const CAPTURE_METHODS = ["beginframe", "screenshot"] as const;
export type CaptureMethod = (typeof CAPTURE_METHODS)[number];

/**
 * The external programs a render launches and how it drives Chromium: the part of the renderer's `Config` (settings.ts)
 * renders need.
 */
export interface RenderTools {
  ffmpegPath: string;
  ffprobePath: string;
  /** The Chromium binary the rasteriser launches (text sheets and html layers); /health reports its version. */
  chromiumPath: string;
  /**
   * The unprivileged user every Chromium runs as when the renderer is root (video/raster/launch-chromium.ts):
   * pages run users' scripts and shaders, and must not reach the renderer's secrets.
   */
  chromiumUser: string;
  /** Chromium's own sandbox on top of that user: `auto` (wherever it starts) or `off`. */
  chromiumSandbox: ChromiumLaunch["chromiumSandbox"];
  /** `beginframe`, or `screenshot` for a Chromium without begin-frame control. */
  htmlCapture: CaptureMethod;
  /** Begin-frame browser processes that share one animated html layer's frames (1..8). */
  htmlCaptureWorkers: number;
  /** The offline speech recogniser autoSubtitles runs (Debian's `pocketsphinx_continuous`). */
  pocketsphinxPath: string;
  /** The offline voice of `speech` layers (Debian's `espeak-ng`). */
  espeakPath: string;
  /**
   * The native transition drawer (renderer/native/gl-transition.c, built by the setup and the Dockerfile),
   * or null: transitions are drawn on the WebGL page (GL_TRANSITIONS=page, or the helper is not built).
   */
  glTransitionPath: string | null;
  /**
   * The longest one gl layer frame may take on the WebGL page before the job fails (GL_FRAME_SECONDS, default 10):
   * shaders run on software GL, and one that never finishes a frame spins the page's GPU process until then.
   */
  glFrameSeconds: number;
}

/** What a render uses when the environment says nothing (tests and the benchmark call renderVideo directly). */
export const DEFAULT_RENDER_TOOLS: RenderTools = {
  ffmpegPath: "ffmpeg",
  ffprobePath: "ffprobe",
  // Debian's headless shell: starts faster than the full browser and has begin-frame control.
  chromiumPath: "/usr/lib/chromium/chromium-headless-shell",
  // Created by the project's setup and by the image (chromium-isolation.json is the one copy of the name).
  chromiumUser: chromiumIsolation.user,
  chromiumSandbox: "auto",
  htmlCapture: "beginframe",
  // A PNG encode per frame keeps one Chromium busy; two share a 2-core machine's cores.
  htmlCaptureWorkers: 2,
  pocketsphinxPath: "pocketsphinx_continuous",
  espeakPath: "espeak-ng",
  glTransitionPath: builtGlTransition(),
  glFrameSeconds: 10,
};
