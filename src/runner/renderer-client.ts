/**
 * The one small interface through which the Worker talks to the renderer: a Container binding in production,
 * a plain Node process at RENDERER_URL locally. Every request is signed (see signature.ts) and every answer
 * is validated with valibot.
 */
import { getContainer } from "@cloudflare/containers";
import * as v from "valibot";
import type { Env } from "../env";
import { UnprocessableMedia, UpstreamFailure } from "../lib/errors";
import { signRendererRequest } from "./signature";

export const ProbeResult = v.object({
  width: v.nullable(v.number()),
  height: v.nullable(v.number()),
  duration: v.nullable(v.number()),
  formatName: v.string(),
  videoCodec: v.nullable(v.string()),
  audioCodec: v.nullable(v.string()),
  fps: v.nullable(v.number()),
  rotation: v.number(),
  hasVideo: v.boolean(),
  hasAudio: v.boolean(),
});
export type ProbeResult = v.InferOutput<typeof ProbeResult>;

export const RendererHealth = v.object({
  status: v.string(),
  tools: v.optional(v.record(v.string(), v.nullable(v.string()))),
});

export interface VideoRenderRequest {
  jobId: string;
  config: unknown;
  output: { uploadUrl: string; format: string };
  callbackUrl: string;
}

export interface Renderer {
  health(): Promise<v.InferOutput<typeof RendererHealth>>;
  probe(body: ReadableStream | ArrayBuffer, size: number, filename: string): Promise<ProbeResult>;
  renderVideo(request: VideoRenderRequest): Promise<void>;
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

const call = async (env: Env, method: string, path: string, init: RequestInit = {}, timeoutMs = 60_000) => {
  const { base, send } = transport(env);
  const ts = Math.floor(Date.now() / 1000);
  const headers = new Headers(init.headers);
  headers.set("x-renderer-timestamp", String(ts));
  headers.set("x-renderer-signature", await signRendererRequest(env.RUNNER_SECRET, method, path, ts));
  try {
    return await send(
      new Request(`${base}${path}`, { ...init, method, headers, signal: AbortSignal.timeout(timeoutMs) }),
    );
  } catch (e) {
    throw new UpstreamFailure(`Renderer unreachable: ${(e as Error).message}`);
  }
};

const answer = async <S extends v.GenericSchema>(res: Response, schema: S): Promise<v.InferOutput<S>> => {
  const body: unknown = await res.json().catch(() => null);
  const parsed = v.safeParse(schema, body);
  if (!parsed.success) throw new UpstreamFailure(`Renderer answered ${res.status} with an unexpected body`);
  return parsed.output;
};

const errorText = async (res: Response) => {
  const body = (await res.json().catch(() => null)) as { error?: string } | null;
  return body?.error ?? `status ${res.status}`;
};

export const rendererFor = (env: Env): Renderer => ({
  async health() {
    const res = await call(env, "GET", "/health", {}, 5_000);
    if (!res.ok) throw new UpstreamFailure(`Renderer health: ${await errorText(res)}`);
    return answer(res, RendererHealth);
  },
  async probe(body, size, filename) {
    const res = await call(env, "POST", "/probe", {
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
      "/render/video",
      {
        body: JSON.stringify(request),
        headers: { "content-type": "application/json" },
      },
      15_000,
    );
    if (res.status !== 202 && !res.ok)
      throw new UpstreamFailure(`Renderer refused the job: ${await errorText(res)}`);
  },
});
