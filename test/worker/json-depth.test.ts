/**
 * JSON nested far deeper than any request needs is refused before it is parsed: 200,000 levels once overflowed the
 * stack while a handler stringified the config (a 500 on job create, template save and batch create). Every JSON
 * body route reads through the one bounded reader, which scans the raw text first.
 */
import { describe, expect, it } from "vitest";
import { jsonDepth, MAX_JSON_DEPTH } from "../../src/lib/json-depth.ts";
import { bearer, signUp } from "./accounts/sign-up.ts";
import { body, call, newAccount } from "./helpers.ts";

/** `{"type":"image","config":{...,"layers": <value nested n deep>}}` as raw text (JSON.stringify would overflow). */
const nested = (n: number) => `${"[".repeat(n)}${"]".repeat(n)}`;

const post = (path: string, text: string, headers: Record<string, string>, method = "POST") =>
  call(path, { method, headers: { "content-type": "application/json", ...headers }, body: text });

const TOO_DEEP_MESSAGE = `JSON body nested deeper than ${MAX_JSON_DEPTH} levels`;

/** The answer to a body nested too deep: 400 in the envelope, naming the limit. */
const TOO_DEEP = {
  status: 400,
  body: {
    success: false,
    error: TOO_DEEP_MESSAGE,
    details: { errors: [{ field: "body", message: TOO_DEEP_MESSAGE, code: "JSON_TOO_DEEP" }] },
  },
};

const answer = async (res: Response) => ({ status: res.status, body: await res.json() });

describe("jsonDepth: the scan of raw text", () => {
  it("counts nesting of arrays and objects, not brackets inside strings", () => {
    expect(jsonDepth("1")).toBe(0);
    expect(jsonDepth("{}")).toBe(1);
    expect(jsonDepth('{"a":[{"b":[]}]}')).toBe(4);
    expect(jsonDepth('{"a":"[[[[{{{{"}')).toBe(1);
    expect(jsonDepth('["\\"[[[", [[]]]')).toBe(3);
    expect(jsonDepth('["\\\\", [[]]]')).toBe(3);
  });

  it("scans 200,000 levels without recursion", () => {
    expect(jsonDepth(nested(200_000))).toBe(200_000);
  });
});

describe("JSON bodies nested too deep: 400 naming the limit, on every JSON route", () => {
  it("job create, validate, template save and replace, batch create", async () => {
    const { key } = await newAccount({ planId: "pro", tokens: 1000 });
    const h = { "x-api-key": key };
    const deep = nested(200_000);
    const job = `{"type":"image","config":{"width":10,"height":10,"layers":${deep}}}`;
    expect(await answer(await post("/api/v1/jobs", job, h))).toEqual(TOO_DEEP);
    expect(await answer(await post("/api/v1/jobs/validate", job, h))).toEqual(TOO_DEEP);
    const template = `{"name":"t","type":"image","config":{"width":10,"height":10,"layers":${deep}}}`;
    expect(await answer(await post("/api/v2/templates", template, h))).toEqual(TOO_DEEP);
    const saved = await post(
      "/api/v2/templates",
      JSON.stringify({
        name: "t",
        type: "image",
        config: { width: 10, height: 10, layers: [{ type: "text", text: "{{label}}" }] },
      }),
      h,
    );
    expect(saved.status).toBe(201);
    const id = (await body<{ id: string }>(saved)).data!.id;
    expect(await answer(await post(`/api/v2/templates/${id}`, template, h, "PUT"))).toEqual(TOO_DEEP);
    expect(
      await answer(await post(`/api/v2/templates/${id}/batches`, `{"rows":[{"label":${deep}}]}`, h)),
    ).toEqual(TOO_DEEP);
  });

  it("webhook endpoints, account, keys and the MCP endpoint", async () => {
    const { key } = await newAccount();
    const deep = nested(200_000);
    expect(await answer(await post("/api/v2/webhooks", `{"url":${deep}}`, { "x-api-key": key }))).toEqual(
      TOO_DEEP,
    );
    const { token } = await signUp();
    expect(
      await answer(
        await post(
          "/api/v1/account",
          `{"name":${deep}}`,
          bearer(token).headers as Record<string, string>,
          "PATCH",
        ),
      ),
    ).toEqual(TOO_DEEP);
    expect(
      await answer(
        await post("/api/v1/api-keys", `{"name":${deep}}`, bearer(token).headers as Record<string, string>),
      ),
    ).toEqual(TOO_DEEP);
    const rpc = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_job","arguments":{"type":"image","config":${deep}}}}`;
    expect(
      await answer(
        await post("/mcp", rpc, { "x-api-key": key, accept: "application/json, text/event-stream" }),
      ),
    ).toEqual(TOO_DEEP);
  });

  it(`accepts ${MAX_JSON_DEPTH} levels (the grammar then judges the value) and refuses ${MAX_JSON_DEPTH + 1}`, async () => {
    const { key } = await newAccount();
    const h = { "x-api-key": key };
    // The body object is level 1, config 2, layers 3: the rest of the budget goes to the nested arrays.
    const job = (n: number) => `{"type":"image","config":{"width":10,"height":10,"layers":${nested(n)}}}`;
    const within = await post("/api/v1/jobs/validate", job(MAX_JSON_DEPTH - 2), h);
    expect(within.status).toBe(200);
    expect(JSON.stringify(await body(within))).not.toContain("JSON_TOO_DEEP");
    expect(await answer(await post("/api/v1/jobs/validate", job(MAX_JSON_DEPTH - 1), h))).toEqual(TOO_DEEP);
  });
});
