/**
 * Calls to the service with the node's credentials: every answer is the envelope `{ success, data }` or
 * `{ success: false, error, details }`, and an error becomes a NodeApiError whose message and description name each
 * field the service refused (`config.layers[0].width: ...`), so n8n shows them and keeps them in the execution data.
 */
import type {
  IDataObject,
  IExecuteFunctions,
  IHttpRequestMethods,
  IHttpRequestOptions,
  JsonObject,
} from "n8n-workflow";
import { NodeApiError } from "n8n-workflow";

export const CREDENTIALS = "mediaRenderApi";

/** A field the service refused, as `details.errors[]` lists it. */
interface FieldError {
  field?: string;
  message: string;
  code?: string;
  row?: number;
}

interface Envelope {
  success?: boolean;
  data?: unknown;
  error?: string;
  details?: { errors?: FieldError[] } & IDataObject;
}

export interface Answer {
  status: number;
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
}

/** The credential's base URL without a trailing slash. */
const baseUrlOf = async (ctx: IExecuteFunctions) => {
  const credentials = await ctx.getCredentials<{ baseUrl: string }>(CREDENTIALS);
  return String(credentials.baseUrl).replace(/\/+$/, "");
};

/** Sends one request with the key; answers whatever status came back (errors are the caller's to read). */
export const send = async (
  ctx: IExecuteFunctions,
  request: Omit<IHttpRequestOptions, "url" | "baseURL"> & { path: string },
): Promise<Answer> => {
  const { path, ...rest } = request;
  const baseURL = await baseUrlOf(ctx);
  try {
    const answer = (await ctx.helpers.httpRequestWithAuthentication.call(ctx, CREDENTIALS, {
      ...rest,
      baseURL,
      url: path,
      returnFullResponse: true,
      ignoreHttpStatusErrors: true,
    })) as { statusCode: number; body: unknown; headers: Answer["headers"] };
    return { status: answer.statusCode, body: answer.body, headers: answer.headers };
  } catch (error) {
    // No answer at all (refused, reset, timed out, aborted): n8n's error says which, for the URL it tried.
    throw new NodeApiError(ctx.getNode(), error as JsonObject, {
      description: `${request.method ?? "GET"} ${baseURL}${path}: ${(error as Error).message}`,
    });
  }
};

const fieldLine = (e: FieldError) =>
  `${e.row === undefined ? "" : `row ${e.row}: `}${e.field ? `${e.field}: ` : ""}${e.message}${e.code ? ` (${e.code})` : ""}`;

/** The envelope of an answer whose body may have come back as bytes or text (a download's error, say). */
const envelopeOf = (body: unknown): Envelope => {
  let value = body;
  if (value instanceof ArrayBuffer) value = Buffer.from(value);
  if (Buffer.isBuffer(value)) value = value.toString("utf8");
  if (typeof value === "string") {
    try {
      value = JSON.parse(value);
    } catch {
      return { error: String(value).slice(0, 500) };
    }
  }
  return typeof value === "object" && value !== null ? (value as Envelope) : {};
};

/** The error for a refused request: the envelope's sentence, then each field error. */
export const apiError = (ctx: IExecuteFunctions, answer: Answer, itemIndex: number) => {
  const envelope = envelopeOf(answer.body);
  const errors = envelope.details?.errors ?? [];
  const sentence = envelope.error ?? `The service answered HTTP ${answer.status}`;
  const message = errors.length > 0 ? `${sentence}: ${fieldLine(errors[0]!)}` : sentence;
  return new NodeApiError(ctx.getNode(), { ...envelope, httpCode: String(answer.status) } as JsonObject, {
    message,
    description: errors.length > 0 ? errors.map(fieldLine).join("\n") : undefined,
    httpCode: String(answer.status),
    itemIndex,
  });
};

/** Sends a JSON request and answers the envelope's `data`, or throws the service's error. */
export const call = async <T>(
  ctx: IExecuteFunctions,
  itemIndex: number,
  method: IHttpRequestMethods,
  path: string,
  options: { body?: IDataObject; qs?: IDataObject; headers?: IDataObject } = {},
): Promise<T> => {
  const answer = await send(ctx, { method, path, json: true, ...options });
  if (answer.status < 200 || answer.status >= 300) throw apiError(ctx, answer, itemIndex);
  return envelopeOf(answer.body).data as T;
};

/** A file's bytes, with the type and name the service gave them. */
export const downloadFile = async (ctx: IExecuteFunctions, itemIndex: number, fileId: string) => {
  const answer = await send(ctx, {
    method: "GET",
    path: `/api/v1/files/${encodeURIComponent(fileId)}/download`,
    encoding: "arraybuffer",
  });
  if (answer.status !== 200) throw apiError(ctx, answer, itemIndex);
  const header = (name: string) => {
    const value = answer.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  // RFC 6266: filename* (UTF-8) wins over filename.
  const disposition = header("content-disposition") ?? "";
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1];
  const plain = /filename="?([^";]+)"?/i.exec(disposition)?.[1];
  return {
    bytes: Buffer.from(answer.body as ArrayBuffer),
    mimeType: (header("content-type") ?? "application/octet-stream").split(";")[0]!.trim(),
    fileName: encoded ? decodeURIComponent(encoded) : plain,
  };
};
