/**
 * The tool users of lib/tool-users.ts on this machine: one uid per task key, never the same for two tasks at once
 * (two pools stand for two renderers of one machine), and nothing of a task left running once it lets its uid go.
 */
import { spawn } from "node:child_process";
import { chmod, mkdir, mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../src/lib/process.ts";
import { asUser } from "../src/lib/run-as.ts";
import { DEFAULT_TOOL_UIDS, openToTools, ToolUsers } from "../src/lib/tool-users.ts";

const ROOT = process.getuid?.() === 0;
let dir: string;
beforeAll(async () => void (dir = await mkdtemp(join(tmpdir(), "tool-users-"))));
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe("tool users", () => {
  it("are none when the renderer is not root: tools run as the renderer", async () => {
    const lease = await new ToolUsers(DEFAULT_TOOL_UIDS, false).lease("job");
    expect(lease.user).toBeNull();
    await lease.own(dir);
    await lease.release();
  });

  describe.skipIf(!ROOT)("under a root renderer", () => {
    it("give each task a uid of its own, shared by the leases of one task, never by two pools at once", async () => {
      const a = new ToolUsers();
      const b = new ToolUsers();
      const [one, same, other, elsewhere] = await Promise.all([
        a.lease("job-1"),
        a.lease("job-1"),
        a.lease("job-2"),
        b.lease("job-1"),
      ]);
      const uids = [one, same, other, elsewhere].map((l) => l.user!.uid);
      expect(uids[1]).toBe(uids[0]);
      expect(new Set([uids[0], uids[2], uids[3]]).size).toBe(3);
      for (const uid of uids) {
        expect(uid).toBeGreaterThanOrEqual(DEFAULT_TOOL_UIDS.first);
        expect(uid).toBeLessThanOrEqual(DEFAULT_TOOL_UIDS.last);
      }
      // The folder is the task's alone, and its programs run as it.
      const own = await mkdtemp(join(dir, "job-"));
      await one.own(own);
      const s = await stat(own);
      expect({ uid: s.uid, gid: s.gid, mode: s.mode & 0o777 }).toEqual({
        uid: uids[0],
        gid: uids[0],
        mode: 0o700,
      });
      const { stdout } = await run("id", ["-u"], { user: one.user });
      expect(stdout.toString().trim()).toBe(String(uids[0]));
      await Promise.all([one, same, other, elsewhere].map((l) => l.release()));
    });

    it("kill what a task left running when its last lease lets go, and only then free the uid", async () => {
      const users = new ToolUsers();
      const first = await users.lease("job-a");
      const second = await users.lease("job-a");
      const uid = first.user!.uid;
      // A process the task's tool left behind, in a session of its own (as a daemon would).
      const argv = asUser(first.user, ["sleep", "600"]);
      const left = spawn(argv[0]!, argv.slice(1), { detached: true, stdio: "ignore", env: {} });
      const gone = new Promise((resolve) => left.once("exit", (code, signal) => resolve(signal)));
      // Once setpriv has made it the task's (a process still switching is killed when the uid is next claimed).
      const status = () => readFile(`/proc/${left.pid}/status`, "utf8").catch(() => "");
      while (!new RegExp(`^Uid:\\s+${uid}\\s`, "m").test(await status()))
        await new Promise((r) => setTimeout(r, 10));
      await first.release();
      expect(left.exitCode).toBeNull(); // the task still holds it
      await second.release();
      expect(await gone).toBe("SIGKILL");
      // Free again: a new pool may claim it now.
      const again = new ToolUsers({ first: uid, last: uid });
      const lease = await again.lease("job-b");
      expect(lease.user!.uid).toBe(uid);
      await lease.release();
    });

    it("kill what a renderer that died left running with a uid when the uid is next claimed", async () => {
      const uid = DEFAULT_TOOL_UIDS.last - 1;
      const who = { name: `uid ${uid}`, uid, gid: uid };
      const argv = asUser(who, ["sleep", "600"]);
      const left = spawn(argv[0]!, argv.slice(1), { detached: true, stdio: "ignore", env: {} });
      const gone = new Promise((resolve) => left.once("exit", (code, signal) => resolve(signal)));
      const status = () => readFile(`/proc/${left.pid}/status`, "utf8").catch(() => "");
      while (!new RegExp(`^Uid:\\s+${uid}\\s`, "m").test(await status()))
        await new Promise((r) => setTimeout(r, 10));
      const lease = await new ToolUsers({ first: uid, last: uid }).lease("job-after");
      expect(await gone).toBe("SIGKILL");
      await lease.release();
    });

    it("reach TMP_DIR: it gains o+x and nothing else, and a closed folder above it stops the start", async () => {
      await chmod(dir, 0o755);
      const closed = await mkdtemp(join(dir, "closed-"));
      const root = join(closed, "renderer");
      await mkdir(root, { mode: 0o700 });
      await chmod(root, 0o700);
      await expect(openToTools(root)).rejects.toThrow(`which other users cannot enter`);
      expect((await stat(root)).mode & 0o777).toBe(0o701);
      await chmod(closed, 0o755);
      await openToTools(root);
      expect((await stat(root)).mode & 0o777).toBe(0o701);
    });

    it("refuse when every uid of the range is held", async () => {
      const users = new ToolUsers({ first: DEFAULT_TOOL_UIDS.last, last: DEFAULT_TOOL_UIDS.last });
      const held = await users.lease("one");
      await expect(users.lease("two")).rejects.toThrow(/every tool user of TOOL_UIDS .* is taken/);
      await held.release();
    });
  });
});
