/**
 * Text fitted into its box (`minFontSize` / `maxFontSize`, issue 45 §2): the text is drawn at the largest size of the
 * range at which it fits. This module holds the whole concept: the two properties of the grammar and their rules
 * (both or neither, the minimum at most the maximum, each within the layer type's font-size limits; they replace
 * `fontSize`), and the function that measures and sizes the text in the page that draws it.
 *
 * Creatomate calls them `font_size_minimum` / `font_size_maximum` (with `font_size` left unset); JsonCut has no
 * such properties, so the names clash with nothing of its grammar.
 *
 * Measuring: every page that draws such a layer runs `FIT_TEXT_FUNCTION` on its elements after their fonts have
 * loaded: the image page (src/image-renderer: an inline script the capture
 * waits for), the builder's preview of that same page (web/src/builder/preview), and the renderer's text sheet of a
 * video job (renderer/src/video/raster). So the size comes from the laid-out text itself (the browser's own line
 * breaking, shaping and fallback fonts, at sub-pixel precision), and what was measured is what is drawn.
 *
 * The function is JavaScript source, not a TypeScript function whose text is taken at run time: a bundler may
 * rewrite a function it compiles (wrangler's esbuild wraps named functions in a `__name` helper the page lacks).
 *
 * An element to fit carries its range in attributes, its font size starting at the maximum:
 * - `data-fit-min`, `data-fit-max`: the range, in px;
 * - `data-fit-height` (optional): the most its border box may be tall, in px;
 * - `data-fit-width` (optional): the most its border box may be wide, in px (a box whose width is not set, which
 *   would otherwise grow to hold a word too long for it).
 * Its width is its own (CSS `width` or `max-width`): every line must stay inside its content box, with no word
 * broken to make it fit (`overflow-wrap` is `normal` while measuring) and whitespace hanging at a wrap not counted.
 *
 * The size: `max` when the text fits at it, else the largest whole number of pixels between `min` and `max` at
 * which it fits (a binary search between one that fits and one that does not, so the size found fits and one
 * pixel more does not), else `min`, where a text that still does not fit overflows (as in Creatomate).
 */
import * as v from "valibot";

type Obj = Record<string, unknown>;
/** A rule violation (config/rules.ts `RuleIssue`; that module imports this one). */
interface RuleIssue {
  path: string[];
  message: string;
}

/** The two properties on a text layer type whose font sizes `size` accepts; `box` says what the text fits into. */
export const fitFontSizeEntries = <S extends v.GenericSchema<number>>(size: S, box: string) => ({
  minFontSize: v.optional(
    v.pipe(
      size,
      v.description(
        "With maxFontSize: the smallest size (px) the text may be fitted to; a text too long even at it overflows.",
      ),
    ),
  ),
  maxFontSize: v.optional(
    v.pipe(
      size,
      v.description(
        `With minFontSize: the text is drawn at the largest size (px) up to this one at which it fits ${box}, ` +
          "wrapping and line height honoured, no word broken; replaces fontSize.",
      ),
    ),
  ),
});

const isSet = (value: unknown): boolean => value !== undefined;

/**
 * The range a layer as rendered (defaults merged) is fitted in, or null: drawn at its `fontSize`. Only for a layer of a
 * type whose grammar has the two properties (each type's table entry runs `fitIssues`): `defaults.layer` may hand them
 * to every layer, and the others ignore them, as a rectangle ignores a default `fontSize`.
 */
export const fitRange = (layer: {
  minFontSize?: number;
  maxFontSize?: number;
}): { min: number; max: number } | null =>
  layer.minFontSize !== undefined && layer.maxFontSize !== undefined
    ? { min: layer.minFontSize, max: layer.maxFontSize }
    : null;

/** The fitting properties next to `fontSize` on one object (a layer, or a defaults object). */
export const fitConflictIssues = (layer: Obj): RuleIssue[] =>
  isSet(layer.fontSize) && (isSet(layer.minFontSize) || isSet(layer.maxFontSize))
    ? [
        {
          path: ["fontSize"],
          message:
            'cannot be combined with "minFontSize" and "maxFontSize": the text is fitted between those, so use one or the other',
        },
      ]
    : [];

/**
 * The fitting rules on a layer as rendered (its defaults merged), run by the types that have the two properties (their
 * `renderedRules`, config/image-layer-types.ts and config/video-layer-types.ts): both bounds, in order, and, where
 * the type has no box of its own (`needsWidth`: an image text), a width to fit into.
 */
export const fitIssues = (layer: Obj, needsWidth = false): RuleIssue[] => {
  const min = layer.minFontSize;
  const max = layer.maxFontSize;
  if (!isSet(min) && !isSet(max)) return [];
  if (!isSet(min) || !isSet(max)) {
    const [missing, given] = isSet(min) ? ["maxFontSize", "minFontSize"] : ["minFontSize", "maxFontSize"];
    return [
      {
        path: [missing],
        message: `is required with "${given}": the text is fitted between the two (set both, on the layer or in defaults)`,
      },
    ];
  }
  const out: RuleIssue[] = [];
  if (typeof min === "number" && typeof max === "number" && min > max)
    out.push({ path: ["maxFontSize"], message: `must be at least minFontSize (${min})` });
  if (needsWidth && !isSet(layer.width))
    out.push({
      path: ["width"],
      message:
        'is required with "minFontSize" and "maxFontSize": it is the box the text is fitted into (set it on the layer or in defaults)',
    });
  return out;
};

/** The attributes of an element to fit. */
export const FIT_ATTRIBUTES = {
  min: "data-fit-min",
  max: "data-fit-max",
  height: "data-fit-height",
  width: "data-fit-width",
} as const;

/** The CSS selector of the elements to fit. */
export const FIT_SELECTOR = `[${FIT_ATTRIBUTES.max}]`;

/**
 * `(elements: ArrayLike<HTMLElement>) => number[]`: fits each element (its `style.fontSize` set to the size found)
 * and answers the sizes, in px. Measured without the element's transform (a rotation), which is put back.
 */
export const FIT_TEXT_FUNCTION = `(function (elements) {
  var EPS = 0.02;
  var px = function (value) { return parseFloat(value) || 0; };
  var fits = function (el, width, height) {
    var box = el.getBoundingClientRect();
    if (height > 0 && box.height > height + EPS) return false;
    if (width > 0 && box.width > width + EPS) return false;
    var cs = getComputedStyle(el);
    var left = box.left + px(cs.borderLeftWidth) + px(cs.paddingLeft);
    var right = box.right - px(cs.borderRightWidth) - px(cs.paddingRight);
    var walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    var range = document.createRange();
    for (var node = walker.nextNode(); node; node = walker.nextNode()) {
      var runs = /\\S+/g;
      for (var m = runs.exec(node.data); m; m = runs.exec(node.data)) {
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        var rects = range.getClientRects();
        for (var i = 0; i < rects.length; i++) {
          if (rects[i].width > 0 && (rects[i].left < left - EPS || rects[i].right > right + EPS)) return false;
        }
      }
    }
    return true;
  };
  return Array.prototype.map.call(elements, function (el) {
    var min = px(el.getAttribute("${FIT_ATTRIBUTES.min}"));
    var max = px(el.getAttribute("${FIT_ATTRIBUTES.max}"));
    var height = px(el.getAttribute("${FIT_ATTRIBUTES.height}"));
    var width = px(el.getAttribute("${FIT_ATTRIBUTES.width}"));
    var transform = el.style.transform;
    var wrap = el.style.overflowWrap;
    el.style.transform = "none";
    el.style.overflowWrap = "normal";
    var at = function (size) {
      el.style.fontSize = size + "px";
      return fits(el, width, height);
    };
    var size = max;
    if (!at(max)) {
      var lo = Math.ceil(min);
      var hi = Math.ceil(max);
      if (lo >= hi || !at(lo)) size = min;
      else {
        while (hi - lo > 1) {
          var mid = Math.floor((lo + hi) / 2);
          if (at(mid)) lo = mid;
          else hi = mid;
        }
        size = lo;
      }
    }
    el.style.fontSize = size + "px";
    el.style.transform = transform;
    el.style.overflowWrap = wrap;
    return size;
  });
})`;
