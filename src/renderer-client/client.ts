/**
 * The one small interface through which the Worker talks to the renderer: a Container binding in production,
 * a plain Node process at RENDERER_URL locally. Every request is signed (src/contract/signing.ts) and every answer
 * is validated with the contract's schemas (src/contract/wire.ts).
 */
import { getContainer } from "@cloudflare/containers";
import * as v from "valibot";
import type { Env } from "../env";
import { RendererBusy, RendererUnreachable, UnprocessableMedia, UpstreamFailure } from "../lib/errors";
import { contentDigest, signRendererRequest } from "../contract/signing";
import {
  CancelAnswer,
  ProbeResult,
  RendererBusy as BusyAnswer,
  RendererError,
  RendererHealth,
  RENDERER_PATHS,
  type RenderVideoRequestInput,
} from "../contract/wire";

export interface Renderer {
  health(): Promise<RendererHealth>;
  probe(body: ReadableStream | ArrayBuffer, size: number, filename: string): Promise<ProbeResult>;
  /** Hands a job over (202); throws RendererBusy (503 with Retry-After) or RendererUnreachable. */
  renderVideo(request: RenderVideoRequestInput): Promise<void>;
  /** Stops a job's render there (one attempt, or any); whether one was found. Best effort for callers. */
  cancel(jobId: string, attempt?: number): Promise<boolean>;
}

type Send = (request: Request) => Promise<Response>;

const transport = (env: Env): { base: string; send: Send } => {
  if (env.RENDERER_URL) return { base: env.RENDERER_URL.replace(/\/+$/, ""), send: (r) => fetch(r) };
  if (env.RENDERER) {
    const stub = getContainer(env.RENDERER as never);
    return { base: "http://renderer", send: (r) => (stub as unknown as Fetcher).fetch(r) };
  }
  throw new UpstreamFailure("No renderer configured (set RENDERER_URL or the RENDERER container binding)");
};

type Body = string | ArrayBuffer | ReadableStream;

const call = async (
  env: Env,
  method: string,
  path: string,
  init: { body?: Body; headers?: Record<string, string> } = {},
  timeoutMs = 60_000,
) => {
  const { base, send } = transport(env);
  const headers = new Headers(init.headers);
  const body = init.body instanceof ArrayBuffer ? new Uint8Array(init.body) : init.body;
  const content = await contentDigest(body);
  for (const [name, value] of Object.entries(
    await signRendererRequest(env.RUNNER_SECRET, { method, target: path, content }),
  ))
    headers.set(name, value);
  try {
    return await send(
      new Request(`${base}${path}`, { ...init, method, headers, signal: AbortSignal.timeout(timeoutMs) }),
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

export const rendererFor = (env: Env): Renderer => ({
  async health() {
    const res = await call(env, "GET", RENDERER_PATHS.health, {}, 5_000);
    if (!res.ok) throw new UpstreamFailure(`Renderer health: ${await errorText(res)}`);
    return answer(res, RendererHealth);
  },
  async probe(body, size, filename) {
    const res = await call(env, "POST", RENDERER_PATHS.probe, {
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
    const res = await call(
      env,
      "POST",
      RENDERER_PATHS.renderVideo,
      {
        body: JSON.stringify(request),
        headers: { "content-type": "application/json" },
      },
      15_000,
    );
    if (res.status === 503) {
      const busy = v.safeParse(BusyAnswer, await res.json().catch(() => null));
      if (busy.success) throw new RendererBusy(busy.output.error, busy.output.retryAfterSeconds);
    }
    if (res.status >= 500) throw new RendererUnreachable(`Renderer failed: ${await errorText(res)}`);
    if (res.status !== 202) throw new UpstreamFailure(`Renderer refused the job: ${await errorText(res)}`);
  },
  async cancel(jobId, attempt) {
    const res = await call(
      env,
      "POST",
      RENDERER_PATHS.cancel,
      { body: JSON.stringify({ jobId, attempt }), headers: { "content-type": "application/json" } },
      5_000,
    );
    if (!res.ok) throw new UpstreamFailure(`Renderer cancel: ${await errorText(res)}`);
    return (await answer(res, CancelAnswer)).cancelled;
  },
});
