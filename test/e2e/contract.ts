/**
 * Setup of every end-to-end test file: each answer the service gives to the test's `fetch` (the tests' own calls,
 * the typed client's, the MCP SDK's) is held to the OpenAPI document (test/openapi-contract.ts); an answer outside
 * it fails the test that received it. Requests elsewhere (the webhook receiver, the pixel tools) are left alone.
 * The console's tests hold the browser's answers to it too (`checkAnswer`, test/e2e/console/harness.ts).
 */
import { inject } from "vitest";
import document from "../../client/openapi.json";
import { INTERNAL_ROUTES } from "../../src/docs/internal-routes.ts";
import { openApiContract, type OpenApiDocument } from "../openapi-contract.ts";

const contract = openApiContract(
  document as unknown as OpenApiDocument,
  INTERNAL_ROUTES.map((r) => r.prefix),
);
const base = inject("baseUrl");
/** The platform's own fetch: kept aside once, since the files share one process and run this setup each. */
const UNCHECKED = Symbol.for("mrs.e2e.uncheckedFetch");
const holder = globalThis as unknown as Record<symbol, typeof fetch>;
holder[UNCHECKED] ??= globalThis.fetch;
const unchecked = holder[UNCHECKED];

/** Holds an answer of the service to the document (throws ContractViolation outside it); others pass. */
export const checkAnswer = (method: string, url: string, response: Response): Promise<Response> =>
  url.startsWith(`${base}/`) ? contract.check(method, url, response) : Promise.resolve(response);

globalThis.fetch = async (input: string | URL | Request, init?: RequestInit) => {
  const request = input instanceof Request ? input : undefined;
  const url = request ? request.url : String(input);
  const method = (init?.method ?? request?.method ?? "GET").toUpperCase();
  return checkAnswer(method, url, await unchecked(input, init));
};
