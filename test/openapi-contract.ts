/**
 * The contract test's checker: every answer a suite receives is held to the OpenAPI document (client/openapi.json,
 * which test/worker/docs.test.ts holds to the served one). The operation is found by method and path; its status
 * must be documented, its Content-Type one of that answer's media types, and its body valid against the schema:
 * JSON whole, an event stream event by event as it is read, files and archives by type only. Objects may not carry
 * properties their schema does not name (the check adds `additionalProperties: false` where the document leaves it
 * open), so a handler that answers more than it documents fails too. A request the document does not describe
 * (the internal routes it leaves out, unknown paths or methods) is not checked. Validators are compiled once per operation and answer,
 * on first use.
 */
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { createParser } from "eventsource-parser";

type Json = Record<string, unknown>;
interface Media {
  schema?: Json;
}
interface ResponseDoc {
  $ref?: string;
  content?: Record<string, Media>;
}
interface Operation {
  operationId: string;
  responses: Record<string, ResponseDoc>;
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Json>; responses?: Record<string, ResponseDoc> };
}

/** An answer outside the document. */
export class ContractViolation extends Error {
  override name = "ContractViolation";
}

const COMPONENTS = "https://contract.test/components";

/** `#/components/schemas/X` as the components schema's `#/$defs/X`, from inside it or from outside. */
const retarget = (node: unknown, prefix: string): unknown => {
  if (Array.isArray(node)) return node.map((n) => retarget(n, prefix));
  if (node === null || typeof node !== "object") return node;
  return Object.fromEntries(
    Object.entries(node).map(([k, v]) => [
      k,
      k === "$ref" && typeof v === "string"
        ? v.replace(/^#\/components\/schemas\//, `${prefix}#/$defs/`)
        : retarget(v, prefix),
    ]),
  );
};

/**
 * Closes every object schema the document leaves open: an undocumented property is a violation. Conditions
 * (`if`, `not`) and the members of an `allOf` describe parts of an object, so they stay open.
 */
const closed = (node: unknown): unknown => {
  if (Array.isArray(node)) return node.map(closed);
  if (node === null || typeof node !== "object") return node;
  const out = Object.fromEntries(
    Object.entries(node).map(([k, v]) => [k, k === "if" || k === "not" || k === "allOf" ? v : closed(v)]),
  ) as Json;
  if (out.properties && !("additionalProperties" in out) && !out.allOf) out.additionalProperties = false;
  return out;
};

const mediaTypeOf = (header: string | null) => header?.split(";")[0]?.trim().toLowerCase() ?? "";

/** The documented media type a Content-Type falls under (exact, then `type/*`, then `* /*`). */
const documentedType = (content: Record<string, Media>, type: string) =>
  [type, `${type.split("/")[0]}/*`, "*/*"].find((t) => t in content);

/**
 * The checker of `doc`. `internal`: path prefixes the document leaves out on purpose (src/docs/internal-routes.ts),
 * never checked even where a documented pattern matches them (`/api/v1/jobs/queue-status` and `/{jobId}`).
 */
export const openApiContract = (doc: OpenApiDocument, internal: readonly string[] = []) => {
  const ajv = new Ajv2020({ strict: true, strictTypes: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  ajv.addVocabulary(["example", "xml", "externalDocs", "discriminator"]);
  ajv.addSchema({ $id: COMPONENTS, $defs: closed(retarget(doc.components.schemas, "")) as Json });

  const routes = Object.entries(doc.paths)
    .map(([path, item]) => ({
      path,
      item,
      params: (path.match(/\{/g) ?? []).length,
      pattern: new RegExp(
        `^${path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\\?\{[^}]+\\?\}/g, "[^/]+")}$`,
      ),
    }))
    // A literal segment wins over a parameter (`/jobs/stats` before `/jobs/{jobId}`).
    .sort((a, b) => a.params - b.params);

  const validators = new Map<string, ValidateFunction>();
  const validator = (key: string, schema: Json) => {
    let v = validators.get(key);
    if (!v) validators.set(key, (v = ajv.compile(closed(retarget(schema, COMPONENTS)) as Json)));
    return v;
  };

  const resolve = (answer: ResponseDoc): ResponseDoc =>
    answer.$ref ? doc.components.responses![answer.$ref.split("/").pop()!]! : answer;

  const fail = (where: string, why: string): never => {
    throw new ContractViolation(`${where}: ${why} (not what the OpenAPI document says)`);
  };

  const errorsOf = (v: ValidateFunction) =>
    (v.errors ?? [])
      .slice(0, 5)
      .map((e) => `${e.instancePath || "/"} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ""}`)
      .join("; ");

  /** The operation a request hits; undefined when the document does not describe it. */
  const operationOf = (method: string, url: string) => {
    const path = new URL(url).pathname;
    if (internal.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))) return undefined;
    const route = routes.find((r) => r.pattern.test(path));
    if (!route) return undefined;
    const own = route.item[method.toLowerCase()];
    // HEAD of a GET-only route is answered by the GET handler, without a body.
    const op = own ?? (method === "HEAD" ? route.item.get : undefined);
    return op && { op, path: route.path, bodyless: method === "HEAD" };
  };

  /**
   * Checks `response` to the request `method url`; throws ContractViolation outside the document. Answers the
   * response to use: an event stream is checked as the caller reads it (a bad event errors the stream).
   */
  const check = async (method: string, url: string, response: Response): Promise<Response> => {
    const found = operationOf(method, url);
    if (!found) return response;
    const { op, bodyless } = found;
    const status = String(response.status);
    const where = `${method} ${new URL(url).pathname} (${op.operationId}) -> ${status}`;
    const documented = op.responses[status] ?? op.responses[`${status[0]}XX`] ?? op.responses.default;
    if (!documented) return fail(where, `status ${status} is not documented`);
    const answer = resolve(documented);
    const type = mediaTypeOf(response.headers.get("content-type"));
    if (!answer.content || Object.keys(answer.content).length === 0) {
      if (!bodyless && response.body && (await response.clone().arrayBuffer()).byteLength > 0)
        fail(where, "a body where none is documented");
      return response;
    }
    if (bodyless && !type) return response;
    const media = documentedType(answer.content, type);
    if (!media)
      return fail(where, `Content-Type "${type}" is not one of ${Object.keys(answer.content).join(", ")}`);
    const schema = answer.content[media]!.schema;
    if (bodyless || !schema) return response;
    const key = `${op.operationId} ${status} ${media}`;
    if (media === "application/json") {
      const text = await response.clone().text();
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        return fail(where, `a body that is not JSON: ${text.slice(0, 200)}`);
      }
      const v = validator(key, schema);
      if (!v(body)) fail(where, `${errorsOf(v)} in ${text.slice(0, 300)}`);
      return response;
    }
    if (media === "text/event-stream" && response.body) {
      const items = (schema as { items?: Json }).items;
      return items ? checkedEventStream(response, validator(`${key} event`, items), where) : response;
    }
    return response;
  };

  /** The stream passed through as read, each complete event checked; a bad one errors the stream. */
  const checkedEventStream = (response: Response, v: ValidateFunction, where: string) => {
    let violation: ContractViolation | undefined;
    const parser = createParser({
      onEvent: (e) => {
        if (violation) return;
        let data: unknown;
        try {
          data = JSON.parse(e.data);
        } catch {
          violation = new ContractViolation(`${where}: event "${e.event}" carries data that is not JSON`);
          return;
        }
        if (!v({ event: e.event, data }))
          violation = new ContractViolation(`${where}: event "${e.event}": ${errorsOf(v)}`);
      },
    });
    const decoder = new TextDecoder();
    const body = response.body!.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          parser.feed(decoder.decode(chunk, { stream: true }));
          if (violation) controller.error(violation);
          else controller.enqueue(chunk);
        },
      }),
    );
    return new Response(body, { status: response.status, headers: response.headers });
  };

  /** The problems of `value` against a schema of the document (none: valid), as `check` judges bodies. */
  const problems = (schema: Json, value: unknown): string | null => {
    const v = validator(JSON.stringify(schema), schema);
    return v(value) ? null : errorsOf(v);
  };

  return { check, operationOf, problems };
};
