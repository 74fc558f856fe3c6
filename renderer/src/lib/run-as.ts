/**
 * Running a program with another user's credentials: what the renderer, when it runs as root, does to every program
 * that reads what users send (Chromium as the browser user, each task's tools as a uid of their own: tool-users.ts).
 * `setpriv` switches before the program starts (setpriv.json, the one copy of its flags, which the local Browser
 * Rendering launcher of scripts/lib/local-chrome.mjs reads too): no supplementary groups, no capabilities (an empty
 * bounding set), no_new_privs, and SIGKILL when the renderer dies.
 */
import { readFileSync } from "node:fs";
import flags from "./setpriv.json" with { type: "json" };

/** Credentials a program runs with: a named user's, or a bare uid and gid (a tool user has no passwd entry). */
export interface Identity {
  name: string;
  uid: number;
  gid: number;
}

const SETPRIV = "/usr/bin/setpriv";

/** Whether this process runs as root (and can therefore hand other programs other credentials). */
export const isRoot = (): boolean => process.getuid?.() === 0;

/** `name`'s uid and gid from /etc/passwd (system users are local), or null when it has no entry. */
export const lookupUser = (name: string, passwd = "/etc/passwd"): Identity | null => {
  for (const line of readFileSync(passwd, "utf8").split("\n")) {
    const [user, , uid, gid] = line.split(":");
    if (user === name && uid !== undefined && gid !== undefined)
      return { name, uid: Number(uid), gid: Number(gid) };
  }
  return null;
};

/** The command that runs `argv` with `who`'s credentials (setpriv), or `argv` itself when `who` is null. */
export const asUser = (who: Identity | null, argv: readonly string[]): string[] => {
  if (!who) return [...argv];
  return [SETPRIV, `--reuid=${who.uid}`, `--regid=${who.gid}`, ...flags, "--", ...argv];
};
