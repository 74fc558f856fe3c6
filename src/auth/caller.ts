/**
 * Who is calling: the account an authenticated request acts for, and what its credential allows. A leaf module
 * (types and pure checks only) so the app's environment type can name it without an import cycle.
 */

export type Resource = "media" | "jobs";
export type Action = "read" | "full";
export interface Permission {
  resource: Resource;
  action: Action;
}

export interface Caller {
  userId: string;
  /** The API key used, or null for another credential. */
  keyId: string | null;
  permissions: Permission[];
  /** v2 scopes (`resource:action`). */
  scopes: string[];
  /** The session used (a bearer token): the account's owner. */
  sessionId?: string;
  /** Signed in as the account's owner (a session), not with an API key: may manage keys and billing. */
  owner?: boolean;
}

const READ_METHODS = new Set(["GET", "HEAD"]);

/** Whether `permissions` allow `method` on `resource`: `read` allows GET/HEAD, `full` every method. */
export const allows = (permissions: readonly Permission[], resource: Resource, method: string): boolean =>
  permissions.some(
    (p) =>
      p.resource === resource && (p.action === "full" || (p.action === "read" && READ_METHODS.has(method))),
  );
