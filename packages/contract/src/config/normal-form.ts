/**
 * The normal form of a config: what the grammar's parse gives back (editly's single-layer shorthand as a list,
 * `catalogFont` renamed `googleFont`, curve aliases resolved, the format editly's `outPath` names). The Worker
 * stores it at creation beside the config as submitted, and everyone downstream (dispatch, chunking, pricing, the
 * renderer) reads this form only. A config is in normal form when parsing it again gives it back unchanged; the
 * renderer's request schema checks exactly that, so a shorthand can never reach code that expects the long form.
 */
import * as v from "valibot";

type Key = string | number;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The path of the first place where `a` and `b` differ as JSON values (keys whose value is undefined count as absent); null when equal. */
export const firstDifference = (a: unknown, b: unknown, path: Key[] = []): Key[] | null => {
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return path;
    for (let i = 0; i < a.length; i++) {
      const found = firstDifference(a[i], b[i], [...path, i]);
      if (found) return found;
    }
    return null;
  }
  if (isObject(a) || isObject(b)) {
    if (!isObject(a) || !isObject(b)) return path;
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const key of keys) {
      const found = firstDifference(a[key], b[key], [...path, key]);
      if (found) return found;
    }
    return null;
  }
  return Object.is(a, b) || (a === 0 && b === 0) ? null : path;
};

/** `clips[0].layers` from a path. */
export const pathText = (path: readonly Key[]): string =>
  path.reduce<string>((s, k) => (typeof k === "number" ? `${s}[${k}]` : s ? `${s}.${k}` : k), "");

/**
 * The schema that accepts what `grammar` accepts only in its normal form: a config `grammar` would still change
 * (a shorthand, an alias, a format left to `outPath`) is refused at the first place it would change.
 */
export const normalForm = <S extends v.GenericSchema>(grammar: S) =>
  v.pipe(
    v.unknown(),
    v.rawCheck(({ dataset, addIssue }) => {
      const parsed = v.safeParse(grammar, dataset.value);
      // The grammar's own errors are reported by the grammar itself, next in the pipe.
      if (!parsed.success) return;
      const at = firstDifference(dataset.value, parsed.output);
      if (at)
        addIssue({
          message: `is not in the grammar's normal form at ${pathText(at) || "its root"}: send the config as the grammar's parse gives it back`,
        });
    }),
    grammar,
  );
