/**
 * The one place the builder takes the service's own code from (src/): the pieces the service itself renders and
 * validates with, so the builder never keeps a second copy of them. Each is pure and runs in the browser:
 * - the timeline of a video config (clip starts, transition overlaps): @media-render/contract/timeline;
 * - keyframed values (`valueAt`, the easings): @media-render/contract/keyframes, the maths the renderer compiles;
 * - the transition names (editly's aliases, gl-transitions 1.43 and later);
 * - the bundled font catalogue (the families `googleFont` may name offline);
 * - the gallery of ready-made jobs (each validated by test/worker/docs.test.ts);
 * - the named positions and origins of image layers, as the image page places them (src/image-renderer);
 * - template conditions (`when` on layers) and the variables a template derives, as saving one derives them.
 * The preview frame takes the image compile step itself (preview/compile.ts), in its own bundle.
 */
export { buildTimeline, type Timeline } from "@media-render/contract/timeline";
export { EASING_NAMES, valueAt, type Animated, type Keyframe } from "@media-render/contract/keyframes";
export {
  EDITLY_TRANSITIONS,
  GL_TRANSITIONS_1_43,
  GL_TRANSITIONS_LATER,
} from "@media-render/contract/config/transitions";
export { CATALOG_FAMILIES } from "@media-render/contract/fonts/catalog";
export { GALLERY } from "@media-render/contract/examples";
export { NAMED, ORIGIN } from "@media-render/image-page/placement";
export {
  CONDITION_KEY,
  parseCondition,
  withoutConditions,
  type LayerCondition,
} from "@media-render/contract/config/template-condition";
export { variableSchema } from "@media-render/contract/config/template-variables";
