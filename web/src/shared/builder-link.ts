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

/** The builder with `type` and `config` loaded. */
export const builderLink = (type: string, config: unknown): string =>
  `${BUILDER_PATH}#config=${toBase64Url(JSON.stringify({ type: type.toLowerCase(), config }))}`;
