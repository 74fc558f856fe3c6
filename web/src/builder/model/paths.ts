/**
 * Addresses inside a config: a path of keys (`["layers", 2, "x"]`), as the editor changes values, and the field
 * names the API gives errors under (`config.layers[2].x`). Changes are immutable: every function returns a new
 * object sharing what did not change, so undo keeps old states for free.
 */
export type Key = string | number;
export type Path = readonly Key[];
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export const isObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The value at `path`, or undefined. */
export const getIn = (value: unknown, path: Path): unknown => {
  let at = value;
  for (const key of path) {
    if (Array.isArray(at) && typeof key === "number") at = at[key];
    else if (isObject(at) && typeof key === "string") at = at[key];
    else return undefined;
  }
  return at;
};

/**
 * `root` with the value at `path` set; `undefined` removes the key (or the array item). Missing objects on the
 * way are created.
 */
export const setIn = (root: unknown, path: Path, value: unknown): Json => {
  if (path.length === 0) return value as Json;
  const [key, ...rest] = path as [Key, ...Key[]];
  if (typeof key === "number") {
    const list = Array.isArray(root) ? [...root] : [];
    if (rest.length === 0 && value === undefined) list.splice(key, 1);
    else list[key] = setIn(list[key], rest, value);
    return list;
  }
  const object: JsonObject = isObject(root) ? { ...root } : {};
  if (rest.length === 0 && value === undefined) delete object[key];
  else object[key] = setIn(object[key], rest, value);
  return object;
};

/** The list at `path` with `item` inserted at `index` (the end by default). */
export const insertAt = (root: unknown, path: Path, item: unknown, index?: number): Json => {
  const list = Array.isArray(getIn(root, path)) ? [...(getIn(root, path) as Json[])] : [];
  list.splice(index ?? list.length, 0, item as Json);
  return setIn(root, path, list);
};

/** The list at `path` with the item at `from` moved to `to`. */
export const moveItem = (root: unknown, path: Path, from: number, to: number): Json => {
  const list = [...((getIn(root, path) as Json[] | undefined) ?? [])];
  if (from < 0 || from >= list.length || to < 0 || to >= list.length) return root as Json;
  const [item] = list.splice(from, 1);
  list.splice(to, 0, item!);
  return setIn(root, path, list);
};

/** `["layers", 2, "x"]` -> `config.layers[2].x`, the API's field name. */
export const fieldName = (path: Path): string =>
  path.reduce<string>((out, key) => (typeof key === "number" ? `${out}[${key}]` : `${out}.${key}`), "config");

/** `config.layers[2].x` -> `["layers", 2, "x"]` (fields outside the config give null). */
export const pathOfField = (field: string): Path | null => {
  if (field !== "config" && !field.startsWith("config.") && !field.startsWith("config[")) return null;
  const keys: Key[] = [];
  for (const match of field.slice("config".length).matchAll(/\.([^.[\]]+)|\[(\d+)\]/g))
    keys.push(match[2] !== undefined ? Number(match[2]) : match[1]!);
  return keys;
};

/** Whether `field` is `name` or inside it. */
export const within = (field: string, name: string) =>
  field === name || field.startsWith(`${name}.`) || field.startsWith(`${name}[`);
