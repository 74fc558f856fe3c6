/**
 * Property panels from the JSON Schemas the service serves (GET /api/v1/schemas/image, /video): which schema
 * describes the object at a path of the config (following `$ref`s, picking a layer's variant by its `type`), and
 * which control edits each of its properties: enums as selects, `Color`s as colour pickers, bounded numbers as
 * sliders, file references (`ImageRef`, `VideoRef`, `AudioRef`, `FontRef`) as file pickers, `Position` as a
 * position control, objects as nested groups, anything else as JSON.
 */
import { getIn, isObject, type Path } from "../model/paths.ts";

export type Schema = { [key: string]: unknown };

/** A served schema with its definitions. */
export interface SchemaDoc {
  root: Schema;
  defs: Record<string, Schema>;
}

export type FileCategory = "image" | "video" | "audio" | "font";

export type Control =
  | { kind: "select"; options: string[]; nullable: boolean }
  | { kind: "color" }
  | { kind: "range"; min: number; max: number; step: number }
  | { kind: "number"; min?: number; max?: number; step: number }
  | { kind: "boolean" }
  | { kind: "text"; multiline: boolean; maxLength?: number; suggestions?: "fonts" }
  | { kind: "file"; categories: FileCategory[] }
  | { kind: "position" }
  | { kind: "colors"; min: number; max: number }
  | { kind: "strings"; max: number }
  | { kind: "object"; schema: Schema; nullable: boolean }
  | { kind: "json" };

export interface FieldSpec {
  key: string;
  control: Control;
  required: boolean;
  description?: string;
  /** The schema's documented default, shown as the placeholder of an unset field. */
  defaultValue?: unknown;
}

const REF_FILES: Record<string, FileCategory> = {
  ImageRef: "image",
  VideoRef: "video",
  AudioRef: "audio",
  FontRef: "font",
};

export const schemaDoc = (root: Schema): SchemaDoc => ({
  root,
  defs: (root.$defs as Record<string, Schema> | undefined) ?? {},
});

const refName = (node: Schema): string | null =>
  typeof node.$ref === "string" ? (node.$ref.match(/^#\/\$defs\/(.+)$/)?.[1] ?? null) : null;

/** `node` with its `$ref`s followed. */
export const deref = (doc: SchemaDoc, node: Schema): Schema => {
  let at = node;
  for (let hop = 0; hop < 10; hop++) {
    const name = refName(at);
    if (!name || !doc.defs[name]) return at;
    at = doc.defs[name]!;
  }
  return at;
};

const alternatives = (node: Schema): Schema[] =>
  (node.oneOf as Schema[] | undefined) ?? (node.anyOf as Schema[] | undefined) ?? [];

const typeConst = (doc: SchemaDoc, node: Schema): string | undefined => {
  const props = deref(doc, node).properties as Record<string, Schema> | undefined;
  const constant = props?.type?.const;
  return typeof constant === "string" ? constant : undefined;
};

/** The object variant of `node` that describes `value` (a layer by its `type`; the non-null side of a nullable). */
export const variantOf = (doc: SchemaDoc, node: Schema, value: unknown): Schema => {
  const resolved = deref(doc, node);
  const options = alternatives(resolved).map((o) => deref(doc, o));
  if (!options.length) return resolved;
  if (isObject(value) && typeof value.type === "string") {
    const match = options.find((o) => typeConst(doc, o) === value.type);
    if (match) return match;
  }
  if (Array.isArray(value)) return options.find((o) => o.type === "array") ?? options[0]!;
  return (
    options.find((o) => o.type === "object" || o.properties) ??
    options.find((o) => o.type !== "null") ??
    resolved
  );
};

/** The layer types a list's items may have (`image`, `text`, ...), in the schema's order. */
export const layerTypes = (doc: SchemaDoc, items: Schema): string[] =>
  alternatives(deref(doc, items))
    .map((o) => typeConst(doc, o))
    .filter((t): t is string => t !== undefined);

/** The schema of the value at `path` in `config` (null where the schema says nothing). */
export const schemaAt = (doc: SchemaDoc, config: unknown, path: Path): Schema | null => {
  let node: Schema | null = doc.root;
  for (let i = 0; i < path.length && node; i++) {
    const here = variantOf(doc, node, getIn(config, path.slice(0, i)));
    const key = path[i]!;
    if (typeof key === "number") node = (here.items as Schema | undefined) ?? null;
    else
      node = ((here.properties as Record<string, Schema> | undefined)?.[key] as Schema | undefined) ?? null;
  }
  return node ? variantOf(doc, node, getIn(config, path)) : null;
};

const stepFor = (min: number, max: number, integer: boolean) => {
  if (integer) return 1;
  const span = max - min;
  return span <= 1 ? 0.01 : span <= 10 ? 0.1 : 1;
};

const numberControl = (node: Schema): Control => {
  const integer = node.type === "integer";
  const min = (node.minimum as number | undefined) ?? (node.exclusiveMinimum as number | undefined);
  const max = (node.maximum as number | undefined) ?? (node.exclusiveMaximum as number | undefined);
  if (min !== undefined && max !== undefined && max - min <= 1000)
    return { kind: "range", min, max, step: stepFor(min, max, integer) };
  return {
    kind: "number",
    min,
    max,
    step: integer ? 1 : min !== undefined && max !== undefined ? stepFor(min, max, false) : 1,
  };
};

const MULTILINE = new Set(["text", "html", "css"]);
const FONT_KEYS = new Set(["googleFont", "catalogFont"]);

/** The control that edits a property `key` described by `node`. */
export const controlFor = (doc: SchemaDoc, key: string, node: Schema): Control => {
  const name = refName(node);
  if (name === "Color") return { kind: "color" };
  // A video layer's position is its own definition (its x and y may be keyframed), edited with the same control.
  if (name === "Position" || name === "VideoPosition") return { kind: "position" };
  if (name && REF_FILES[name]) return { kind: "file", categories: [REF_FILES[name]] };
  const resolved = deref(doc, node);
  const options = alternatives(resolved);
  if (options.length) {
    const nullable = options.some((o) => deref(doc, o).type === "null");
    const real = options.filter((o) => deref(doc, o).type !== "null");
    const files = real.map((o) => REF_FILES[refName(o) ?? ""]).filter((c): c is FileCategory => !!c);
    if (files.length === real.length) return { kind: "file", categories: files };
    const first = deref(doc, real[0]!);
    if (real.length === 1 && Array.isArray(first.enum))
      return { kind: "select", options: first.enum as string[], nullable };
    if (real.length === 1 && (first.type === "object" || first.properties))
      return { kind: "object", schema: first, nullable };
    // A number or its string spelling (editly's "10dB" volumes): edited as the number.
    if (real.some((o) => deref(doc, o).type === "number"))
      return numberControl(real.map((o) => deref(doc, o)).find((o) => o.type === "number")!);
    return { kind: "json" };
  }
  if (Array.isArray(resolved.enum))
    return { kind: "select", options: resolved.enum as string[], nullable: false };
  if (resolved.type === "number" || resolved.type === "integer") return numberControl(resolved);
  if (resolved.type === "boolean") return { kind: "boolean" };
  if (resolved.type === "string")
    return {
      kind: "text",
      multiline: MULTILINE.has(key) || ((resolved.maxLength as number | undefined) ?? 0) > 5000,
      maxLength: resolved.maxLength as number | undefined,
      ...(FONT_KEYS.has(key) ? { suggestions: "fonts" as const } : {}),
    };
  if (resolved.type === "array") {
    const items = resolved.items as Schema | undefined;
    if (items && refName(items) === "Color")
      return {
        kind: "colors",
        min: (resolved.minItems as number) ?? 0,
        max: (resolved.maxItems as number) ?? 16,
      };
    if (items && deref(doc, items).type === "string")
      return { kind: "strings", max: (resolved.maxItems as number) ?? 20 };
    return { kind: "json" };
  }
  if (resolved.type === "object" || resolved.properties)
    return { kind: "object", schema: resolved, nullable: false };
  return { kind: "json" };
};

/** The fields of an object schema: every property but `type` (which names the variant). */
export const fieldsOf = (doc: SchemaDoc, node: Schema, skip: readonly string[] = []): FieldSpec[] => {
  const props = (node.properties as Record<string, Schema> | undefined) ?? {};
  const required = new Set((node.required as string[] | undefined) ?? []);
  return Object.entries(props)
    .filter(([key]) => key !== "type" && !skip.includes(key))
    .map(([key, prop]) => ({
      key,
      control: controlFor(doc, key, prop),
      required: required.has(key),
      description:
        (prop.description as string | undefined) ?? (deref(doc, prop).description as string | undefined),
      defaultValue: deref(doc, prop).default,
    }));
};
