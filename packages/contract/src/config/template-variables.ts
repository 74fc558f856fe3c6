/**
 * Template variables: `{{name}}` anywhere in a config's strings. A string that is exactly one placeholder takes
 * the variable's typed value (a number stays a number); a placeholder inside longer text is replaced by the value
 * as text. Variables are declared (type, required, default) or derived from the placeholders: type `string`,
 * required, except where the key says what it holds (a colour key gives `colour`, a file key `file`).
 * A layer may carry a condition (`when`, packages/contract/src/config/template-condition.ts): merging keeps it only
 * where the condition holds. A variable used only in conditions, or whose placeholders all sit in conditional
 * layers, is derived optional (a row may leave it out).
 * Pure functions: no I/O, shared by saving a template and merging batch rows and single renders (the Worker) and
 * the builder's save dialog, which derives the variables as saving derives them (web).
 */
import type { FieldError } from "../field-errors.ts";
import {
  applyConditions,
  CONDITION_KEY,
  conditionHolds,
  conditionsOf,
  type ConditionSite,
} from "./template-condition.ts";

/** A declared template variable (stored with its template: src/db/tables/templates.ts). */
export interface VariableDecl {
  name: string;
  type: "string" | "number" | "colour" | "file";
  required: boolean;
  default?: string | number;
}

export type VariableType = VariableDecl["type"];
export const VARIABLE_TYPES = ["string", "number", "colour", "file"] as const;
export const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]{0,63})\s*\}\}/g;
const WHOLE = /^\{\{\s*([A-Za-z_][A-Za-z0-9_]{0,63})\s*\}\}$/;
const COLOUR = /^#(?:[0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
const FILE_KEYS = new Set(["path", "src", "fontPath", "audio", "audioPath", "url"]);

/** Where a placeholder sits: the field path (as validation reports it) and the key holding the string. */
export interface Placeholder {
  name: string;
  field: string;
  key: string;
  whole: boolean;
}

type Json = unknown;

/** Every placeholder of `config`, fields prefixed `config` like the config validator's. */
export const placeholdersOf = (config: Json): Placeholder[] => {
  const out: Placeholder[] = [];
  const walk = (value: Json, field: string, key: string) => {
    if (typeof value === "string") {
      const whole = WHOLE.exec(value);
      for (const match of value.matchAll(PLACEHOLDER))
        out.push({ name: match[1]!, field, key, whole: !!whole });
    } else if (Array.isArray(value)) value.forEach((item, i) => walk(item, `${field}[${i}]`, key));
    else if (value && typeof value === "object")
      for (const [k, item] of Object.entries(value)) walk(item, `${field}.${k}`, k);
  };
  walk(config, "config", "config");
  return out;
};

const derivedType = (key: string): VariableType =>
  /colou?r$/i.test(key) ? "colour" : FILE_KEYS.has(key) ? "file" : "string";

/** A value of `type` from a row cell (CSV gives text; JSON rows may give numbers), or an error message. */
export const coerce = (type: VariableType, raw: unknown): { value: string | number } | { error: string } => {
  if (type === "number") {
    const number =
      typeof raw === "number" ? raw : typeof raw === "string" && raw.trim() ? Number(raw) : Number.NaN;
    return Number.isFinite(number) ? { value: number } : { error: "must be a number" };
  }
  if (typeof raw !== "string" && typeof raw !== "number" && typeof raw !== "boolean")
    return { error: "must be text" };
  const text = String(raw);
  if (type === "colour")
    return COLOUR.test(text)
      ? { value: text }
      : { error: "must be a hex colour (#rgb, #rrggbb or #rrggbbaa)" };
  if (type === "file")
    return text.startsWith("/") || /^https?:\/\//i.test(text)
      ? { value: text }
      : { error: "must be a file's storageUrl (/image/...) or an http(s) URL" };
  return { value: text };
};

/** Whether `field` lies inside the layer of condition `site` (the layer's own field or under it). */
const insideLayer = (field: string, site: ConditionSite) => {
  const layer = site.field.slice(0, -`.${CONDITION_KEY}`.length);
  return field.startsWith(`${layer}.`) || field.startsWith(`${layer}[`);
};

/**
 * The template's variable schema: the declared variables checked against the placeholders and conditions, plus a
 * derived declaration for each one not declared, and every malformed condition (`INVALID_CONDITION` at its
 * field). Errors name the field `variables[i]...`.
 */
export const variableSchema = (
  config: Json,
  declared: readonly VariableDecl[] = [],
): { variables: VariableDecl[]; errors: FieldError[] } => {
  const errors: FieldError[] = [];
  const sites = conditionsOf(config);
  for (const site of sites)
    if (!site.condition)
      errors.push({ field: site.field, message: site.error ?? "not a condition", code: "INVALID_CONDITION" });
  const conditionVars = sites.flatMap((s) => (s.condition ? [s.condition.var] : []));
  const used = placeholdersOf(config);
  const names = new Set([...used.map((p) => p.name), ...conditionVars]);
  const seen = new Set<string>();
  declared.forEach((declaration, i) => {
    const field = `variables[${i}]`;
    if (seen.has(declaration.name))
      errors.push({
        field: `${field}.name`,
        message: `${declaration.name} is declared twice`,
        code: "DUPLICATE_VARIABLE",
      });
    seen.add(declaration.name);
    if (!names.has(declaration.name))
      errors.push({
        field: `${field}.name`,
        message: `${declaration.name} is declared but no {{${declaration.name}}} or condition names it in the config`,
        code: "UNUSED_VARIABLE",
      });
    if (declaration.default !== undefined) {
      const coerced = coerce(declaration.type, declaration.default);
      if ("error" in coerced)
        errors.push({
          field: `${field}.default`,
          message: `default ${coerced.error}`,
          code: "TYPE_MISMATCH",
        });
    }
  });
  const variables = declared.map((d) => ({ ...d }));
  // A placeholder in a conditional layer is needed only by the rows that show the layer.
  const conditional = (p: Placeholder) => sites.some((site) => insideLayer(p.field, site));
  for (const placeholder of used) {
    if (seen.has(placeholder.name)) continue;
    seen.add(placeholder.name);
    const everywhere = used.filter((u) => u.name === placeholder.name);
    variables.push({
      name: placeholder.name,
      type: derivedType(placeholder.key),
      required: !everywhere.every(conditional),
    });
  }
  for (const name of conditionVars) {
    if (seen.has(name)) continue;
    seen.add(name);
    variables.push({ name, type: "string", required: false });
  }
  return { variables, errors };
};

/** A sample value of each type, for checking a template's own grammar at save time. */
const SAMPLE: Record<VariableType, string | number> = {
  string: "sample",
  number: 1,
  colour: "#000000",
  file: "/image/sample.png",
};

/** Values for checking the template at save time: defaults where given, else a sample of the type. */
export const sampleValues = (variables: readonly VariableDecl[]) =>
  new Map(variables.map((v) => [v.name, v.default ?? SAMPLE[v.type]]));

/** The config with every placeholder replaced by its value (`values` holds every placeholder's name). */
export const substitute = (config: Json, values: ReadonlyMap<string, string | number>): Json => {
  if (typeof config === "string") {
    const whole = WHOLE.exec(config);
    if (whole) return values.get(whole[1]!) ?? config;
    return config.replace(PLACEHOLDER, (m, name: string) => String(values.get(name) ?? m));
  }
  if (Array.isArray(config)) return config.map((item) => substitute(item, values));
  if (config && typeof config === "object")
    return Object.fromEntries(Object.entries(config).map(([k, item]) => [k, substitute(item, values)]));
  return config;
};

/** A row's errors carry its number (1-based, in submission order, header excluded). */
export type RowError = FieldError & { row: number };

/**
 * One row merged into the template: each variable from its column (an empty cell counts as absent), else its
 * default; a missing required variable, a value of the wrong type or a column that is no variable is an error.
 * Layers whose condition does not hold for the row are left out, and no layer keeps its `when`.
 * `extra` columns (the name column) may be present without being variables.
 */
export const mergeRow = (
  config: Json,
  variables: readonly VariableDecl[],
  row: Readonly<Record<string, unknown>>,
  extra: ReadonlySet<string>,
): { config: Json } | { errors: FieldError[] } => {
  const errors: FieldError[] = [];
  const known = new Set(variables.map((v) => v.name));
  for (const column of Object.keys(row))
    if (!known.has(column) && !extra.has(column))
      errors.push({
        field: column,
        message: `${column} is not a variable of this template`,
        code: "UNKNOWN_VARIABLE",
      });
  const values = new Map<string, string | number>();
  for (const variable of variables) {
    const raw = row[variable.name];
    const absent = raw === undefined || raw === null || raw === "";
    if (absent) {
      if (variable.default !== undefined) values.set(variable.name, variable.default);
      else if (variable.required)
        errors.push({
          field: variable.name,
          message: `${variable.name} is required`,
          code: "MISSING_VARIABLE",
        });
      else values.set(variable.name, "");
      continue;
    }
    const coerced = coerce(variable.type, raw);
    if ("error" in coerced)
      errors.push({
        field: variable.name,
        message: `${variable.name} ${coerced.error}`,
        code: "TYPE_MISMATCH",
      });
    else values.set(variable.name, coerced.value);
  }
  if (errors.length) return { errors };
  // Conditions are judged on the row's values (a default counts; an absent optional variable is not set), then
  // the layers kept are filled in.
  const shown = applyConditions(config, (c) => c === null || conditionHolds(c, values.get(c.var)));
  return { config: substitute(shown, values) };
};

/** Whether a validation error lies at (or under) a placeholder's field: such errors depend on the row's value. */
export const atPlaceholder = (error: FieldError, placeholders: readonly Placeholder[]): boolean =>
  placeholders.some(
    (placeholder) =>
      error.field === placeholder.field ||
      error.field?.startsWith(`${placeholder.field}.`) ||
      error.field?.startsWith(`${placeholder.field}[`),
  );
