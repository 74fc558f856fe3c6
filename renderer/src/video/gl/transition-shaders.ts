/**
 * The GLSL of every gl-transitions name, from the `gl-transitions` package (MIT; the shaders and their
 * default params as gl-transitions.com publishes them), and how a job's `params` become uniforms.
 */
import { createRequire } from "node:module";
import { Defect } from "@media-render/contract/faults";

/** A uniform type the collection uses. */
export type UniformType = "float" | "int" | "bool" | "vec2" | "vec3" | "vec4" | "ivec2";

export interface GlTransitionSource {
  name: string;
  glsl: string;
  paramsTypes: Record<string, UniformType>;
  defaultParams: Record<string, unknown>;
}

const all = createRequire(import.meta.url)("gl-transitions") as GlTransitionSource[];

const TYPES = new Set(["float", "int", "bool", "vec2", "vec3", "vec4", "ivec2"]);

/**
 * Params declared in the GLSL with their default in a comment (`uniform vec3 color /* = vec3(0.9, 0.4,
 * 0.2) *\/;` or `// = 0.5`). The package's JSON misses a few written the block-comment way (`burn`),
 * which gl-transitions.com still draws with that default: read them from the source like the site does.
 */
export const glslDefaults = (
  glsl: string,
): {
  types: Record<string, UniformType>;
  values: Record<string, unknown>;
} => {
  const types: Record<string, UniformType> = {};
  const values: Record<string, unknown> = {};
  const re = /uniform\s+(\w+)\s+(\w+)\s*(?:\/\*\s*=\s*([^*]+?)\s*\*\/\s*;|;\s*\/\/\s*=\s*([^\n]+))/g;
  for (const match of glsl.matchAll(re)) {
    const [type, name, text] = [match[1]!, match[2]!, (match[3] ?? match[4] ?? "").trim().replace(/;$/, "")];
    if (!TYPES.has(type)) continue;
    const nums =
      text
        .replace(/^[a-z]+\d?\(/i, "")
        .match(/-?\d*\.?\d+(?:e-?\d+)?/gi)
        ?.map(Number) ?? [];
    const value = /^true$/.test(text)
      ? true
      : /^false$/.test(text)
        ? false
        : type === "float" || type === "int"
          ? nums[0]
          : nums;
    if (value === undefined) continue;
    types[name] = type as UniformType;
    values[name] =
      Array.isArray(value) && value.length === 1 && type !== "float"
        ? Array(type === "vec2" || type === "ivec2" ? 2 : type === "vec3" ? 3 : 4).fill(value[0])
        : value;
  }
  return { types, values };
};

/** gl-transitions sources by their documented name, defaults completed from the GLSL. */
export const GL_SOURCES: ReadonlyMap<string, GlTransitionSource> = new Map(
  all.map((transition) => {
    const parsed = glslDefaults(transition.glsl);
    return [
      transition.name,
      {
        ...transition,
        paramsTypes: { ...parsed.types, ...transition.paramsTypes },
        defaultParams: { ...parsed.values, ...transition.defaultParams },
      },
    ];
  }),
);

/** A uniform value as the page sets it: numbers (bool as 0/1), with its GLSL type. */
export interface UniformValue {
  type: UniformType;
  value: number[];
}

const SIZES: Record<UniformType, number> = { float: 1, int: 1, bool: 1, vec2: 2, vec3: 3, vec4: 4, ivec2: 2 };

/** `#rgb`, `#rrggbb` or `#rrggbbaa` → channels in 0..1; null otherwise. */
const hexColor = (text: string): number[] | null => {
  const match = /^#?([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i.exec(text.trim());
  if (!match) return null;
  const h = match[1]!.length === 3 ? [...match[1]!].map((c) => c + c).join("") : match[1]!;
  return (h.match(/../g) ?? []).map((x) => parseInt(x, 16) / 255);
};

const coerce = (type: UniformType, raw: unknown): number[] | null => {
  const size = SIZES[type];
  let value: number[] | null = null;
  if (typeof raw === "boolean") value = [raw ? 1 : 0];
  else if (typeof raw === "number") value = Array.from({ length: size }, () => raw);
  else if (Array.isArray(raw) && raw.every((x) => typeof x === "number")) value = raw as number[];
  else if (typeof raw === "string") value = hexColor(raw);
  if (!value || !value.every(Number.isFinite)) return null;
  if (type === "vec4" && value.length === 3) value = [...value, 1];
  if (value.length !== size) return null;
  return type === "int" || type === "ivec2" ? value.map(Math.round) : value;
};

/**
 * The uniforms of transition `name`: its default params overridden by the job's `params` (a colour may be
 * given as `#rrggbb` for a vec3/vec4). A param of the wrong shape throws, naming it.
 */
export const uniformsFor = (
  name: string,
  params: Record<string, unknown> = {},
  /** Where the params are in the config (`clips[2].transition.params`), for the message. */
  field = "params",
): Record<string, UniformValue> => {
  const src = GL_SOURCES.get(name);
  if (!src) throw new Defect(`no GLSL for transition ${name}`);
  const out: Record<string, UniformValue> = {};
  for (const [key, type] of Object.entries(src.paramsTypes)) {
    const given = params[key];
    const value = coerce(type, given ?? src.defaultParams[key]);
    if (value === null && given !== undefined)
      throw new Error(
        `${field}.${key}: transition ${name} takes a ${type} here (got ${JSON.stringify(given)})`,
      );
    if (value !== null) out[key] = { type, value };
  }
  return out;
};
