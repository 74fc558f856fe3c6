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

/** The path of the first place where `left` and `right` differ as JSON values (keys whose value is undefined count as absent); null when equal. */
export const firstDifference = (left: unknown, right: unknown, path: Key[] = []): Key[] | null => {
  if (Array.isArray(left) || Array.isArray(right)) {
    if (!Array.isArray(left) || !Array.isArray(right) || left.length !== right.length) return path;
    for (let i = 0; i < left.length; i++) {
      const found = firstDifference(left[i], right[i], [...path, i]);
      if (found) return found;
    }
    return null;
  }
  if (isObject(left) || isObject(right)) {
    if (!isObject(left) || !isObject(right)) return path;
    const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
    for (const key of keys) {
      const found = firstDifference(left[key], right[key], [...path, key]);
      if (found) return found;
    }
    return null;
  }
  return Object.is(left, right) || (left === 0 && right === 0) ? null : path;
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
