// Types of processes.mjs for the TypeScript callers (tests, benchmarks).
import type { ChildProcess } from "node:child_process";

export function freePort(): Promise<number>;
export function waitForUrl(url: string, timeoutMs?: number, child?: ChildProcess): Promise<void>;
export function startProcess(
  name: string,
  command: string,
  args: string[],
  options?: { cwd?: string; env?: Record<string, string>; quiet?: boolean },
): ChildProcess;
export function stopProcess(child: ChildProcess | undefined, graceMs?: number): Promise<void>;
export function startRenderer(
  root: string,
  port: number,
  secret: string,
  options?: { quiet?: boolean; env?: Record<string, string>; name?: string },
): ChildProcess;
