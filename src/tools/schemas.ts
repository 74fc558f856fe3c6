/** Request bodies and answers of the duration tools (valibot at the HTTP boundary). */
import * as v from "valibot";

const Path = v.pipe(
  v.string("path must be a string"),
  v.startsWith("/", "path must be a storage path starting with /"),
  v.maxLength(1024, "path is too long"),
);
const Url = v.pipe(
  v.string("url must be a string"),
  v.regex(/^https?:\/\//i, "url must start with http:// or https://"),
  v.maxLength(2048, "url is too long"),
);

/** Exactly one of `path` or `url`. */
export const Target = v.union(
  [v.strictObject({ path: Path }), v.strictObject({ url: Url })],
  "Give exactly one of `path` (a storage path starting with /) or `url` (http or https)",
);
export type Target = v.InferOutput<typeof Target>;

/** A bulk item: a bare string (storage path or URL) or a `{ path }` / `{ url }` object. */
const BulkItem = v.union(
  [
    v.pipe(
      v.string(),
      v.check(
        (s) => s.startsWith("/") || /^https?:\/\//i.test(s),
        "each file must be a storage path or an http(s) URL",
      ),
      v.transform((s): Target => (s.startsWith("/") ? { path: s } : { url: s })),
    ),
    Target,
  ],
  "each file must be a storage path, an http(s) URL, or an object with path or url",
);

export const BulkBody = v.object({
  files: v.pipe(
    v.array(BulkItem, "files must be an array"),
    v.minLength(1, "files must contain at least one item"),
    // Plans allow at most 300; the per-plan limit is checked by the verb, this only caps the parse.
    v.maxLength(1000, "files must contain at most 1000 items"),
  ),
});

const Ms = v.pipe(v.number(), v.integer(), v.minValue(0));

const durationEntries = {
  durationMs: Ms,
  durationFormatted: v.pipe(v.string(), v.description("e.g. `00:01:23.456`")),
  source: v.picklist(["storage", "url"]),
  originalPath: v.pipe(v.string(), v.description("The path or URL as given")),
};

/** One file's duration. */
export const DurationResult = v.object(durationEntries);
export type DurationResult = v.InferOutput<typeof DurationResult>;

/** One result per input of a bulk request, in order: its duration, or why it has none. */
const BulkItemResult = v.variant("success", [
  v.object({ success: v.literal(true), ...durationEntries }),
  v.object({ success: v.literal(false), error: v.string(), originalPath: v.string() }),
]);
export type BulkItemResult = v.InferOutput<typeof BulkItemResult>;

export const BulkDurationResult = v.object({
  results: v.array(BulkItemResult),
  summary: v.object({
    total: Ms,
    successful: Ms,
    failed: Ms,
    totalDurationMs: Ms,
    totalDurationFormatted: v.string(),
  }),
});
export type BulkDurationResult = v.InferOutput<typeof BulkDurationResult>;
