/**
 * How a page opens a config in the builder: `/builder#config=<base64url of the JSON>` (the fragment never reaches
 * a server and has no practical size limit in the browsers the console supports). The builder reads it on load.
 */
const toBase64Url = (text: string): string => {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
};

export const BUILDER_PATH = "/builder";

/** The `{type, config}` a builder link carries in `hash`, or null when it carries none (or not a valid one). */
export const readBuilderLink = (
  hash: string,
): { type: "image" | "video"; config: Record<string, unknown> } | null => {
  const match = /^#config=([\w-]+)$/.exec(hash);
  if (!match) return null;
  try {
    const binary = atob(match[1]!.replaceAll("-", "+").replaceAll("_", "/"));
    const job = JSON.parse(new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0))));
    const ok =
      job &&
      (job.type === "image" || job.type === "video") &&
      typeof job.config === "object" &&
      job.config !== null;
    return ok && !Array.isArray(job.config) ? job : null;
  } catch {
    return null;
  }
};

/** The builder with `type` and `config` loaded. */
export const builderLink = (type: string, config: unknown): string =>
  `${BUILDER_PATH}#config=${toBase64Url(JSON.stringify({ type: type.toLowerCase(), config }))}`;
