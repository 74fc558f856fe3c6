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

const x = (xfade: string): TransitionMapping => ({ xfade, match: "exact" });
const a = (xfade: string): TransitionMapping => ({ xfade, match: "approx" });
const c = (expr: string): TransitionMapping => ({ xfade: "custom", match: "custom", expr });

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
  "directional-left": x("slideleft"),
  "directional-right": x("slideright"),
  "directional-up": x("slideup"),
  "directional-down": x("slidedown"),
  // editly `dummy`: frames switch at the midpoint of the overlap, audio still cross-fades.
  dummy: c("if(gt(P,0.5),A,B)"),
  Bounce: a("slidedown"),
  BowTieHorizontal: a("horzopen"),
  BowTieVertical: a("vertopen"),
  ButterflyWaveScrawler: a("dissolve"),
  CircleCrop: x("circlecrop"),
  ColourDistance: x("distance"),
  CrazyParametricFun: a("dissolve"),
  CrossZoom: a("zoomin"),
  Directional: x("slidedown"),
  DoomScreenTransition: a("vdslice"),
  Dreamy: a("fadeslow"),
  DreamyZoom: a("zoomin"),
  GlitchDisplace: a("pixelize"),
  GlitchMemories: a("pixelize"),
  GridFlip: a("pixelize"),
  InvertedPageCurl: a("smoothleft"),
  LinearBlur: a("hblur"),
  Mosaic: a("pixelize"),
  PolkaDotsCurtain: a("circleopen"),
  Radial: x("radial"),
  SimpleZoom: x("zoomin"),
  StereoViewer: a("squeezeh"),
  Swirl: a("radial"),
  WaterDrop: a("circleopen"),
  ZoomInCircles: a("circleopen"),
  angular: a("radial"),
  // gl `burn`: a fade that flares warm in the middle (Y brighter, V towards red, U towards blue-less).
  burn: c("A*P+B*(1-P)+if(eq(PLANE,0),60,if(eq(PLANE,2),25,if(eq(PLANE,1),-15,0)))*sin(PI*P)"),
  cannabisleaf: a("circleopen"),
  circle: a("circlecrop"),
  circleopen: x("circleopen"),
  // gl `colorphase`: colour channels cross over at different speeds.
  colorphase: c("if(eq(PLANE,0),A*P+B*(1-P),if(eq(PLANE,1),if(gt(P,0.7),A,B),if(gt(P,0.3),A,B)))"),
  crosshatch: a("dissolve"),
  crosswarp: a("smoothleft"),
  cube: a("slideleft"),
  directionalwarp: a("smoothleft"),
  directionalwipe: a("diagtr"),
  displacement: a("dissolve"),
  doorway: a("vertopen"),
  fade: x("fade"),
  fadecolor: x("fadeblack"),
  fadegrayscale: x("fadegrays"),
  flyeye: a("zoomin"),
  heart: a("circleopen"),
  hexagonalize: a("pixelize"),
  kaleidoscope: a("distance"),
  luma: a("dissolve"),
  luminance_melt: a("vdslice"),
  morph: a("distance"),
  // gl `multiply_blend`: both pictures multiplied together at the midpoint (luma only; chroma fades).
  multiply_blend: c("if(eq(PLANE,0),A*P+B*(1-P)-(A*P+B*(1-P)-A*B/255)*sin(PI*P),A*P+B*(1-P))"),
  perlin: a("dissolve"),
  pinwheel: a("radial"),
  pixelize: x("pixelize"),
  polar_function: a("circleopen"),
  randomsquares: a("dissolve"),
  ripple: a("circleopen"),
  rotate_scale_fade: a("zoomin"),
  squareswire: a("diagbr"),
  squeeze: x("squeezev"),
  swap: a("slideleft"),
  undulatingBurnOut: a("circleopen"),
  wind: a("smoothright"),
  windowblinds: a("vuslice"),
  windowslice: x("hrslice"),
  wipeDown: x("wipedown"),
  wipeLeft: x("wipeleft"),
  wipeRight: x("wiperight"),
  wipeUp: x("wipeup"),
  // §3.3: names added by gl-transitions 1.44-1.71.
  AdvancedMosaic: a("pixelize"),
  BlockDissolve: a("dissolve"),
  BookFlip: a("slideleft"),
  BowTieWithParameter: a("horzopen"),
  Box: a("rectcrop"),
  burn0: a("fadewhite"),
  chessboard: a("dissolve"),
  "coord-from-in": a("zoomin"),
  DefocusBlur: a("hblur"),
  "directional-easing": a("slideleft"),
  DirectionalScaled: a("slideleft"),
  dissolve: a("fadewhite"),
  Drop_Zone_Flicker: a("dissolve"),
  EdgeTransition: a("distance"),
  FilmBurn: a("fadewhite"),
  Fold: a("squeezeh"),
  fragment: a("dissolve"),
  HorizontalClose: x("horzclose"),
  HorizontalOpen: x("horzopen"),
  HSVfade: a("fade"),
  LeftRight: a("wipeleft"),
  mosaic_transition: a("pixelize"),
  old_tv_lost_signal: a("dissolve"),
  Overexposure: a("fadewhite"),
  parametric_glitch: a("pixelize"),
  powerKaleido: a("distance"),
  PuzzleRight: a("wiperight"),
  randomNoisex: a("dissolve"),
  Rectangle: a("rectcrop"),
  RectangleCrop: x("rectcrop"),
  Revolve_Left: a("slideleft"),
  Rolls: a("slideup"),
  RotateScaleVanish: a("zoomin"),
  rotateTransition: a("radial"),
  "scale-in": a("zoomin"),
  SimpleFlip: a("squeezeh"),
  SimpleZoomOut: a("zoomin"),
  Slides: a("slideleft"),
  splitSlideInHorizontal: a("horzclose"),
  splitSlideInOutHorizontal: a("horzopen"),
  splitSlideInOutVertical: a("vertopen"),
  splitSlideInVertical: a("vertclose"),
  splitSlideOutHorizontal: a("horzopen"),
  splitSlideOutVertical: a("vertopen"),
  StarWipe: a("circleopen"),
  StaticFade: a("dissolve"),
  static_wipe: a("wiperight"),
  StripDatamoshGlitch: a("hrslice"),
  tangentMotionBlur: a("hblur"),
  TilesWave: a("pixelize"),
  TopBottom: a("wipedown"),
  TVStatic: a("dissolve"),
  VerticalClose: x("vertclose"),
  VerticalOpen: x("vertopen"),
  x_axis_translation: a("slideleft"),
  zoomInOut: a("zoomin"),
  ZoomLeftWipe: a("wipeleft"),
  ZoomRigthWipe: a("wiperight"),
};
