/**
 * The credentials the renderer's external tools run with. Under a root renderer (the image, local runs) every task
 * gets a uid of its own from TOOL_UIDS for as long as it runs: a video job (its chunks and its join share the job's),
 * one POST /probe, the start-up version check. Its ffmpeg, ffprobe, espeak-ng, pocketsphinx and GL helper runs take
 * that uid (and the same number as gid) through setpriv (run-as.ts: no groups, no capabilities, no_new_privs), and its
 * temp folder is given to it (owner, 0700). So a tool that a crafted file took over reads and writes its own task's
 * files and nothing else: not the renderer's environment (RENDERER_SECRET), not another task's folder or processes,
 * not the browser user's. When the task ends, whatever still runs with its uid is killed and the uid is free again.
 *
 * A uid is claimed by listening on an abstract unix socket named after it: the kernel lets one process of the machine
 * (its network namespace) hold a name, and frees it when that process dies. So renderers started side by side (local
 * runs start several, tests more) never hand out the same uid, and a renderer that was killed leaves no claim behind;
 * the processes its tasks left are killed when the uid is next claimed (so is a process that was still switching to
 * the uid when its task ended). Uids with a passwd or group entry are skipped.
 *
 * A renderer that is not root cannot switch users: its leases carry no user, and tools run as the renderer itself
 * (with an environment of their own all the same: process.ts).
 */
import { readFileSync } from "node:fs";
import { chmod, chown, readdir, readFile, stat } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { dirname, resolve } from "node:path";
import { isRoot, type Identity } from "./run-as.ts";

/** Uids tools may run as (TOOL_UIDS): none of them may belong to a user or group of the machine. */
export interface UidRange {
  first: number;
  last: number;
}

/** Outside the ranges Debian gives users (1000-59999) and systemd's dynamic users (61184-65519), below 65536. */
export const DEFAULT_TOOL_UIDS: UidRange = { first: 60000, last: 60999 };

/**
 * Makes `root` (TMP_DIR, where the tasks' folders are) enterable by the tool users, adding only the others' execute
 * bit (a 0700 folder becomes 0701; /tmp stays as it is), and checks that every folder above it is enterable too:
 * otherwise no tool could reach its task's folder, and the renderer says so at start-up rather than at every job.
 */
export const openToTools = async (root: string): Promise<void> => {
  const dir = resolve(root);
  const { mode } = await stat(dir);
  if ((mode & 0o001) === 0) await chmod(dir, (mode & 0o7777) | 0o001);
  for (let up = dirname(dir); ; up = dirname(up)) {
    if (((await stat(up)).mode & 0o001) === 0)
      throw new Error(
        `TMP_DIR ${dir} is inside ${up}, which other users cannot enter: the tools' users could not reach their ` +
          `tasks' folders (give it o+x, or choose another TMP_DIR)`,
      );
    if (up === dirname(up)) return;
  }
};

/** One task's hold on its tool user. */
export interface ToolLease {
  /** Who its tools run as; null when the renderer is not root (they run as the renderer). */
  readonly user: Identity | null;
  /** Gives `dir` to the user (owner, mode 0700): its tools may use it, no other task's can. */
  own(dir: string): Promise<void>;
  /** Lets go (once per lease): the task's last holder kills what still runs as the uid and frees it. */
  release(): Promise<void>;
}

const NO_USER: ToolLease = { user: null, own: async () => {}, release: async () => {} };

/** Pids of the live processes with `uid` among their user ids (zombies are already dead). */
const processesOf = async (uid: number): Promise<number[]> => {
  const pids = (await readdir("/proc")).filter((d) => /^\d+$/.test(d));
  const found = await Promise.all(
    pids.map(async (pid) => {
      const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
      if (/^State:\s+[ZX]/m.test(status)) return null;
      const ids = /^Uid:\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)/m.exec(status);
      return ids?.slice(1).some((id) => Number(id) === uid) ? Number(pid) : null;
    }),
  );
  return found.filter((p) => p !== null);
};

/**
 * SIGKILLs every process of `uid` until none is left (a process forking meanwhile is found on the next pass); at
 * most `passes` passes.
 */
const killProcessesOf = async (uid: number, passes = 50): Promise<number> => {
  let killed = 0;
  for (let pass = 0; pass < passes; pass++) {
    const pids = await processesOf(uid);
    if (pids.length === 0) return killed;
    for (const pid of pids) {
      try {
        process.kill(pid, "SIGKILL");
        killed++;
      } catch {
        // gone already
      }
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  return killed;
};

/** Numeric ids named in /etc/passwd (field 3) or /etc/group (field 3): never handed to a tool. */
const knownIds = (): Set<number> => {
  const ids = new Set<number>();
  for (const file of ["/etc/passwd", "/etc/group"]) {
    try {
      for (const line of readFileSync(file, "utf8").split("\n")) {
        const id = line.split(":")[2];
        if (id) ids.add(Number(id));
      }
    } catch {
      // no such file: nothing to avoid
    }
  }
  return ids;
};

/** Listens on the abstract socket that claims `uid` on this machine; null when another process holds it. */
const claim = (uid: number): Promise<Server | null> =>
  new Promise((resolve, reject) => {
    // Nobody is meant to connect: a tool that does is dropped.
    const server = createServer((socket) => socket.destroy());
    server.once("error", (e: NodeJS.ErrnoException) => (e.code === "EADDRINUSE" ? resolve(null) : reject(e)));
    server.listen({ path: `\0media-render-tool-uid-${uid}` }, () => {
      server.unref();
      resolve(server);
    });
  });

interface Held {
  user: Promise<{ who: Identity; claim: Server }>;
  holders: number;
}

/** Hands out tool users, one per task key; see the module comment. */
export class ToolUsers {
  private readonly range: UidRange;
  private readonly root: boolean;
  private readonly held = new Map<string, Held>();
  /** Where the next search starts: a freed uid is the last to be handed out again. */
  private cursor = 0;

  constructor(range: UidRange = DEFAULT_TOOL_UIDS, root = isRoot()) {
    this.range = range;
    this.root = root;
  }

  /** The tool user of task `key` (a job id; anything unique for a one-off task), leased until `release`. */
  async lease(key: string): Promise<ToolLease> {
    if (!this.root) return NO_USER;
    let held = this.held.get(key);
    if (!held) {
      const entry: Held = { user: this.claimOne(), holders: 0 };
      entry.user.catch(() => {
        if (this.held.get(key) === entry) this.held.delete(key);
      });
      this.held.set(key, entry);
      held = entry;
    }
    const entry = held;
    entry.holders++;
    let who: Identity;
    try {
      ({ who } = await entry.user);
    } catch (e) {
      entry.holders--;
      throw e;
    }
    let released = false;
    return {
      user: who,
      own: async (dir) => {
        await chown(dir, who.uid, who.gid);
        await chmod(dir, 0o700);
      },
      release: async () => {
        if (released) return;
        released = true;
        if (--entry.holders > 0) return;
        if (this.held.get(key) === entry) this.held.delete(key);
        const { claim: server } = await entry.user;
        // Killed before the uid is free: nothing of this task may meet the next one.
        await killProcessesOf(who.uid);
        await new Promise<void>((resolve) => server.close(() => resolve()));
      },
    };
  }

  private async claimOne(): Promise<{ who: Identity; claim: Server }> {
    const { first, last } = this.range;
    const size = last - first + 1;
    const known = knownIds();
    for (let i = 0; i < size; i++) {
      const uid = first + ((this.cursor + i) % size);
      if (known.has(uid)) continue;
      const server = await claim(uid);
      if (!server) continue;
      this.cursor = (uid - first + 1) % size;
      // A renderer that died holding it may have left processes behind.
      await killProcessesOf(uid);
      return { who: { name: `uid ${uid}`, uid, gid: uid }, claim: server };
    }
    throw new Error(`every tool user of TOOL_UIDS (${first}-${last}) is taken`);
  }
}
