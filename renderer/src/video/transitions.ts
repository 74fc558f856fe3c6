/**
 * Resolves a transition name (case-insensitive, like editly) to an xfade mapping, including
 * `random` (a reproducible pick seeded by the job id) and the `params` tweaks editly supports.
 */
import { VIDEO_DEFAULTS } from "@media-render/contract/config/limits";
import { TRANSITIONS, XFADE_TWINS, type TransitionMapping } from "@media-render/contract/transition-map";
import { canvasHasAlpha } from "./outputs/encoders.ts";

const BY_LOWER = new Map(Object.entries(TRANSITIONS).map(([k, v]) => [k.toLowerCase(), { name: k, ...v }]));
/** Names `random` chooses from: every gl name plus the directional aliases (not `dummy`). */
export const RANDOM_POOL: readonly string[] = Object.keys(TRANSITIONS).filter((n) => n !== "dummy");

/** FNV-1a 32-bit hash: small, stable across platforms, good enough to seed a pick. */
export const hash32 = (text: string): number => {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
};

export interface ResolvedTransition extends TransitionMapping {
  /** The documented name actually used (after `random` and case folding). */
  name: string;
}

/**
 * Maps `name` to an xfade transition. `seed` (jobId + transition index) makes `random` reproducible.
 * Unknown names (the grammar refuses them; this keeps a render alive) fall back to the default transition.
 */
export const resolveTransition = (
  name: string,
  seed: string,
  params?: Record<string, unknown>,
): ResolvedTransition => {
  let key = name.toLowerCase();
  if (key === "random") key = RANDOM_POOL[hash32(seed) % RANDOM_POOL.length]!.toLowerCase();
  const fallback = VIDEO_DEFAULTS.transitionName;
  const found = BY_LOWER.get(key) ?? { name: fallback, ...TRANSITIONS[fallback] };
  const resolved: ResolvedTransition = { ...found };
  if (found.name === "Directional" && Array.isArray(params?.direction)) {
    const [dx, dy] = params.direction as unknown[];
    if (typeof dx === "number" && typeof dy === "number") {
      // gl direction (1,0) pushes the picture left; (0,1) down (see table note ¹ on vertical mirroring).
      resolved.xfade =
        Math.abs(dx) >= Math.abs(dy)
          ? dx >= 0
            ? "slideleft"
            : "slideright"
          : dy >= 0
            ? "slidedown"
            : "slideup";
    }
  }
  if (found.name === "fadecolor" && params?.color !== undefined) {
    const col = params?.color;
    const white = Array.isArray(col)
      ? col.every((v) => typeof v === "number" && v >= 0.5)
      : /^#?f{3,6}$|^white$/i.test(String(col));
    if (white) resolved.xfade = "fadewhite";
  }
  return resolved;
};

/** gl names that ffmpeg draws pixel for pixel like the shader (mixed-transitions.ts), outside webm (alpha planes). */
const FFMPEG_EXACT: ReadonlySet<string> = new Set(["wipeLeft", "wipeRight", "wipeUp", "wipeDown"]);

/**
 * Whether transition `name` (resolved) is drawn by its GLSL: every gl-transitions name except the exact
 * ffmpeg twins, which go to the shader too once `params` or an easing other than linear are asked for.
 */
export const drawnByGl = (
  name: string,
  params?: Record<string, unknown>,
  easing?: string | null,
  format?: string,
): boolean => {
  if (name === "dummy") return false;
  const custom =
    (params !== undefined && Object.keys(params).length > 0) || (easing ?? "linear") !== "linear";
  if (custom) return true;
  return !XFADE_TWINS.has(name) && !(!canvasHasAlpha(format) && FFMPEG_EXACT.has(name));
};
