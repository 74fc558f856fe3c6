/**
 * Transition names and audio cross-fade curves (config reference §3). Names are matched without regard to
 * case, like editly (`crosszoom`, `directionalWarp`), and normalised to the documented spelling.
 */
import * as v from "valibot";
import { anyCase } from "./any-case.ts";
import { bool, numberIn, oneOf, strict } from "./common.ts";
import { VIDEO_MAX_DURATION } from "./limits.ts";

/** editly aliases and pseudo-transitions. */
export const EDITLY_TRANSITIONS = [
  "directional-left",
  "directional-right",
  "directional-up",
  "directional-down",
  "random",
  "dummy",
] as const;

/** gl-transitions 1.43.0 (the 67 names JsonCut and editly document). */
export const GL_TRANSITIONS_1_43 = [
  "Bounce",
  "BowTieHorizontal",
  "BowTieVertical",
  "ButterflyWaveScrawler",
  "CircleCrop",
  "ColourDistance",
  "CrazyParametricFun",
  "CrossZoom",
  "Directional",
  "DoomScreenTransition",
  "Dreamy",
  "DreamyZoom",
  "GlitchDisplace",
  "GlitchMemories",
  "GridFlip",
  "InvertedPageCurl",
  "LinearBlur",
  "Mosaic",
  "PolkaDotsCurtain",
  "Radial",
  "SimpleZoom",
  "StereoViewer",
  "Swirl",
  "WaterDrop",
  "ZoomInCircles",
  "angular",
  "burn",
  "cannabisleaf",
  "circle",
  "circleopen",
  "colorphase",
  "crosshatch",
  "crosswarp",
  "cube",
  "directionalwarp",
  "directionalwipe",
  "displacement",
  "doorway",
  "fade",
  "fadecolor",
  "fadegrayscale",
  "flyeye",
  "heart",
  "hexagonalize",
  "kaleidoscope",
  "luma",
  "luminance_melt",
  "morph",
  "multiply_blend",
  "perlin",
  "pinwheel",
  "pixelize",
  "polar_function",
  "randomsquares",
  "ripple",
  "rotate_scale_fade",
  "squareswire",
  "squeeze",
  "swap",
  "undulatingBurnOut",
  "wind",
  "windowblinds",
  "windowslice",
  "wipeDown",
  "wipeLeft",
  "wipeRight",
  "wipeUp",
] as const;

/** Names added by gl-transitions 1.44.0..1.71.0. */
export const GL_TRANSITIONS_LATER = [
  "AdvancedMosaic",
  "BlockDissolve",
  "BookFlip",
  "BowTieWithParameter",
  "Box",
  "burn0",
  "chessboard",
  "coord-from-in",
  "DefocusBlur",
  "directional-easing",
  "DirectionalScaled",
  "dissolve",
  "Drop_Zone_Flicker",
  "EdgeTransition",
  "FilmBurn",
  "Fold",
  "fragment",
  "HorizontalClose",
  "HorizontalOpen",
  "HSVfade",
  "LeftRight",
  "mosaic_transition",
  "old_tv_lost_signal",
  "Overexposure",
  "parametric_glitch",
  "powerKaleido",
  "PuzzleRight",
  "randomNoisex",
  "Rectangle",
  "RectangleCrop",
  "Revolve_Left",
  "Rolls",
  "RotateScaleVanish",
  "rotateTransition",
  "scale-in",
  "SimpleFlip",
  "SimpleZoomOut",
  "Slides",
  "splitSlideInHorizontal",
  "splitSlideInOutHorizontal",
  "splitSlideInOutVertical",
  "splitSlideInVertical",
  "splitSlideOutHorizontal",
  "splitSlideOutVertical",
  "StarWipe",
  "StaticFade",
  "static_wipe",
  "StripDatamoshGlitch",
  "tangentMotionBlur",
  "TilesWave",
  "TopBottom",
  "TVStatic",
  "VerticalClose",
  "VerticalOpen",
  "x_axis_translation",
  "zoomInOut",
  "ZoomLeftWipe",
  "ZoomRigthWipe",
] as const;

export const TRANSITION_NAMES = [
  ...EDITLY_TRANSITIONS,
  ...GL_TRANSITIONS_1_43,
  ...GL_TRANSITIONS_LATER,
] as const;
export type TransitionName = (typeof TRANSITION_NAMES)[number];

/** ffmpeg afade/acrossfade curve names. */
export const AUDIO_CURVES = [
  "tri",
  "qsin",
  "hsin",
  "esin",
  "log",
  "ipar",
  "qua",
  "cub",
  "squ",
  "cbr",
  "par",
  "exp",
  "iqsin",
  "ihsin",
  "dese",
  "desi",
  "losi",
  "nofade",
] as const;

const CANONICAL = new Map<string, TransitionName>(TRANSITION_NAMES.map((n) => [n.toLowerCase(), n]));

/**
 * A pattern that accepts every name in any casing (`[bB][uU][rR][nN]`): the JSON Schema states what the
 * grammar accepts (JSON Schema patterns carry no case-insensitive flag).
 */
export const TRANSITION_NAME_PATTERN = `^(?:${TRANSITION_NAMES.map(anyCase).join("|")})$`;

/** The string a transition name starts as (the JSON Schema override hooks onto it: see TransitionNameSchema). */
export const TransitionNameString = v.string("must be a string");

/** A transition name in any casing, normalised to its documented spelling. */
export const TransitionNameSchema = v.pipe(
  TransitionNameString,
  v.check(
    (s) => CANONICAL.has(s.toLowerCase()),
    (i) =>
      `Unknown transition ${JSON.stringify(i.input)}: use a gl-transitions name (any casing), a directional-* alias, "random" or "dummy"`,
  ),
  v.transform((s) => CANONICAL.get(s.toLowerCase())!),
);
/** Curve names a config may also use for one of AUDIO_CURVES (docs/config-grammar.md's `linear` = `tri`, as JsonCut lists it). */
export const AUDIO_CURVE_ALIASES = { linear: "tri" } as const satisfies Record<string, AudioCurveName>;
type AudioCurveName = (typeof AUDIO_CURVES)[number];
const CURVE_NAMES = [
  ...AUDIO_CURVES,
  ...(Object.keys(AUDIO_CURVE_ALIASES) as (keyof typeof AUDIO_CURVE_ALIASES)[]),
];

/** An afade/acrossfade curve name or an alias, normalised to the ffmpeg name. */
const AudioCurve = v.pipe(
  v.picklist(CURVE_NAMES, `must be an audio curve: ${CURVE_NAMES.join(", ")}`),
  v.transform((c): AudioCurveName =>
    c in AUDIO_CURVE_ALIASES ? AUDIO_CURVE_ALIASES[c as "linear"] : (c as AudioCurveName),
  ),
);

/**
 * A transition into the next clip. Missing `name`: `fade`; missing `duration`: 0.5 s; `duration: 0` is a
 * hard cut. The effective length is clamped to half of each neighbouring clip.
 */
export const TransitionSchema = strict("transition", {
  name: v.optional(TransitionNameSchema),
  /**
   * At most the longest video: JsonCut and editly set no bound, and the effective overlap is clamped to half of
   * each neighbouring clip anyway.
   */
  duration: v.optional(numberIn(0, VIDEO_MAX_DURATION)),
  audioOutCurve: v.optional(AudioCurve),
  audioInCurve: v.optional(AudioCurve),
  /** editly easing of the visual progress. */
  easing: v.optional(v.nullable(oneOf(["linear", "easeOutExpo", "easeInOutCubic"]))),
  /** Shader uniforms (e.g. `{direction: [1, 0]}`). */
  params: v.optional(v.record(v.string(), v.union([v.number(), bool(), v.string(), v.array(v.number())]))),
});
export type Transition = v.InferOutput<typeof TransitionSchema>;
