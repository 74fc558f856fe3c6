/**
 * Building blocks shared by the image and video grammars: numbers with readable range messages,
 * colours, positions, fonts, strict objects with helpful unknown-key messages.
 *
 * Strings that end up inside the HTML/CSS the image renderer compiles (colours, font names) are held to
 * tight patterns: that is what keeps a config from injecting CSS.
 */
import * as v from "valibot";
import { CONDITION_KEY } from "./template-condition.ts";
import { catalogFontIssue } from "../fonts/catalog.ts";
import { anyCase } from "./any-case.ts";
import { COLOR_NAMES, parseColor } from "./color.ts";
import { MAX_BLUR, MAX_PX, MAX_ROTATION, MAX_SECONDS, MAX_VOLUME, MAX_VOLUME_DB } from "./limits.ts";

const typeName = (input: unknown): string =>
  input === null ? "null" : Array.isArray(input) ? "array" : typeof input;

/** A finite number in [min, max]. */
export const numberIn = (min: number, max: number) =>
  v.pipe(
    v.number((i) => `must be a number (received ${typeName(i.input)})`),
    v.minValue(min, `must be at least ${min}`),
    v.maxValue(max, `must be at most ${max}`),
  );

/** An integer in [min, max]. */
export const integerIn = (min: number, max: number) =>
  v.pipe(
    v.number((i) => `must be a number (received ${typeName(i.input)})`),
    v.integer("must be an integer"),
    v.minValue(min, `must be at least ${min}`),
    v.maxValue(max, `must be at most ${max}`),
  );

/** A number strictly above `min` and at most `max`. */
export const numberAbove = (min: number, max: number) =>
  v.pipe(
    v.number((i) => `must be a number (received ${typeName(i.input)})`),
    v.gtValue(min, `must be greater than ${min}`),
    v.maxValue(max, `must be at most ${max}`),
  );

export const text = (max: number) =>
  v.pipe(
    v.string((i) => `must be a string (received ${typeName(i.input)})`),
    v.maxLength(max, `must be at most ${max} characters`),
  );

export const bool = () => v.boolean((i) => `must be true or false (received ${typeName(i.input)})`);

/** One of `options`, with the options spelled out in the message. */
export const oneOf = <const T extends readonly [string, ...string[]]>(options: T) =>
  v.picklist(options, `must be one of ${options.map((o) => `"${o}"`).join(", ")}`);

/** Pixel coordinates and sizes: any finite number; the canvas limits keep them meaningful. */
export const Px = numberIn(-MAX_PX, MAX_PX);
/** A strictly positive pixel size. */
export const PositivePx = numberAbove(0, MAX_PX);
/** A fraction of the frame: 0..1. */
export const Fraction = numberIn(0, 1);
/** A strictly positive fraction of the frame (sizes). */
export const PositiveFraction = numberAbove(0, 1);
export const Opacity = numberIn(0, 1);
/** Degrees, positive = clockwise, pivot = the layer's centre. */
export const Rotation = numberIn(-MAX_ROTATION, MAX_ROTATION);
/** Blur radius in px. */
export const Blur = numberIn(0, MAX_BLUR);
export const BorderRadius = numberIn(0, MAX_PX);
/** Seconds on a timeline (layer windows, cuts, offsets). */
export const Seconds = numberIn(0, MAX_SECONDS);
/** A strictly positive time (end of a cut or window). */
export const PositiveSeconds = numberAbove(0, MAX_SECONDS);
/** editly's decibel form, `"-10dB"`, `"3 dB"` (what ffmpeg's volume filter accepts). */
export const DECIBELS_PATTERN = /^\s*([+-]?\d+(?:\.\d+)?)\s*dB\s*$/i;
/** editly's number-as-string form, `"50"`, `"0.5"` (editly hands it to ffmpeg, which reads the number). */
export const NUMBER_STRING_PATTERN = /^\s*(\d+(?:\.\d+)?)\s*$/;

const VOLUME_MESSAGE = `must be a number from 0 to ${MAX_VOLUME}, a number string such as "50", or decibels such as "-10dB" (at most +${MAX_VOLUME_DB} dB)`;

/** The factor a volume string stands for, or null when it is neither form (or above the bound). */
const volumeOfString = (volume: string): number | null => {
  const db = DECIBELS_PATTERN.exec(volume);
  if (db) {
    const value = Number(db[1]);
    return value <= MAX_VOLUME_DB ? Math.round(10 ** (value / 20) * 1e6) / 1e6 : null;
  }
  const plain = NUMBER_STRING_PATTERN.exec(volume);
  return plain && Number(plain[1]) <= MAX_VOLUME ? Number(plain[1]) : null;
};

/** editly's string volumes, normalised to a factor. */
const VolumeString = v.pipe(
  v.string(),
  v.check((s) => volumeOfString(s) !== null, VOLUME_MESSAGE),
  v.transform((s) => volumeOfString(s)!),
);

/**
 * A volume, as editly takes it: a factor 0..1000 (1 = unchanged), a number string (`"50"`) or decibels
 * (`"-10dB"`, at most +60 dB), normalised to the factor. Chosen by the input's type so each form reports its
 * own error (the served JSON Schema states it as `anyOf`, see src/schemas/json-schemas.ts). How the renderer
 * mixes with it (gains, and weights relative to each other above 1) is docs/video-rendering.md's.
 */
export const Volume = v.lazy((input: unknown) => (typeof input === "string" ? VolumeString : VolumeNumber));
const VolumeNumber = numberIn(0, MAX_VOLUME);

/**
 * The JSON Schema's view of a colour: hex, a functional form, or a CSS colour name in any casing. The grammar then
 * parses it (color.ts): a functional form must also read as one.
 */
const COLOR_PATTERN = new RegExp(
  `^(?:#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})|(?:[rR][gG][bB][aA]?|[hH][sS][lL][aA]?)\\((?:[-+0-9.,%/\\se]|deg)+\\)|(?:${["transparent", ...COLOR_NAMES].map(anyCase).join("|")}))$`,
);

const COLOR_MESSAGE =
  "must be a colour: #rgb, #rgba, #rrggbb, #rrggbbaa, rgb()/rgba()/hsl()/hsla() (e.g. rgba(0, 0, 0, 0.5)) or a CSS colour name (e.g. tomato)";

/** `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`, `rgb()/rgba()/hsl()/hsla()` or a CSS colour name (color.ts). */
export const Color = v.pipe(
  v.string((i) => `must be a colour string (received ${typeName(i.input)})`),
  v.regex(COLOR_PATTERN, COLOR_MESSAGE),
  // Once the pattern holds (one message per field): a functional form must also read as a colour.
  v.rawCheck(({ dataset, addIssue }) => {
    if (dataset.typed && !dataset.issues && parseColor(dataset.value) === null)
      addIssue({ message: COLOR_MESSAGE });
  }),
);

/** A font family name (system fonts, `fontFamily`). */
export const FontFamily = v.pipe(
  v.string(),
  v.regex(
    /^[A-Za-z0-9][A-Za-z0-9 _-]{0,99}$/,
    "must be a font family name (letters, digits, spaces, - and _)",
  ),
);

/** `googleFont` values; `online` says whether families beyond the bundled catalogue may pass. */
const catalogFontSchema = (online: boolean) =>
  v.pipe(
    v.string(),
    v.regex(
      /^[A-Za-z0-9](?:[A-Za-z0-9 +-]{0,98}[A-Za-z0-9])?(?::[1-9]00)?$/,
      'must be "Family" or "Family:weight" with a weight of 100..900 in steps of 100 (e.g. "Montserrat:700")',
    ),
    v.rawCheck(({ dataset, addIssue }) => {
      const issue = dataset.typed && !dataset.issues ? catalogFontIssue(dataset.value, online) : null;
      if (issue) addIssue({ message: issue });
    }),
  );

/**
 * A font of the catalogue: `Family` or `Family:weight`, weight 100..900 in steps of 100, exact casing (e.g.
 * `Montserrat:700`, `Open Sans`). Bundled catalogue (packages/contract/src/fonts) only, listing what exists: the
 * image grammar with the hosted catalogue off.
 */
export const BundledCatalogFont = catalogFontSchema(false);

/**
 * `googleFont` of image jobs with the hosted catalogue switched on (FONT_CATALOGUE_ONLINE), and of video jobs always:
 * any family of the right form passes. The image renderer asks the hosted catalogue; for video, `validateJobConfig`
 * checks the bundle when the catalogue is off (videoFontErrors), since one video grammar serves both settings
 * (and the renderer, which draws what the request's `fonts` carry).
 */
export const HostedCatalogFont = catalogFontSchema(true);

/**
 * The catalogue font of a text layer (or a defaults object): `googleFont`, JsonCut's wire name, and its alias
 * `catalogFont` (the spec's neutral word), which the grammar normalises to `googleFont` (rules.ts
 * `normaliseAliases`), so renderers read one field. Both on one object is an error.
 */
export const catalogFontEntries = <S extends v.GenericSchema>(font: S) => ({
  googleFont: v.optional(font),
  catalogFont: v.optional(font),
});

/** Family names for an html layer's page (`googleFonts`), optionally with the catalogue's axis syntax. */
export const FontFamilySpec = v.pipe(
  v.string(),
  v.regex(
    /^[A-Za-z0-9][A-Za-z0-9 +:@;,.-]{0,199}$/,
    'must be a font family name, e.g. "Roboto" or "Roboto:wght@400;700"',
  ),
);

export const POSITION_NAMES = [
  "center",
  "top",
  "bottom",
  "top-left",
  "top-right",
  "center-left",
  "center-right",
  "bottom-left",
  "bottom-right",
] as const;

const PositionName = v.picklist(
  POSITION_NAMES,
  `must be one of ${POSITION_NAMES.map((n) => `"${n}"`).join(", ")} or an object {x, y, originX?, originY?}`,
);

/** `{x, y}` as fractions of the canvas, with the layer's `originX`/`originY` point placed there. */
export const PositionObject = v.strictObject(
  {
    x: Fraction,
    y: Fraction,
    originX: v.optional(oneOf(["left", "center", "right"])),
    originY: v.optional(oneOf(["top", "center", "bottom"])),
  },
  (issue) =>
    objectMessage(
      "position",
      issue,
      `must be one of ${POSITION_NAMES.map((n) => `"${n}"`).join(", ")} or an object {x, y, originX?, originY?}`,
    ),
);

/**
 * Where a layer sits: a preset name, or a `PositionObject` (default origin: left/top). Chosen by the
 * input's type rather than with `v.union`, so a bad object reports its own field (`position.x`) instead of
 * one generic message. (The served JSON Schema states it as `anyOf`, see src/schemas/json-schemas.ts.)
 */
export const Position = v.lazy((input: unknown) =>
  typeof input === "string" ? PositionName : PositionObject,
);

/** Old or foreign property names with the message that points at the one to use. */
const RENAMED: Record<string, string> = {
  allowJavaScript: '"allowJavaScript" was renamed "enableLibraries" in version 1.4.0: use "enableLibraries"',
  // An editly JavaScript function (docs/compatibility.md, "editly compatibility"); editly's CLI options are accepted with a
  // warning instead (ignored.ts).
  func: '"func" is an editly JavaScript function, which a JSON job cannot carry: draw it with an html layer (HTML, CSS and JavaScript in a sandboxed page) or a gl layer',
  [CONDITION_KEY]: `"${CONDITION_KEY}" is a template condition: it is read when a saved template is rendered (POST /api/v2/templates/{id}/renders or batches), never in a job's config`,
};

export const unknownKeyMessage = (where: string, key: unknown): string => {
  return RENAMED[String(key)] ?? `Unknown property "${String(key)}" in ${where}`;
};

/**
 * The message of a strict object's own issues: an unknown key (expected "never"), a missing required key
 * (a path, expected the key's name), or an input that is not an object at all.
 */
const objectMessage = (where: string, issue: v.StrictObjectIssue, notObject: string): string => {
  if (issue.expected === "never") return unknownKeyMessage(where, issue.input);
  if (issue.path) return "is required";
  return notObject;
};

/**
 * An object that rejects unknown keys, naming the key and where it was found. Typos in a render
 * config would otherwise be silently ignored and render something else than asked for.
 */
export const strict = <const E extends v.ObjectEntries>(where: string, entries: E) =>
  v.strictObject(entries, (issue) =>
    objectMessage(where, issue, `must be an object (received ${typeName(issue.input)})`),
  );

/** An array with item-count limits. */
export const list = <S extends v.GenericSchema>(item: S, min: number, max: number, what = "items") =>
  v.pipe(
    v.array(item, (i) => `must be an array (received ${typeName(i.input)})`),
    v.minLength(min, `must contain at least ${min} ${what}`),
    v.maxLength(max, `must contain at most ${max} ${what}`),
  );

/**
 * Documents the value a renderer uses when the property is absent: shown as `default` in the served JSON
 * Schema, never filled into the parsed config (a stored config stays as submitted).
 */
export const documentedDefault = <S extends v.GenericSchema>(schema: S, value: unknown) =>
  v.pipe(schema, v.metadata({ default: value }));
