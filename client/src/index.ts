/**
 * A typed client of the media rendering service. `request("POST /api/v1/jobs", { body })` is checked against the
 * operation's path parameters, query and body as the OpenAPI document describes them (schema.ts, generated from
 * it); answers are the service's envelope. Plus what a plain request cannot do well: multipart uploads, the
 * job's Server-Sent Events, and downloads.
 */
import type { Operations } from "./schema.ts";

export type * from "./schema.ts";

export interface ClientOptions {
  /** e.g. http://127.0.0.1:8787 */
  baseUrl: string;
  /** An API key (`mrk_...`). */
  apiKey: string;
  fetch?: typeof fetch;
}

export type Envelope<T = Record<string, unknown>> =
  | { success: true; data: T; message?: string }
  | { success: false; error: string; details?: Record<string, unknown> };

/** An error answer, with its status and the envelope's `error` and `details`. */
export class ApiError extends Error {
  readonly status: number;
  readonly details: Record<string, unknown> | undefined;
  constructor(status: number, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.details = details;
  }
}

type Input<K extends keyof Operations> = ({} extends Operations[K]["path"]
  ? { path?: Operations[K]["path"] }
  : { path: Operations[K]["path"] }) & { query?: Operations[K]["query"] } & ([Operations[K]["body"]] extends [
    never,
  ]
    ? { body?: never }
    : { body: Operations[K]["body"] }) & { headers?: Record<string, string> };

export interface JobEvent {
  event: "progress" | "done";
  data: { id: string; status: string; progress?: { percent: number; stage: string | null } | null } & Record<
    string,
    unknown
  >;
}

export const createClient = (options: ClientOptions) => {
  const send = options.fetch ?? fetch;
  const base = options.baseUrl.replace(/\/+$/, "");
  const auth = { "x-api-key": options.apiKey };

  const url = (path: string, params: Record<string, string> = {}, query: Record<string, unknown> = {}) => {
    const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ""));
    const search = new URLSearchParams(
      Object.entries(query)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, String(v)]),
    ).toString();
    return `${base}${filled}${search ? `?${search}` : ""}`;
  };

  const unwrap = async <T>(res: Response): Promise<T> => {
    const body = (await res.json().catch(() => null)) as Envelope<T> | null;
    if (!body) throw new ApiError(res.status, `HTTP ${res.status} without a JSON body`);
    if (!body.success) throw new ApiError(res.status, body.error, body.details);
    return body.data;
  };

  /** Sends one operation; answers its `data`, or throws ApiError with the envelope's message. */
  const request = async <K extends keyof Operations, T = Record<string, unknown>>(
    operation: K,
    input: Input<K> = {} as Input<K>,
  ): Promise<T> => {
    const [method, path] = (operation as string).split(" ") as [string, string];
    const i = input as {
      path?: Record<string, string>;
      query?: Record<string, unknown>;
      body?: unknown;
      headers?: Record<string, string>;
    };
    const isForm = typeof FormData !== "undefined" && i.body instanceof FormData;
    const res = await send(url(path, i.path, i.query), {
      method,
      headers: {
        ...auth,
        ...(i.body !== undefined && !isForm ? { "content-type": "application/json" } : {}),
        ...i.headers,
      },
      body: i.body === undefined ? undefined : isForm ? (i.body as FormData) : JSON.stringify(i.body),
    });
    return unwrap<T>(res);
  };

  return {
    request,

    /** Uploads bytes as a file; answers the stored file (`id`, `storageUrl`, ...). */
    upload: (
      bytes: Uint8Array<ArrayBuffer>,
      name: string,
      opts: { ttlHours?: number; idempotencyKey?: string } = {},
    ) => {
      const form = new FormData();
      form.set("file", new File([bytes], name));
      if (opts.ttlHours !== undefined) form.set("ttlHours", String(opts.ttlHours));
      return request<"POST /api/v1/files/upload", { id: string; storageUrl: string }>(
        "POST /api/v1/files/upload",
        {
          body: form,
          headers: opts.idempotencyKey ? { "idempotency-key": opts.idempotencyKey } : {},
        },
      );
    },

    /** The job's events until it ends (`done` last). */
    async *events(jobId: string): AsyncGenerator<JobEvent> {
      for (;;) {
        const res = await send(url("/api/v1/jobs/{jobId}/events", { jobId }), { headers: auth });
        if (!res.ok) await unwrap(res);
        const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = "";
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          buffer += value;
          let end: number;
          while ((end = buffer.indexOf("\n\n")) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const event = /^event: ?(.*)$/m.exec(block)?.[1];
            const data = /^data: ?(.*)$/m.exec(block)?.[1];
            if (!event || data === undefined) continue;
            const parsed = { event, data: JSON.parse(data) } as JobEvent;
            yield parsed;
            if (parsed.event === "done") return;
          }
        }
        // The stream ended without `done` (its 5-minute span): open it again, as EventSource would.
      }
    },

    /** A file's bytes (your file, with the key). */
    download: async (fileId: string): Promise<Uint8Array> => {
      const res = await send(url("/api/v1/files/{fileId}/download", { fileId }), { headers: auth });
      if (!res.ok) await unwrap(res);
      return new Uint8Array(await res.arrayBuffer());
    },
  };
};

export type Client = ReturnType<typeof createClient>;
