/**
 * The one place the renderer spawns external programs (ffmpeg, ffprobe, espeak-ng, pocketsphinx).
 * Arguments are always arrays (never a shell string), every run has a timeout,
 * and a failure carries the tail of stderr so the cause reaches the job's errorMessage.
 * A program gets nothing of the renderer's environment (RENDERER_SECRET above all): only TOOL_ENV, or the
 * environment its caller names; and it runs as its task's tool user when one is given (tool-users.ts).
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { accessSync, constants } from "node:fs";
import type { Socket } from "node:net";
import { join } from "node:path";
import type { Duplex } from "node:stream";
import { asUser, type Identity } from "./run-as.ts";

/** The environment of every external program unless its caller names another: where programs are found. */
export const TOOL_ENV: Readonly<Record<string, string>> = { PATH: "/usr/local/bin:/usr/bin:/bin" };

/** Why a run failed: could not start, killed at its timeout, killed by the caller's signal, or exited non-zero. */
export type ProcessFailure = "spawn-failed" | "timed-out" | "aborted" | "exited";

export class ProcessError extends Error {
  readonly command: string;
  readonly exitCode: number | null;
  readonly stderrTail: string;
  /** Lets callers tell "bad input" (exited) from "broken host" (spawn-failed) without parsing messages. */
  readonly failure: ProcessFailure;
  /** The signal that ended the process, when one did (an "exited" run with a signal was killed from outside). */
  readonly signal: NodeJS.Signals | null;
  constructor(
    command: string,
    exitCode: number | null,
    stderrTail: string,
    reason: string,
    failure: ProcessFailure = "exited",
    signal: NodeJS.Signals | null = null,
  ) {
    super(`${command} ${reason}: ${stderrTail.trim().split("\n").slice(-3).join(" | ")}`);
    this.name = "ProcessError";
    this.command = command;
    this.exitCode = exitCode;
    this.stderrTail = stderrTail;
    this.failure = failure;
    this.signal = signal;
  }
}

export interface RunOptions {
  /** Kill the process after this many milliseconds (default 10 minutes). */
  timeoutMs?: number;
  /** Called with each chunk of stderr text (ffmpeg writes progress there). */
  onStderr?: (chunk: string) => void;
  /**
   * Bytes written to stdin, then closed. A promise lets the process start before its input exists;
   * if it rejects, the process is killed and the run rejects with that reason.
   */
  stdin?: Buffer | string | Promise<Uint8Array>;
  /**
   * Users of extra pipes, opened as file descriptors 3, 4, ... of the process (ffmpeg names them
   * `pipe:3`, ...): a writer fills an input pipe, a reader drains an output pipe (each fd is a socket
   * pair, both ways open). When one resolves its pipe is ended; if one rejects, the process is killed and
   * the run rejects with that reason. A {@link SharedPipe} is another process's pipe given to this one.
   */
  pipes?: PipeUser[];
  signal?: AbortSignal;
  /** Called with the process's pid once it has started (a job counts its processes' memory: process-memory.ts). */
  onSpawn?: (pid: number) => void;
  /** The process's whole environment (default TOOL_ENV: nothing of the renderer's). */
  env?: Readonly<Record<string, string>>;
  /**
   * The credentials it runs with (setpriv): its task's tool user (tool-users.ts) or the browser user; absent or
   * null, the renderer's own.
   */
  user?: Identity | null;
  /**
   * The process may stop reading its extra pipes before their writers are done (a still or a chunk: ffmpeg ends at
   * its last frame; a `trim` that has what it needs; a taps run once its pairs are out): a writer's broken-pipe
   * error (brokenPipe) is then not a failure; the exit status decides.
   */
  pipesMayClose?: boolean;
}

/**
 * A pipe of another process handed to this one as one of its extra file descriptors, so that the two
 * exchange bytes directly (this process never copies them). `share` resolves before the process starts;
 * if `done` rejects, the process is killed and the run rejects with that reason.
 */
export interface SharedPipe {
  share(): Promise<{ stream: Socket; done: Promise<void> }>;
}

/** The user of one extra pipe: a writer or reader of this process's end, or a pipe shared with another. */
export type PipeUser = ((stream: Duplex) => Promise<void>) | SharedPipe;

export interface RunResult {
  stdout: Buffer;
  stderr: string;
}

const STDERR_TAIL_BYTES = 8192;

/** Whether a pipe's writer failed only because its reader had gone (a write error, or a writer killed by SIGPIPE). */
/** How a writer learns that its reader closed the pipe (a process that shares it: killed by SIGPIPE). */
const CLOSED_PIPE: ReadonlySet<unknown> = new Set([
  "EPIPE",
  "ECANCELED",
  "ECONNRESET",
  "ERR_STREAM_DESTROYED",
]);

/** Whether a pipe writer failed only because the process stopped reading (see RunOptions.pipesMayClose). */
export const brokenPipe = (reason: unknown): boolean => {
  const { code, signal } = (reason ?? {}) as { code?: unknown; signal?: unknown };
  return CLOSED_PIPE.has(code) || signal === "SIGPIPE";
};

/**
 * `command`'s absolute path as `PATH` finds it, or null when there is no such executable: a program started through
 * setpriv is looked up before it starts, so a missing one still fails as "could not start", not as setpriv's exit.
 */
const resolveCommand = (command: string, path: string): string | null => {
  const executable = (file: string) => {
    try {
      accessSync(file, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (command.includes("/")) return executable(command) ? command : null;
  for (const dir of path.split(":").filter(Boolean)) {
    const file = join(dir, command);
    if (executable(file)) return file;
  }
  return null;
};

/** setpriv's own failure to run the program (exit 126 or 127, its message on stderr). */
const setprivFailed = (code: number | null, stderr: string): boolean =>
  (code === 126 || code === 127) && /^setpriv: /m.test(stderr);

/** Runs `command args...` and resolves with its output, or rejects with a ProcessError. */
export const run = (
  command: string,
  args: readonly string[],
  options: RunOptions = {},
): Promise<RunResult> => {
  const users = options.pipes ?? [];
  const shares = users.map((u) => (typeof u === "function" ? null : u.share()));
  if (shares.every((s) => s === null)) return start(command, args, options, users, shares as null[]);
  // Shared pipes are known before the process starts (their fds are its own); an abort meanwhile ends the run.
  const sharing = Promise.all(shares);
  const signal = options.signal;
  if (!signal) return sharing.then((shared) => start(command, args, options, users, shared));
  const aborted = new Promise<never>((_, reject) => {
    const stop = () => reject(new ProcessError(command, null, "", "aborted", "aborted"));
    if (signal.aborted) stop();
    else signal.addEventListener("abort", stop, { once: true });
  });
  aborted.catch(() => {});
  return Promise.race([sharing, aborted]).then((shared) => start(command, args, options, users, shared));
};

const start = (
  command: string,
  args: readonly string[],
  options: RunOptions,
  users: readonly PipeUser[],
  shared: readonly ({ stream: Socket; done: Promise<void> } | null)[],
): Promise<RunResult> => {
  const timeoutMs = options.timeoutMs ?? 10 * 60_000;
  const env = options.env ?? TOOL_ENV;
  const user = options.user ?? null;
  return new Promise((resolve, reject) => {
    let argv = [command, ...args];
    if (user) {
      const found = resolveCommand(command, env.PATH ?? "");
      if (!found) {
        for (const given of shared) {
          given?.stream.destroy();
          given?.done.catch(() => {});
        }
        reject(
          new ProcessError(command, null, "", `could not start (no program ${command})`, "spawn-failed"),
        );
        return;
      }
      argv = asUser(user, [found, ...args]);
    }
    // stdin, stdout and stderr are always this process's pipes.
    const child = spawn(argv[0]!, argv.slice(1), {
      stdio: ["pipe", "pipe", "pipe", ...shared.map((s) => s?.stream ?? ("pipe" as const))],
      signal: options.signal,
      env,
      // An aborted run (a deadline, a cancel) must stop now: ffmpeg finishes its output on SIGTERM first.
      killSignal: "SIGKILL",
    }) as ChildProcessWithoutNullStreams;
    if (child.pid !== undefined) options.onSpawn?.(child.pid);
    const out: Buffer[] = [];
    let err = "";
    let timedOut = false;
    let inputFailed: { reason: unknown } | null = null;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, timeoutMs);
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      err = (err + chunk).slice(-STDERR_TAIL_BYTES);
      options.onStderr?.(chunk);
    });
    let aborted = false;
    child.on("error", (e) => {
      clearTimeout(timer);
      // spawn() reports an aborted signal through "error" too; that is the caller's choice, not a broken host.
      // The run ends at "close", once the killed process is gone (a caller may then remove its files).
      if (e.name === "AbortError") aborted = true;
      else reject(new ProcessError(command, null, err, `could not start (${e.message})`, "spawn-failed"));
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (aborted) reject(new ProcessError(command, null, err, "aborted", "aborted"));
      else if (inputFailed) reject(inputFailed.reason);
      else if (timedOut)
        reject(new ProcessError(command, code, err, `timed out after ${timeoutMs} ms`, "timed-out"));
      else if (signal !== null)
        reject(new ProcessError(command, code, err, `was killed by ${signal}`, "exited", signal));
      else if (user && setprivFailed(code, err))
        reject(new ProcessError(command, code, err, "could not start", "spawn-failed"));
      else if (code !== 0) reject(new ProcessError(command, code, err, `exited with code ${code}`));
      else resolve({ stdout: Buffer.concat(out), stderr: err });
    });
    child.stdin.on("error", () => {
      /* the process may exit before reading stdin; the close handler reports it */
    });
    const fail = (reason: unknown) => {
      inputFailed ??= { reason };
      child.kill("SIGKILL");
      // Whatever still holds the other ends (a grandchild) sees end-of-file instead of waiting forever.
      for (const stream of child.stdio.slice(3)) stream?.destroy();
      child.stdin.destroy();
    };
    users.forEach((write, i) => {
      const given = shared[i];
      if (given) {
        // The other process holds the pipe now; this one lets go of its copy.
        given.stream.destroy();
        given.done.catch((reason: unknown) => {
          if (!(options.pipesMayClose && brokenPipe(reason))) fail(reason);
        });
        return;
      }
      if (typeof write !== "function") return;
      const out = child.stdio[3 + i] as Duplex;
      out.on("error", () => {
        /* the process may exit before reading everything; the close handler reports it */
      });
      write(out).then(
        () => out.end(),
        (reason: unknown) => {
          if (!(options.pipesMayClose && brokenPipe(reason))) fail(reason);
        },
      );
    });
    const input = options.stdin;
    if (input instanceof Promise) {
      input.then(
        (bytes) => child.stdin.end(bytes),
        (reason: unknown) => fail(reason),
      );
    } else if (input !== undefined) child.stdin.end(input);
    else child.stdin.end();
  });
};
