/**
 * The renderer pool: which instances exist and in which order a job is offered to them.
 *
 * Production: instances of the RENDERER Container binding by name, `render-0` ... `render-<n-1>`
 * (n = RENDERER_INSTANCES), and one more, `probe`, that only probes uploads, so a probe never waits behind a
 * render. Locally: RENDERER_URL lists the plain renderer processes (`RENDERERS=N npm start` starts N and lists
 * them); RENDERER_PROBE_URL, when set, is the probing one, else the first of the list. The routing code is the same.
 *
 * Routing is per-job hashing with spill-over: a job's instances are tried in an order that starts at
 * hash(jobId) + attempt (a job handed over again starts at the next instance, away from the one that lost it) and
 * walks the ring. Each instance's own admission control decides (a bounded queue; 503 busy): no shared load table
 * to keep fresh, no instance woken for a job it will not take, and capacity is judged where it is known.
 */
import type { Env } from "../env.ts";
import { UpstreamFailure } from "../lib/errors.ts";

export type Send = (request: Request) => Promise<Response>;

export interface Instance {
  name: string;
  base: string;
  send: Send;
}

/** Render instances when RENDERER_INSTANCES is unset: the `max_instances` of wrangler.toml less the probe one. */
const DEFAULT_INSTANCES = 4;

const byUrl = (name: string, url: string): Instance => ({
  name,
  base: url.replace(/\/+$/, ""),
  send: (r) => fetch(r),
});

/**
 * A Container instance by name: its Durable Object stub, as @cloudflare/containers' getContainer gets it (not imported
 * here: that package needs workerd's `cloudflare:workers`, and every request context holds this client, which Node
 * scripts bundle too, scripts/key.mjs).
 */
const byName = (binding: DurableObjectNamespace, name: string): Instance => {
  const stub = binding.get(binding.idFromName(name));
  return { name, base: "http://renderer", send: (r) => stub.fetch(r) };
};

const urls = (env: Env) =>
  (env.RENDERER_URL ?? "")
    .split(",")
    .map((u) => u.trim())
    .filter(Boolean);

/** The instances that render, in ring order. */
export const renderInstances = (env: Env): Instance[] => {
  const local = urls(env);
  if (local.length) return local.map((u, i) => byUrl(`render-${i}`, u));
  if (env.RENDERER) {
    const binding = env.RENDERER;
    const count = Math.max(1, Number(env.RENDERER_INSTANCES) || DEFAULT_INSTANCES);
    return Array.from({ length: count }, (_, i) => byName(binding, `render-${i}`));
  }
  throw new UpstreamFailure("No renderer configured (set RENDERER_URL or the RENDERER container binding)");
};

/** The instance that probes uploads (and answers health checks). */
export const probeInstance = (env: Env): Instance => {
  if (env.RENDERER_PROBE_URL) return byUrl("probe", env.RENDERER_PROBE_URL);
  const local = urls(env);
  if (local.length) return byUrl("render-0", local[0]!);
  if (env.RENDERER) return byName(env.RENDERER, "probe");
  throw new UpstreamFailure("No renderer configured (set RENDERER_URL or the RENDERER container binding)");
};

/** FNV-1a, 32 bits: a stable, well-spread hash of a job id. */
const fnv1a = (text: string): number => {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
};

/** Indexes of `count` instances in the order hand-over `attempt` of `jobId` tries them. */
export const spillOrder = (jobId: string, attempt: number, count: number): number[] => {
  const start = (fnv1a(jobId) + attempt - 1) % count;
  return Array.from({ length: count }, (_, i) => (start + i) % count);
};
