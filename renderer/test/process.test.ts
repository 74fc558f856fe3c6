/**
 * The one spawner: input given as a promise, and extra pipes filled while the process runs, let a
 * process start before its input exists (ffmpeg and the text sheet / streamed html frames).
 */
import { describe, expect, it } from "vitest";
import { ProcessError, run } from "../src/lib/process.ts";
import { Writable } from "node:stream";
import { spawn } from "node:child_process";
import type { Socket } from "node:net";
import { orderedWriter } from "../src/video/html/rasterize-html.ts";

const later = <T>(value: T, ms: number) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

describe("run", () => {
  it("feeds stdin that arrives after the process started", async () => {
    const started = Date.now();
    const { stdout } = await run("cat", [], { stdin: later(new TextEncoder().encode("sheet bytes"), 150) });
    expect(stdout.toString()).toBe("sheet bytes");
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it("kills the process and rejects with the input's own failure", async () => {
    const failing = Promise.reject(new Error("the screenshot failed"));
    await expect(run("cat", [], { stdin: failing })).rejects.toThrow("the screenshot failed");
  });

  it("still reports the process's failure when it exits before reading its input", async () => {
    await expect(run("false", [], { stdin: later(new Uint8Array(10), 50) })).rejects.toBeInstanceOf(
      ProcessError,
    );
  });
});

describe("extra input pipes", () => {
  it("gives the process file descriptors 3, 4, ... filled by their writers", async () => {
    const { stdout } = await run("sh", ["-c", "cat <&3; cat <&4"], {
      pipes: [
        async (out) => void out.write("three "),
        async (out) => {
          await later(null, 50);
          out.write("four");
        },
      ],
    });
    expect(stdout.toString()).toBe("three four");
  });

  it("kills the process when a writer fails, with the writer's reason", async () => {
    await expect(
      run("sh", ["-c", "cat <&3"], { pipes: [async () => Promise.reject(new Error("capture failed"))] }),
    ).rejects.toThrow("capture failed");
  });
});

describe("shared pipes", () => {
  it("hands another process's pipe to this one: the two exchange bytes without this process", async () => {
    // `wc -c` reads its stdin; the run writes into it through its fd 3, given the other process's pipe.
    const counter = spawn("wc", ["-c"], { stdio: ["pipe", "pipe", "inherit"] });
    const counted = new Promise<string>((resolve) => {
      let out = "";
      counter.stdout.on("data", (c: Buffer) => (out += c.toString()));
      counter.on("close", () => resolve(out.trim()));
    });
    const done = new Promise<void>((resolve) => counter.on("close", () => resolve()));
    await run("sh", ["-c", "head -c 100000 /dev/zero >&3"], {
      pipes: [{ share: async () => ({ stream: counter.stdin as unknown as Socket, done }) }],
    });
    expect(await counted).toBe("100000");
  });

  it("an abort while the shared pipe is not ready ends the run without starting it", async () => {
    const stop = new AbortController();
    const running = run("sh", ["-c", "echo started >&2"], {
      signal: stop.signal,
      pipes: [{ share: () => new Promise(() => {}) }],
    });
    stop.abort();
    await expect(running).rejects.toMatchObject({ failure: "aborted" });
  });

  it("kills the process when the other one fails, with its reason", async () => {
    // Left running, the process would sleep a minute: killed, it ends within seconds even on a slow, busy machine.
    const other = spawn("sleep", ["60"], { stdio: ["pipe", "ignore", "ignore"] });
    const started = Date.now();
    await expect(
      run("sleep", ["60"], {
        pipes: [
          {
            share: async () => ({
              stream: other.stdin as unknown as Socket,
              done: later(null, 100).then(() => Promise.reject(new Error("the drawer failed"))),
            }),
          },
        ],
      }),
    ).rejects.toThrow("the drawer failed");
    expect(Date.now() - started).toBeLessThan(20_000);
    other.kill();
  });
});

describe("orderedWriter", () => {
  it("writes frames in frame order whatever order the workers deliver them", async () => {
    const chunks: string[] = [];
    const out = new Writable({
      write(chunk: Buffer, _enc, done) {
        chunks.push(chunk.toString());
        done();
      },
    });
    const w = orderedWriter(out);
    const te = (s: string) => new TextEncoder().encode(s);
    await Promise.all([w.put(2, te("c")), w.put(0, te("a")), w.put(3, te("d")), w.put(1, te("b"))]);
    expect(chunks.join("")).toBe("abcd");
  });

  it("lets the capture run ahead of a slow reader by up to maxQueued frames, then waits for it", async () => {
    const pending: (() => void)[] = [];
    const out = new Writable({ highWaterMark: 1, write: (_c, _e, done) => void pending.push(done) });
    const w = orderedWriter(out, 2);
    const settled: number[] = [];
    const puts = [0, 1, 2].map((n) => w.put(n, new Uint8Array(8)).then(() => settled.push(n)));
    await new Promise((r) => setTimeout(r, 20));
    // Frame 0 is queued unread and resolved; frame 1 fills the queue and waits (the reader took none yet).
    expect(settled).toEqual([0]);
    while (settled.length < 3) {
      pending.shift()?.();
      await new Promise((r) => setTimeout(r, 5));
    }
    await Promise.all(puts);
    expect(settled).toEqual([0, 1, 2]);
  });

  it("fails every waiting frame when aborted", async () => {
    const out = new Writable({ write: (_c, _e, done) => done() });
    const w = orderedWriter(out);
    const waiting = w.put(1, new Uint8Array(1)); // frame 0 never comes
    w.abort(new Error("worker 0 failed"));
    await expect(waiting).rejects.toThrow("worker 0 failed");
    await expect(w.put(2, new Uint8Array(1))).rejects.toThrow("worker 0 failed");
  });
});
