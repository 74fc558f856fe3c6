/**
 * Links that open the builder (web/src/shared/builder-link.ts): a config carried in the fragment is read only when it
 * is a {type, config} of a job kind; a job link names a job id, nothing else.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { builderJobLink, readBuilderLink, readJobLink } from "../../../src/shared/builder-link.ts";

/** `#config=` + base64url of the UTF-8 JSON of `job`, as the console writes it. */
const link = (job: unknown) => `#config=${Buffer.from(JSON.stringify(job), "utf8").toString("base64url")}`;

describe("readBuilderLink", () => {
  it("reads the job a link carries, whatever its characters", () => {
    const job = { type: "image", config: { width: 10, layers: [{ type: "text", text: "Grüße 👋 <b>" }] } };
    expect(readBuilderLink(link(job))).toEqual(job);
  });

  it("reads nothing from another fragment, bad base64, bad JSON, another kind or a config that is not an object", () => {
    for (const hash of [
      "",
      "#job=abc",
      "#config=",
      "#config=!!!",
      `#config=${Buffer.from("{not json").toString("base64url")}`,
      link({ type: "audio", config: {} }),
      link({ type: "image", config: null }),
      link({ type: "image", config: [1] }),
      link({ type: "video" }),
      link([]),
    ])
      expect(readBuilderLink(hash), hash).toBeNull();
  });

  it("round-trips any JSON config of either kind", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("image", "video"),
        fc.dictionary(fc.string(), fc.jsonValue()),
        (type, config) => {
          expect(readBuilderLink(link({ type, config }))).toEqual(
            JSON.parse(JSON.stringify({ type, config })),
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("job links", () => {
  it("carry a job id and read back only an id", () => {
    expect(builderJobLink("job_1")).toBe("/builder#job=job_1");
    expect(readJobLink("#job=job_1")).toBe("job_1");
    expect([readJobLink("#job=a/b"), readJobLink("#job="), readJobLink("#config=x")]).toEqual([
      null,
      null,
      null,
    ]);
  });
});
