// Types of processes.mjs for the TypeScript callers (tests, benchmarks).
import type { ChildProcess } from "node:child_process";

export function freePort(): Promise<number>;
export function freePorts(count?: number): Promise<number[]>;
export function waitForUrl(url: string, timeoutMs?: number, child?: ChildProcess): Promise<void>;
export function startProcess(
  name: string,
  command: string,
  args: string[],
  options?: { cwd?: string; env?: Record<string, string>; quiet?: boolean },
): ChildProcess & { /** Its last 40 lines of output. */ outputTail(): string };
export function stopProcess(child: ChildProcess | undefined, graceMs?: number): Promise<void>;
export function startRenderer(
  root: string,
  port: number,
  secret: string,
  options?: { quiet?: boolean; env?: Record<string, string>; name?: string },
): ChildProcess;
export interface LocalService {
  /** http://127.0.0.1:<port> */
  base: string;
  port: number;
  env: Record<string, string>;
  service: ChildProcess;
  stateDir: string;
  /** Where npm start keeps the renderers' current pids (JSON: `[{ port, pid }]`). */
  pidsFile: string;
  /** The renderers' ports (RENDERERS of them). */
  rendererPorts: number[];
  /** A new API key of a (new or reused) local account. */
  key(options: { email: string; plan?: string; permissions?: string }): Promise<string>;
  /** New API keys of several accounts, one per address in order, made in one `npm run key` run. */
  keys(options: { emails: string[]; plan?: string; permissions?: string }): Promise<string[]>;
  stop(): Promise<void>;
}
/** A new API key of a (new or reused) local account of the service started with `env`, as `npm run key` makes it. */
export function mintKey(
  root: string,
  env: Record<string, string>,
  options: { email: string; plan?: string; permissions?: string },
): Promise<string>;
/** mintKey for several addresses in one run: one key per address, in order. */
export function mintKeys(
  root: string,
  env: Record<string, string>,
  options: { emails: string[]; plan?: string; permissions?: string },
): Promise<string[]>;
export function startLocalService(
  root: string,
  options?: { env?: Record<string, string>; quiet?: boolean; timeoutMs?: number; renderers?: number },
): Promise<LocalService>;
