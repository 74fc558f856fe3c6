/**
 * Every transition name the grammar accepts (§3.2 + §3.3, config/transitions.ts) mapped onto what the renderer
 * draws: an ffmpeg 5.1 `xfade` transition. The table is typed by the grammar's names, so a name without a
 * mapping (or a mapping without a name) fails to type-check; `random` alone is resolved by the renderer.
 * `match: "exact"` = the xfade kernel is a port of (or clearly the same effect as) the gl shader;
 * `"approx"` = the closest built-in look; `"custom"` = an xfade custom expression (P runs 1 → 0).
 * This table is data on purpose: docs/config-grammar.md publishes it verbatim.
 */
import type { TransitionName } from "./config/transitions.ts";

export interface TransitionMapping {
  xfade: string;
  match: "exact" | "approx" | "custom";
  /** xfade `expr` when xfade is "custom". */
  expr?: string;
}

const exact = (xfade: string): TransitionMapping => ({ xfade, match: "exact" });
const approx = (xfade: string): TransitionMapping => ({ xfade, match: "approx" });
const custom = (expr: string): TransitionMapping => ({ xfade: "custom", match: "custom", expr });

/**
 * Names the renderer draws with ffmpeg even when it can draw GLSL, because the ffmpeg drawing is the
 * shader's picture: `fade` (B over A at k/T, gl `mix(from, to, progress)`, equal up to rounding) and
 * editly's `dummy` (no shader). With `params` or an easing `fade` is drawn by its shader too. (The
 * `directional-*` slides are not twins: gl `Directional` shifts by fractions of a pixel and filters,
 * xfade's slides by whole pixels.)
 */
export const XFADE_TWINS: ReadonlySet<string> = new Set(["fade", "dummy"]);

/** Every name but `random`, which picks one of the others per job. */
export type MappedTransitionName = Exclude<TransitionName, "random">;

/** Name (as documented, case preserved) → mapping. */
export const TRANSITIONS: Readonly<Record<MappedTransitionName, TransitionMapping>> = {
  "directional-left": exact("slideleft"),
  "directional-right": exact("slideright"),
  "directional-up": exact("slideup"),
  "directional-down": exact("slidedown"),
  // editly `dummy`: frames switch at the midpoint of the overlap, audio still cross-fades.
  dummy: custom("if(gt(P,0.5),A,B)"),
  Bounce: approx("slidedown"),
  BowTieHorizontal: approx("horzopen"),
  BowTieVertical: approx("vertopen"),
  ButterflyWaveScrawler: approx("dissolve"),
  CircleCrop: exact("circlecrop"),
  ColourDistance: exact("distance"),
  CrazyParametricFun: approx("dissolve"),
  CrossZoom: approx("zoomin"),
  Directional: exact("slidedown"),
  DoomScreenTransition: approx("vdslice"),
  Dreamy: approx("fadeslow"),
  DreamyZoom: approx("zoomin"),
  GlitchDisplace: approx("pixelize"),
  GlitchMemories: approx("pixelize"),
  GridFlip: approx("pixelize"),
  InvertedPageCurl: approx("smoothleft"),
  LinearBlur: approx("hblur"),
  Mosaic: approx("pixelize"),
  PolkaDotsCurtain: approx("circleopen"),
  Radial: exact("radial"),
  SimpleZoom: exact("zoomin"),
  StereoViewer: approx("squeezeh"),
  Swirl: approx("radial"),
  WaterDrop: approx("circleopen"),
  ZoomInCircles: approx("circleopen"),
  angular: approx("radial"),
  // gl `burn`: a fade that flares warm in the middle (Y brighter, V towards red, U towards blue-less).
  burn: custom("A*P+B*(1-P)+if(eq(PLANE,0),60,if(eq(PLANE,2),25,if(eq(PLANE,1),-15,0)))*sin(PI*P)"),
  cannabisleaf: approx("circleopen"),
  circle: approx("circlecrop"),
  circleopen: exact("circleopen"),
  // gl `colorphase`: colour channels cross over at different speeds.
  colorphase: custom("if(eq(PLANE,0),A*P+B*(1-P),if(eq(PLANE,1),if(gt(P,0.7),A,B),if(gt(P,0.3),A,B)))"),
  crosshatch: approx("dissolve"),
  crosswarp: approx("smoothleft"),
  cube: approx("slideleft"),
  directionalwarp: approx("smoothleft"),
  directionalwipe: approx("diagtr"),
  displacement: approx("dissolve"),
  doorway: approx("vertopen"),
  fade: exact("fade"),
  fadecolor: exact("fadeblack"),
  fadegrayscale: exact("fadegrays"),
  flyeye: approx("zoomin"),
  heart: approx("circleopen"),
  hexagonalize: approx("pixelize"),
  kaleidoscope: approx("distance"),
  luma: approx("dissolve"),
  luminance_melt: approx("vdslice"),
  morph: approx("distance"),
  // gl `multiply_blend`: both pictures multiplied together at the midpoint (luma only; chroma fades).
  multiply_blend: custom("if(eq(PLANE,0),A*P+B*(1-P)-(A*P+B*(1-P)-A*B/255)*sin(PI*P),A*P+B*(1-P))"),
  perlin: approx("dissolve"),
  pinwheel: approx("radial"),
  pixelize: exact("pixelize"),
  polar_function: approx("circleopen"),
  randomsquares: approx("dissolve"),
  ripple: approx("circleopen"),
  rotate_scale_fade: approx("zoomin"),
  squareswire: approx("diagbr"),
  squeeze: exact("squeezev"),
  swap: approx("slideleft"),
  undulatingBurnOut: approx("circleopen"),
  wind: approx("smoothright"),
  windowblinds: approx("vuslice"),
  windowslice: exact("hrslice"),
  wipeDown: exact("wipedown"),
  wipeLeft: exact("wipeleft"),
  wipeRight: exact("wiperight"),
  wipeUp: exact("wipeup"),
  // §3.3: names added by gl-transitions 1.44-1.71.
  AdvancedMosaic: approx("pixelize"),
  BlockDissolve: approx("dissolve"),
  BookFlip: approx("slideleft"),
  BowTieWithParameter: approx("horzopen"),
  Box: approx("rectcrop"),
  burn0: approx("fadewhite"),
  chessboard: approx("dissolve"),
  "coord-from-in": approx("zoomin"),
  DefocusBlur: approx("hblur"),
  "directional-easing": approx("slideleft"),
  DirectionalScaled: approx("slideleft"),
  dissolve: approx("fadewhite"),
  Drop_Zone_Flicker: approx("dissolve"),
  EdgeTransition: approx("distance"),
  FilmBurn: approx("fadewhite"),
  Fold: approx("squeezeh"),
  fragment: approx("dissolve"),
  HorizontalClose: exact("horzclose"),
  HorizontalOpen: exact("horzopen"),
  HSVfade: approx("fade"),
  LeftRight: approx("wipeleft"),
  mosaic_transition: approx("pixelize"),
  old_tv_lost_signal: approx("dissolve"),
  Overexposure: approx("fadewhite"),
  parametric_glitch: approx("pixelize"),
  powerKaleido: approx("distance"),
  PuzzleRight: approx("wiperight"),
  randomNoisex: approx("dissolve"),
  Rectangle: approx("rectcrop"),
  RectangleCrop: exact("rectcrop"),
  Revolve_Left: approx("slideleft"),
  Rolls: approx("slideup"),
  RotateScaleVanish: approx("zoomin"),
  rotateTransition: approx("radial"),
  "scale-in": approx("zoomin"),
  SimpleFlip: approx("squeezeh"),
  SimpleZoomOut: approx("zoomin"),
  Slides: approx("slideleft"),
  splitSlideInHorizontal: approx("horzclose"),
  splitSlideInOutHorizontal: approx("horzopen"),
  splitSlideInOutVertical: approx("vertopen"),
  splitSlideInVertical: approx("vertclose"),
  splitSlideOutHorizontal: approx("horzopen"),
  splitSlideOutVertical: approx("vertopen"),
  StarWipe: approx("circleopen"),
  StaticFade: approx("dissolve"),
  static_wipe: approx("wiperight"),
  StripDatamoshGlitch: approx("hrslice"),
  tangentMotionBlur: approx("hblur"),
  TilesWave: approx("pixelize"),
  TopBottom: approx("wipedown"),
  TVStatic: approx("dissolve"),
  VerticalClose: exact("vertclose"),
  VerticalOpen: exact("vertopen"),
  x_axis_translation: approx("slideleft"),
  zoomInOut: approx("zoomin"),
  ZoomLeftWipe: approx("wipeleft"),
  ZoomRigthWipe: approx("wiperight"),
};
