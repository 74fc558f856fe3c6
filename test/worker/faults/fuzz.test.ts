/**
 * A seeded fuzzer over every route that takes input: mutated valid configs and arbitrary JSON bodies, broken
 * content types and multipart bodies, random path parameters, with a key, a session or nothing. Whatever arrives,
 * the answer is never a 5xx and always the spec's envelope.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createApp } from "../../../src/app.ts";
import { imageConfig, videoConfig } from "../../../packages/contract/test/helpers/examples.ts";
import { CONSOLE_PAGES } from "../../../src/paths.ts";
import { BASE, call, newAccount } from "../helpers.ts";
import { signUp } from "../accounts/sign-up.ts";
import { figure, scaled } from "./scale.ts";

const SEED = 20261124;

/** Routes that read a body or a path parameter, from the app itself (so a new route is fuzzed without asking). */
const targets = createApp()
  .routes.filter((r) => r.method !== "ALL" && !r.path.includes("*"))
  .filter((r) => r.method !== "GET" || r.path.includes(":"))
  .map((r) => ({ method: r.method, path: r.path }))
  .filter((r, i, all) => all.findIndex((x) => x.method === r.method && x.path === r.path) === i);

const isConsolePage = (pathname: string) =>
  CONSOLE_PAGES.some((p) => pathname === p || (p !== "/" && pathname.startsWith(`${p}/`)));

/** A value that is JSON-shaped but arbitrary, with the awkward numbers and strings a client may send. */
const jsonValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.constantFrom(
      null,
      true,
      false,
      0,
      -1,
      1e308,
      -1e308,
      1.5,
      2 ** 53,
      "",
      "0",
      "true",
      "null",
      "😀",
      "\u0000",
      "a".repeat(5000),
    ),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    fc.string(),
    fc.array(tie("value"), { maxLength: 5 }),
    fc.dictionary(fc.string({ maxLength: 12 }), tie("value"), { maxKeys: 5 }),
  ),
})).value;

/** A valid config with one part replaced by something else. */
const mutate = (base: Record<string, unknown>) =>
  fc.tuple(fc.infiniteStream(fc.nat()), jsonValue).map(([choices, replacement]) => {
    const copy = structuredClone(base) as Record<string, unknown>;
    const it = choices[Symbol.iterator]();
    let node: unknown = copy;
    for (let depth = 0; depth < 6; depth++) {
      const keys = node && typeof node === "object" ? Object.keys(node as object) : [];
      if (keys.length === 0) break;
      const key = keys[it.next().value % keys.length]!;
      const child = (node as Record<string, unknown>)[key];
      if (depth >= 1 && (it.next().value % 3 === 0 || !child || typeof child !== "object")) {
        if (it.next().value % 4 === 0) delete (node as Record<string, unknown>)[key];
        else (node as Record<string, unknown>)[key] = replacement;
        break;
      }
      node = child;
    }
    return copy;
  });

const bodies = fc.oneof(
  mutate({ type: "image", config: imageConfig() }),
  mutate({ type: "video", config: videoConfig() }),
  jsonValue,
);

const contentTypes = fc.oneof(
  { arbitrary: fc.constant("application/json"), weight: 6 },
  {
    arbitrary: fc.constantFrom(
      "application/json; charset=utf-8",
      "text/plain",
      "multipart/form-data; boundary=x",
      "multipart/form-data",
      "application/x-www-form-urlencoded",
      undefined,
    ),
    weight: 2,
  },
);

const credentials = fc.oneof(
  { arbitrary: fc.constant("key" as const), weight: 6 },
  { arbitrary: fc.constant("session" as const), weight: 3 },
  { arbitrary: fc.constant("none" as const), weight: 1 },
);

const pathParam = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom("job_x", "..", "%00", "a".repeat(300), "%2F%2E%2E"),
);

describe("fuzzing every route that takes input", () => {
  it(`never answers 5xx, always the envelope (${targets.length} routes)`, async () => {
    const zeroTokens = await newAccount({ tokens: 0 });
    const { token } = await signUp();
    const statuses = new Map<number, number>();
    let sent = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...targets),
        bodies,
        contentTypes,
        fc.array(pathParam, { minLength: 3, maxLength: 3 }),
        credentials,
        fc.boolean(),
        async (route, body, contentType, params, credential, truncate) => {
          let i = 0;
          const path = route.path.replace(/:[A-Za-z]+/g, () =>
            encodeURIComponent(params[i++ % params.length]!),
          );
          const headers: Record<string, string> = {};
          if (contentType) headers["content-type"] = contentType;
          if (credential === "key") headers["x-api-key"] = zeroTokens.key;
          if (credential === "session") headers.authorization = `Bearer ${token}`;
          let text = JSON.stringify(body) ?? "null";
          if (truncate) text = text.slice(0, Math.floor(text.length / 2));
          const hasBody = !["GET", "HEAD", "DELETE"].includes(route.method);
          const res = await call(path, { method: route.method, headers, ...(hasBody ? { body: text } : {}) });
          sent++;
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          expect(res.status, `${route.method} ${path}`).toBeLessThan(500);
          if (route.method === "HEAD") return;
          // The local checkout stand-in answers a page, and its payment a redirect to the success URL; a parameter
          // such as `..` can make the URL itself a console page (`/builder/..` is `/`), answered with its HTML.
          const page = res.headers.get("content-type")?.startsWith("text/html") ?? false;
          if (route.path.startsWith("/dev/checkout") && (page || res.status === 303)) return;
          if (page && isConsolePage(new URL(`${BASE}${path}`).pathname)) return;
          const envelope = (await res.json()) as Record<string, unknown>;
          expect(typeof envelope.success, `${route.method} ${path}`).toBe("boolean");
          const whole = envelope.success ? "data" in envelope : typeof envelope.error === "string";
          expect(whole, `${route.method} ${path}: ${JSON.stringify(envelope)}`).toBe(true);
        },
      ),
      { seed: SEED, numRuns: scaled(400, 5000) },
    );
    figure("fuzz requests", sent);
    figure("fuzz routes", targets.length);
    figure(
      "fuzz 5xx answers",
      [...statuses].filter(([s]) => s >= 500).reduce((n, [, c]) => n + c, 0),
    );
    figure("fuzz statuses", JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b))));
  }, 600_000);
});
