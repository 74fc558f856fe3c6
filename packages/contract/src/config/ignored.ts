/**
 * Properties accepted for compatibility that change nothing here (editly's CLI options, an image layer's
 * `duration` that editly's types list and its renderer never reads). The grammar declares each one with
 * `ignored(schema, message)` beside the properties that work, so it is checked like them (a wrong type is still
 * an error); `configWarnings` (warnings.ts) reads the same declarations to report every one present as an
 * `IGNORED_PROPERTY` warning.
 */
import * as v from "valibot";

const MESSAGES = new WeakMap<v.GenericSchema, string>();

/** `schema`, optional, marked as accepted-but-ignored with the `message` its warning carries. */
export const ignored = <S extends v.GenericSchema>(schema: S, message: string) => {
  const marked = v.pipe(schema, v.description(message));
  MESSAGES.set(marked, message);
  return v.optional(marked);
};

/** The warning message of an entry declared with `ignored`, else undefined. */
export const ignoredMessage = (entry: v.GenericSchema | undefined): string | undefined => {
  if (!entry) return undefined;
  const inner =
    entry.type === "optional" ? (entry as v.OptionalSchema<v.GenericSchema, unknown>).wrapped : entry;
  return MESSAGES.get(inner);
};
