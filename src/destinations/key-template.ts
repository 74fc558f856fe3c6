/**
 * Object keys from templates (pure). A template is text with variables in braces: `{jobId}`, `{date}` (the job's
 * creation day, UTC, `YYYY-MM-DD`), `{ext}` (the output format), `{type}` (`image` or `video`) and
 * `{metadata.<name>}` (a value of the job's metadata, when the job has some). A variable's value never adds a
 * folder: `/`, `\` and control characters in it become `_`. The key that results must be a plain relative key: no
 * leading `/`, no empty, `.` or `..` segment (some S3-compatible servers store keys as file paths, and URL parsers
 * fold dot segments), at most MAX_KEY_BYTES of UTF-8.
 *
 * The job's other files (poster, thumbnails, captions) go beside the output: the output's key without its
 * `.<ext>`, then the file's own suffix (`renders/job_1.mp4` -> `renders/job_1.poster.png`).
 */
import { MAX_KEY_BYTES, MAX_TEMPLATE_LENGTH } from "./limits.ts";

/** What a job offers a template. */
export interface KeyVariables {
  jobId: string;
  /** Epoch ms of the job's creation. */
  createdAt: number;
  ext: string;
  type: "IMAGE" | "VIDEO";
  /** The job's metadata, when it has some. */
  metadata?: Record<string, unknown>;
}

/** The connection's key template when it names none. */
export const DEFAULT_KEY_TEMPLATE = "{jobId}.{ext}";

const PLAIN = new Set(["jobId", "date", "ext", "type"]);
const METADATA = /^metadata\.([A-Za-z0-9_-]{1,64})$/;
const VARIABLE = /\{([^{}]*)\}/g;
// oxlint-disable-next-line no-control-regex -- control characters are what it finds
const CONTROL = /[\u0000-\u001f\u007f]/;
// oxlint-disable-next-line no-control-regex -- control characters are what it replaces
const UNSAFE_IN_VALUE = /[/\\\u0000-\u001f\u007f]/g;

/** Why `template` is not a valid key template (its syntax alone), or null. */
export const templateRefusal = (template: string): string | null => {
  if (template.length === 0) return "must not be empty";
  if (template.length > MAX_TEMPLATE_LENGTH) return `must be at most ${MAX_TEMPLATE_LENGTH} characters`;
  for (const [, name] of template.matchAll(VARIABLE))
    if (!PLAIN.has(name!) && !METADATA.test(name!))
      return `{${name}} is not a variable: use {jobId}, {date}, {ext}, {type} or {metadata.<name>}`;
  if (/[{}]/.test(template.replace(VARIABLE, ""))) return "has a { or } that does not enclose a variable";
  return keyRefusal(template.replace(VARIABLE, "x"));
};

/** Why `key` may not be an object key, or null. */
const keyRefusal = (key: string): string | null => {
  if (CONTROL.test(key)) return "must not contain control characters";
  if (key.includes("\\")) return "must not contain a backslash";
  if (key.startsWith("/")) return "must not start with /";
  if (key.split("/").some((s) => s === "" || s === "." || s === ".."))
    return "must not have an empty, . or .. segment (no //, no trailing /, no ./ or ../)";
  if (new TextEncoder().encode(key).byteLength > MAX_KEY_BYTES)
    return `must be at most ${MAX_KEY_BYTES} bytes once filled in`;
  return null;
};

const valueOf = (name: string, vars: KeyVariables): string | { refusal: string } => {
  if (name === "jobId") return vars.jobId;
  if (name === "date") return new Date(vars.createdAt).toISOString().slice(0, 10);
  if (name === "ext") return vars.ext;
  if (name === "type") return vars.type.toLowerCase();
  const field = METADATA.exec(name)![1]!;
  const value = vars.metadata?.[field];
  if (value === undefined || value === null)
    return { refusal: `{${name}}: the job's metadata has no ${field}` };
  if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean")
    return { refusal: `{${name}}: the job's metadata ${field} is not a string, number or boolean` };
  return String(value).replace(UNSAFE_IN_VALUE, "_");
};

/** The key `template` gives for a job, or why it gives none. */
export const renderKey = (template: string, vars: KeyVariables): { key: string } | { refusal: string } => {
  const syntax = templateRefusal(template);
  if (syntax) return { refusal: syntax };
  let refusal: string | null = null;
  const key = template.replace(VARIABLE, (_, name: string) => {
    const value = valueOf(name, vars);
    if (typeof value === "string") return value;
    refusal ??= value.refusal;
    return "";
  });
  if (refusal) return { refusal };
  const bad = keyRefusal(key);
  return bad ? { refusal: bad } : { key };
};

/** The key of a file the job made beside its output (`suffix`: `.poster.png`), from the output's key. */
export const siblingKey = (outputKey: string, ext: string, suffix: string): string =>
  (outputKey.endsWith(`.${ext}`) ? outputKey.slice(0, -ext.length - 1) : outputKey) + suffix;
