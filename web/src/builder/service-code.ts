/**
 * The one place the builder takes the service's own code from (src/): the pieces the service itself renders and
 * validates with, so the builder never keeps a second copy of them. Each is pure and runs in the browser:
 * - the timeline of a video config (clip starts, transition overlaps): src/contract/timeline.ts;
 * - the transition names (editly's aliases, gl-transitions 1.43 and later) and audio curves;
 * - the bundled font catalogue (the families `googleFont` may name offline);
 * - the documented defaults (text size, colours, clip length).
 * The preview frame takes the image compile step itself (preview/main.ts), in its own bundle.
 */
export { buildTimeline, type Timeline } from "../../../src/contract/timeline.ts";
export {
  AUDIO_CURVES,
  EDITLY_TRANSITIONS,
  GL_TRANSITIONS_1_43,
  GL_TRANSITIONS_LATER,
  TRANSITION_NAMES,
} from "../../../src/contract/config/transitions.ts";
export { CATALOG_FAMILIES } from "../../../src/contract/fonts/catalog.ts";
export { IMAGE_DEFAULTS, VIDEO_DEFAULTS } from "../../../src/contract/config/limits.ts";
/** Ready-made jobs to start from (each validated by test/worker/docs.test.ts). */
export { GALLERY } from "../../../src/docs/examples.ts";
