/**
 * GET /llms.txt, the config-writing guide for agents: served as Markdown without a key, its figures the enforced
 * ones, and every worked example in it accepted by the API as written (the jobs validated and created, the template
 * saved and rendered), the error example answered exactly as shown.
 */
import { limits } from "@media-render/contract/config";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { GUIDE_EXAMPLES } from "../../src/docs/llms-txt.ts";
import { createJob } from "../../src/jobs/create-job.ts";
import { MAX_METADATA_BYTES } from "../../src/jobs/metadata.ts";
import { withDns } from "./fake-internet.ts";
import { asCaller, body, call, json, newAccount } from "./helpers.ts";

const guide = async () => {
  const res = await call("/llms.txt");
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
  return res.text();
};

/** The JSON code blocks of the guide, in order. */
const blocks = (text: string) =>
  [...text.matchAll(/```json\n([\s\S]*?)\n```/g)].map((m) => JSON.parse(m[1]!));

describe("GET /llms.txt", () => {
  it("serves the guide without a key: how to render, the grammar, examples, limits and errors", async () => {
    const text = await guide();
    expect(text.startsWith("# Media rendering service\n")).toBe(true);
    for (const heading of [
      "## How to render",
      "## The grammar in brief",
      "## Worked examples",
      "## Limits",
      "## Errors",
    ])
      expect(text).toContain(`\n${heading}\n`);
    expect(text).toContain(`| metadata | ${MAX_METADATA_BYTES} bytes of JSON |`);
    expect(text).toContain(`${limits.VIDEO_MAX_DURATION} s in all, ${limits.VIDEO_MAX_CLIPS} clips`);
    expect(text).toContain("http://127.0.0.1:8787/api/v1/schemas/image");
    // The examples shown are the ones tested below.
    expect(blocks(text)).toEqual([
      GUIDE_EXAMPLES.card,
      GUIDE_EXAMPLES.banner,
      GUIDE_EXAMPLES.video,
      GUIDE_EXAMPLES.callback,
      GUIDE_EXAMPLES.template,
      GUIDE_EXAMPLES.render,
      GUIDE_EXAMPLES.invalid,
      GUIDE_EXAMPLES.refusal,
    ]);
  });

  it("has worked examples the API accepts as written", async () => {
    const { key, userId } = await newAccount();
    for (const example of [GUIDE_EXAMPLES.card, GUIDE_EXAMPLES.banner, GUIDE_EXAMPLES.video]) {
      const res = await call("/api/v1/jobs/validate", json("POST", example, key));
      expect((await body(res)).data, JSON.stringify(example)).toMatchObject({ isValid: true, errors: [] });
    }
    // The callback example's host resolves (through the guard's lookup) to a public address.
    const created = await createJob(
      asCaller(userId),
      GUIDE_EXAMPLES.callback,
      withDns(async () => new Response("unused")),
    );
    expect(created).toMatchObject({ status: "PENDING", type: "IMAGE" });
    // No delivery may leave for example.com: the account's job callbacks are switched off before the job renders.
    await env.DB.prepare("UPDATE webhook_endpoints SET active = 0 WHERE user_id = ? AND kind = 'callback'")
      .bind(userId)
      .run();
    const template = await call("/api/v2/templates", json("POST", GUIDE_EXAMPLES.template, key));
    expect(template.status).toBe(201);
    const id = (await body<{ id: string }>(template)).data!.id;
    const rendered = await call(`/api/v2/templates/${id}/renders`, json("POST", GUIDE_EXAMPLES.render, key));
    const job = await body<{ jobId: string }>(rendered);
    expect(rendered.status, JSON.stringify(job)).toBe(201);
    const read = await body<{ config: { layers: unknown[] }; metadata: unknown }>(
      await call(`/api/v1/jobs/${job.data!.jobId}`, { headers: { "x-api-key": key } }),
    );
    // Title, price and the sale badge: all three conditional outcomes shown.
    expect(read.data!.config.layers).toHaveLength(3);
    expect(read.data!.metadata).toEqual(GUIDE_EXAMPLES.render.metadata);
  });

  it("shows the error answer the service really gives", async () => {
    const { key } = await newAccount();
    const res = await call("/api/v1/jobs", json("POST", GUIDE_EXAMPLES.invalid, key));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual(GUIDE_EXAMPLES.refusal);
  });
});
