/**
 * A typed client of the media rendering service: openapi-fetch over the types openapi-typescript generates from the
 * service's OpenAPI document (schema.ts), so every operation's path, parameters, body and answer are typed, plus
 * what a plain request does not do well: multipart uploads, a job's Server-Sent Events, and downloads.
 *
 *   const client = createClient({ baseUrl, apiKey });
 *   const job = await data(client.api.POST("/api/v1/jobs", { body: { type: "image", config } }));
 *   for await (const e of client.events(job.jobId)) if (e.event === "done") console.log(e.data.outputFileId);
 */
import createFetchClient from "openapi-fetch";
import { EventSourceParserStream } from "eventsource-parser/stream";
import type { components, paths } from "./schema.ts";

export type * from "./schema.ts";

export interface ClientOptions {
  /** e.g. http://127.0.0.1:8787 */
  baseUrl: string;
  /** An API key (`mrk_...`). */
  apiKey: string;
  fetch?: (request: Request) => Promise<Response>;
}

type Schemas = components["schemas"];

/** An error answer, with its status and the envelope's `error` and `details`. */
export class ApiError extends Error {
  readonly status: number;
  readonly details: Schemas["ErrorBody"]["details"];
  constructor(status: number, message: string, details?: Schemas["ErrorBody"]["details"]) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.details = details;
  }
}

const isErrorBody = (body: unknown): body is Schemas["ErrorBody"] =>
  typeof body === "object" && body !== null && (body as { success?: unknown }).success === false;

const apiError = (response: Response, body: unknown) =>
  isErrorBody(body)
    ? new ApiError(response.status, body.error, body.details)
    : new ApiError(response.status, `HTTP ${response.status} without the error envelope`);

/** What an openapi-fetch call resolves to. */
interface Answered {
  data?: unknown;
  error?: unknown;
  response: Response;
}
/** The `data` of an operation's success envelope. */
export type DataOf<A extends Answered> = NonNullable<A["data"]> extends { data: infer D } ? D : never;

/**
 * The `data` of a call's success answer (typed by the operation), or an ApiError with the error envelope's message
 * and details.
 */
export const data = async <A extends Answered>(call: Promise<A>): Promise<DataOf<A>> => {
  const { data: body, error, response } = await call;
  if (error !== undefined || body === undefined) throw apiError(response, error);
  return (body as { data: DataOf<A> }).data;
};

export interface EventsOptions {
  signal?: AbortSignal;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });

export const createClient = (options: ClientOptions) => {
  const send = options.fetch ?? ((request: Request) => fetch(request));
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const auth = { "x-api-key": options.apiKey };
  const api = createFetchClient<paths>({ baseUrl, headers: auth, fetch: send });

  return {
    /** Every operation of the API, typed: `api.GET("/api/v1/jobs/{jobId}", { params: { path: { jobId } } })`. */
    api,

    /** Uploads bytes as a file; answers the stored file (`id`, `storageUrl`, ...). */
    upload: (
      bytes: Uint8Array<ArrayBuffer>,
      name: string,
      opts: { ttlHours?: number; idempotencyKey?: string } = {},
    ): Promise<Schemas["UploadedFile"]> => {
      const form = new FormData();
      form.set("file", new File([bytes], name));
      if (opts.ttlHours !== undefined) form.set("ttlHours", String(opts.ttlHours));
      return data(
        api.POST("/api/v1/files/upload", {
          // The form itself is the body (openapi-fetch sends a FormData as multipart, boundary and all).
          body: form as unknown as { file: string; ttlHours?: number },
          params: { header: opts.idempotencyKey ? { "Idempotency-Key": opts.idempotencyKey } : {} },
        }),
      );
    },

    /**
     * The job's events until it ends (`done` last), read as EventSource reads them (the text/event-stream format:
     * multi-line `data`, `id`, `retry`, comments, CRLF): when a stream ends before `done` (each lasts at most 5
     * minutes) it is opened again after the server's `retry` interval, sending `Last-Event-ID`.
     */
    async *events(jobId: string, opts: EventsOptions = {}): AsyncGenerator<Schemas["JobEvent"]> {
      let retryMs = 2000;
      let lastEventId: string | undefined;
      for (;;) {
        const res = await send(
          new Request(`${baseUrl}/api/v1/jobs/${encodeURIComponent(jobId)}/events`, {
            headers: {
              ...auth,
              accept: "text/event-stream",
              ...(lastEventId === undefined ? {} : { "last-event-id": lastEventId }),
            },
            signal: opts.signal,
          }),
        );
        if (!res.ok || !res.body) throw apiError(res, await res.json().catch(() => null));
        const reader = res.body
          .pipeThrough(new TextDecoderStream())
          .pipeThrough(new EventSourceParserStream({ onRetry: (ms) => (retryMs = ms) }))
          .getReader();
        for (;;) {
          const { done, value: message } = await reader.read();
          if (done) break;
          if (message.id !== undefined) lastEventId = message.id;
          // Other event names (none today) are for other listeners, as with EventSource.
          if (message.event !== "progress" && message.event !== "done") continue;
          const event = { event: message.event, data: JSON.parse(message.data) } as Schemas["JobEvent"];
          yield event;
          if (event.event === "done") {
            await reader.cancel();
            return;
          }
        }
        await sleep(retryMs, opts.signal);
      }
    },

    /** A file's bytes (your file, with the key). */
    download: async (fileId: string): Promise<Uint8Array> => {
      const {
        data: bytes,
        error,
        response,
      } = await api.GET("/api/v1/files/{fileId}/download", {
        params: { path: { fileId } },
        parseAs: "arrayBuffer",
      });
      if (error !== undefined || bytes === undefined) throw apiError(response, error);
      return new Uint8Array(bytes);
    },
  };
};

export type Client = ReturnType<typeof createClient>;
