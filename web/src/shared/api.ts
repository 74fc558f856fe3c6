/**
 * The web front end's one way to the API, shared by every page (the console's and the builder's):
 * - `api`: openapi-fetch typed by the service's OpenAPI document (./api-types.ts). The browser sends the session
 *   cookie by itself (same origin); every request that is not GET/HEAD gets the session's CSRF token.
 * - `data(call)`: a call's `data`, or an ApiError carrying the error envelope (status, sentence, field errors).
 * - `upload`: a multipart upload with progress (fetch reports none, so XMLHttpRequest).
 * - `followJob`: a job's Server-Sent Events.
 * No other host is ever called; the policy of the pages forbids it anyway.
 */
import createClient, { type Middleware } from "openapi-fetch";
import type { FieldError, Job, JobProgressEvent, paths, UploadedFile } from "./api-types.ts";

export const CSRF_HEADER = "x-csrf-token";
const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

let csrfToken: string | null = null;
/** The session's CSRF token (from GET/POST /api/v1/auth/session), sent on every state-changing request. */
export const setCsrfToken = (token: string | null) => {
  csrfToken = token;
};

/** An error answer (or no answer): its status (0 without one), the envelope's sentence, field errors, details. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors: FieldError[] = [],
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = "ApiError";
  }
}

const listeners = new Set<(error: ApiError) => void>();
/** Hears every ApiError (the session listens for 401: the session ended). Returns the unsubscribe function. */
export const onApiError = (listener: (error: ApiError) => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};
const raise = (error: ApiError): never => {
  for (const listener of listeners) listener(error);
  throw error;
};

const NETWORK = "The service could not be reached: check the connection and try again";

/** An error envelope (or any other body) as an ApiError. */
export const toApiError = (status: number, body: unknown): ApiError => {
  const envelope = body as { success?: unknown; error?: unknown; details?: Record<string, unknown> } | null;
  if (envelope && envelope.success === false && typeof envelope.error === "string") {
    const details = envelope.details ?? {};
    const errors = Array.isArray(details.errors) ? (details.errors as FieldError[]) : [];
    return new ApiError(status, envelope.error, errors, details);
  }
  return new ApiError(status, `The service answered ${status} without an explanation`);
};

const csrf: Middleware = {
  onRequest({ request }) {
    if (csrfToken && !SAFE.has(request.method)) request.headers.set(CSRF_HEADER, csrfToken);
    return request;
  },
};

/** The typed client. Prefer `data(api.GET(...))`, which turns error answers into ApiError. */
export const api = createClient<paths>({ baseUrl: location.origin, credentials: "same-origin" });
api.use(csrf);

interface Answered {
  data?: unknown;
  error?: unknown;
  response: Response;
}
/** The `data` of an operation's success envelope. */
export type DataOf<A extends Answered> = NonNullable<A["data"]> extends { data: infer D } ? D : never;

/** The `data` of a call's success answer, or throws (and announces) an ApiError. */
export const data = async <A extends Answered>(call: Promise<A>): Promise<DataOf<A>> => {
  let answered: A;
  try {
    answered = await call;
  } catch {
    return raise(new ApiError(0, NETWORK));
  }
  const { data: body, error, response } = answered;
  if (!response.ok || error !== undefined || body === undefined)
    return raise(toApiError(response.status, error));
  return (body as { data: DataOf<A> }).data;
};

/** A sentence for a person about an ApiError: the service's own, with what the status adds. */
export const explain = (error: unknown): string => {
  if (!(error instanceof ApiError)) return error instanceof Error ? error.message : String(error);
  const details = error.details;
  switch (error.status) {
    case 0:
      return error.message;
    case 401:
      return error.message === "Unauthorized"
        ? "You are signed out (the session ended or was revoked): sign in again."
        : error.message;
    case 402:
      return typeof details.required === "number"
        ? `Not enough tokens: this needs ${details.required}, you have ${details.available}. Buy tokens or change plan on the Billing page.`
        : error.message;
    case 429:
      if (typeof details.maxAllowed === "number")
        return `Too many jobs at once (${details.activeJobs} of ${details.maxAllowed} running): wait for one to finish.`;
      return typeof details.retryAfter === "number"
        ? `Too many requests: try again in ${details.retryAfter} s.`
        : error.message;
    default:
      if (error.status >= 500)
        return `The service failed (${error.status}: ${error.message})${typeof details.requestId === "string" ? `; request id ${details.requestId}` : ""}. Try again in a moment.`;
      return error.message;
  }
};

/** Where a file's bytes are downloaded (the session cookie authorises it). */
export const downloadUrl = (fileId: string) => `/api/v1/files/${encodeURIComponent(fileId)}/download`;

/** Uploads a file with progress (0..1). Resolves to the stored file; rejects with an ApiError. */
export const upload = (
  file: File,
  options: { ttlHours?: number; onProgress?: (fraction: number) => void; signal?: AbortSignal } = {},
): Promise<UploadedFile> =>
  new Promise((resolve, reject) => {
    const form = new FormData();
    form.append("file", file);
    if (options.ttlHours !== undefined) form.append("ttlHours", String(options.ttlHours));
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/api/v1/files/upload");
    if (csrfToken) xhr.setRequestHeader(CSRF_HEADER, csrfToken);
    xhr.responseType = "json";
    xhr.upload.onprogress = (e) => e.lengthComputable && options.onProgress?.(e.loaded / e.total);
    xhr.onload = () => {
      const body = xhr.response as { success?: boolean; data?: UploadedFile } | null;
      if (xhr.status === 201 && body?.success) return resolve(body.data!);
      try {
        raise(toApiError(xhr.status, body));
      } catch (e) {
        reject(e);
      }
    };
    xhr.onerror = () => reject(new ApiError(0, NETWORK));
    xhr.onabort = () => reject(new ApiError(0, "Upload cancelled"));
    options.signal?.addEventListener("abort", () => xhr.abort(), { once: true });
    xhr.send(form);
  });

export type JobEvent = { event: "progress"; data: JobProgressEvent } | { event: "done"; data: Job };

/**
 * Follows a job's progress (GET /api/v1/jobs/{id}/events): `progress` events while it runs, one `done` with the
 * whole job, then the stream ends. `onLost` hears a stream that failed for good (e.g. the session ended) or is
 * reconnecting (`reconnecting` true; EventSource retries by itself). Returns the function that stops following.
 */
export const followJob = (
  jobId: string,
  onEvent: (event: JobEvent) => void,
  onLost: (reconnecting: boolean) => void,
): (() => void) => {
  const source = new EventSource(`/api/v1/jobs/${encodeURIComponent(jobId)}/events`);
  let done = false;
  source.addEventListener("progress", (e) => onEvent({ event: "progress", data: JSON.parse(e.data) }));
  source.addEventListener("done", (e) => {
    done = true;
    source.close();
    onEvent({ event: "done", data: JSON.parse(e.data) });
  });
  source.onerror = () => {
    if (done) return;
    onLost(source.readyState === EventSource.CONNECTING);
  };
  return () => source.close();
};
