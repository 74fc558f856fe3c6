/**
 * The one small interface through which the Worker talks to the renderer pool (pool.ts): Container instances by
 * name in production, plain Node processes at RENDERER_URL locally. Every request is signed
 * (packages/contract/src/signing.ts) and every answer is validated with the contract's schemas (packages/contract/src/wire.ts).
 */
import * as v from "valibot";
import type { Env } from "../env.ts";
import {
  RendererBusy,
  RendererRefused,
  RendererUnreachable,
  UnprocessableMedia,
  UpstreamFailure,
} from "../lib/errors.ts";
import { contentDigest, signRendererRequest } from "@media-render/contract/signing";
import {
  CancelAnswer,
  ProbeResult,
  RendererBusy as BusyAnswer,
  RendererError,
  RendererHealth,
  RENDERER_PATHS,
  type RenderVideoRequestInput,
} from "@media-render/contract/wire";
import { probeInstance, renderInstances, spillOrder, type Instance } from "./pool.ts";

export interface Renderer {
  health(): Promise<RendererHealth>;
  probe(body: ReadableStream | ArrayBuffer, size: number, filename: string): Promise<ProbeResult>;
  /**
   * Hands a job to the pool; resolves with the name of the instance that accepted it. Throws RendererBusy (every
   * instance full; the shortest Retry-After) or RendererUnreachable (none answered).
   */
  renderVideo(request: RenderVideoRequestInput): Promise<string>;
  /**
   * Stops a job's render (one attempt, or any) on one instance, or on all; whether one was found. With `chunk`,
   * only that chunk of a split job; without it and without `attempt`, the job's chunks too.
   */
  cancel(jobId: string, attempt?: number, instance?: string, chunk?: number): Promise<boolean>;
}

type Body = string | ArrayBuffer | ReadableStream;

/** A hand-over waits this long for an instance's answer before trying the next (a frozen one must not hold it). */
const OFFER_TIMEOUT_MS = 5_000;

const call = async (
  env: Env,
  to: Instance,
  method: string,
  path: string,
  init: { body?: Body; headers?: Record<string, string> } = {},
  timeoutMs = 60_000,
) => {
  const headers = new Headers(init.headers);
  const body = init.body instanceof ArrayBuffer ? new Uint8Array(init.body) : init.body;
  const content = await contentDigest(body);
  for (const [name, value] of Object.entries(
    await signRendererRequest(env.RENDERER_SECRET, { method, target: path, content }),
  ))
    headers.set(name, value);
  try {
    return await to.send(
      new Request(`${to.base}${path}`, { ...init, method, headers, signal: AbortSignal.timeout(timeoutMs) }),
    );
  } catch (e) {
    throw new RendererUnreachable(`Renderer unreachable: ${(e as Error).message}`);
  }
};

const answer = async <S extends v.GenericSchema>(res: Response, schema: S): Promise<v.InferOutput<S>> => {
  const body: unknown = await res.json().catch(() => null);
  const parsed = v.safeParse(schema, body);
  if (!parsed.success) throw new UpstreamFailure(`Renderer answered ${res.status} with an unexpected body`);
  return parsed.output;
};

const errorText = async (res: Response) => {
  const parsed = v.safeParse(RendererError, await res.json().catch(() => null));
  return parsed.success ? parsed.output.error : `status ${res.status}`;
};

/** Offers the job to one instance: accepted, or the error saying why not. */
const offer = async (env: Env, to: Instance, body: string): Promise<UpstreamFailure | null> => {
  let res: Response;
  try {
    res = await call(
      env,
      to,
      "POST",
      RENDERER_PATHS.renderVideo,
      { body, headers: { "content-type": "application/json" } },
      OFFER_TIMEOUT_MS,
    );
  } catch (e) {
    return e as RendererUnreachable;
  }
  if (res.status === 202) return null;
  if (res.status === 503) {
    const busy = v.safeParse(BusyAnswer, await res.json().catch(() => null));
    if (busy.success) return new RendererBusy(busy.output.error, busy.output.retryAfterSeconds);
  }
  if (res.status >= 500) return new RendererUnreachable(`Renderer failed: ${await errorText(res)}`);
  // A refusal of the request itself (400, 401) would be the same on every instance; a 400 says the request is not
  // what the contract allows (a defect of ours), a 401 that the secrets differ (a deployment's fault).
  const text = `Renderer refused the job: ${await errorText(res)}`;
  throw res.status === 400 ? new RendererRefused(text) : new UpstreamFailure(text);
};

export const rendererFor = (env: Env): Renderer => ({
  async health() {
    const res = await call(env, probeInstance(env), "GET", RENDERER_PATHS.health, {}, 5_000);
    if (!res.ok) throw new UpstreamFailure(`Renderer health: ${await errorText(res)}`);
    return answer(res, RendererHealth);
  },
  async probe(body, size, filename) {
    const res = await call(env, probeInstance(env), "POST", RENDERER_PATHS.probe, {
      body,
      headers: {
        "content-length": String(size),
        "content-type": "application/octet-stream",
        "x-filename": encodeURIComponent(filename),
      },
    });
    if (res.status === 422) throw new UnprocessableMedia(await errorText(res));
    if (!res.ok) throw new UpstreamFailure(`Renderer probe: ${await errorText(res)}`);
    return answer(res, ProbeResult);
  },
  async renderVideo(request) {
    const pool = renderInstances(env);
    const order = spillOrder(request.jobId, request.attempt ?? 1, pool.length).map((i) => pool[i]!);
    const refusals: UpstreamFailure[] = [];
    // First pass: only an instance with a free slot takes it; second: any with room in its queue. An instance
    // that did not answer is not asked again in the second pass.
    const skip = new Set<string>();
    for (const startNow of pool.length > 1 ? [true, false] : [false]) {
      const body = JSON.stringify({ ...request, startNow });
      for (const instance of order) {
        if (skip.has(instance.name)) continue;
        const refusal = await offer(env, instance, body);
        if (refusal === null) return instance.name;
        if (refusal instanceof RendererUnreachable) skip.add(instance.name);
        refusals.push(refusal);
      }
    }
    const busy = refusals.filter((r): r is RendererBusy => r instanceof RendererBusy);
    if (busy.length)
      throw new RendererBusy(busy.at(-1)!.message, Math.min(...busy.map((b) => b.retryAfterSeconds)));
    throw refusals.at(-1) ?? new RendererUnreachable("No renderer instance");
  },
  async cancel(jobId, attempt, instance, chunk) {
    const targets = renderInstances(env).filter((i) => instance === undefined || i.name === instance);
    const body = JSON.stringify({ jobId, attempt, chunk });
    const found = await Promise.all(
      targets.map(async (to) => {
        const res = await call(
          env,
          to,
          "POST",
          RENDERER_PATHS.cancel,
          { body, headers: { "content-type": "application/json" } },
          5_000,
        ).catch(() => null);
        return res?.ok
          ? (await answer(res, CancelAnswer).catch(() => ({ cancelled: false }))).cancelled
          : false;
      }),
    );
    return found.some(Boolean);
  },
});
