/**
 * How a page opens a config in the builder. Two kinds of link, trusted differently:
 * - `/builder#job=<jobId>`: one of the account's own jobs (the console's "Open in builder"). The builder reads its
 *   config through the API with the session, so a link to another account's job opens nothing, and the config runs
 *   as the user's own;
 * - `/builder#config=<base64url of {type, config}>`: a config carried in the link itself (the fragment never reaches
 *   a server and has no practical size limit in the browsers the console supports). Anyone can make one, so the
 *   builder draws its html layers without their scripts until the user agrees to run them.
 */

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

/** The builder with one of the account's jobs loaded (its config read through the API). */
export const builderJobLink = (jobId: string): string => `${BUILDER_PATH}#job=${encodeURIComponent(jobId)}`;

/** The job id a job link carries in `hash`, or null. */
export const readJobLink = (hash: string): string | null => /^#job=([\w-]+)$/.exec(hash)?.[1] ?? null;
