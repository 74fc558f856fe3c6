/** Object keys from templates (src/destinations/key-template.ts): variables, refusals, and no way out of the key. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { renderKey, siblingKey, templateRefusal } from "../../../../src/destinations/key-template.ts";
import { MAX_KEY_BYTES } from "../../../../src/destinations/limits.ts";

const job = {
  jobId: "job_abc",
  createdAt: Date.UTC(2026, 11, 2, 23, 59),
  ext: "mp4",
  type: "VIDEO" as const,
};

describe("key templates", () => {
  it("fills in the job's id, creation day (UTC), format, type and metadata", () => {
    expect(renderKey("renders/{date}/{type}/{jobId}.{ext}", job)).toEqual({
      key: "renders/2026-12-02/video/job_abc.mp4",
    });
    expect(
      renderKey("{metadata.customer}/{metadata.n}-{metadata.ok}.{ext}", {
        ...job,
        metadata: { customer: "acme", n: 7, ok: true },
      }),
    ).toEqual({ key: "acme/7-true.mp4" });
  });

  it("refuses unknown variables, stray braces, absolute and dot-segment keys, and over-long templates", () => {
    expect(templateRefusal("{jobid}")).toMatch(/^\{jobid\} is not a variable/);
    expect(templateRefusal("{metadata.}")).toMatch(/is not a variable/);
    expect(templateRefusal("a}{jobId}")).toBe("has a { or } that does not enclose a variable");
    expect(templateRefusal("/abs/{jobId}")).toBe("must not start with /");
    expect(templateRefusal("a/../{jobId}")).toMatch(/must not have an empty, \. or \.\. segment/);
    expect(templateRefusal("a//{jobId}")).toMatch(/must not have an empty/);
    expect(templateRefusal("a/{jobId}/")).toMatch(/must not have an empty/);
    expect(templateRefusal("a\\{jobId}")).toBe("must not contain a backslash");
    expect(templateRefusal("a\u0000{jobId}")).toBe("must not contain control characters");
    expect(templateRefusal("x".repeat(513))).toBe("must be at most 512 characters");
    expect(templateRefusal("")).toBe("must not be empty");
  });

  it("refuses a metadata variable the job's metadata lacks or cannot fill", () => {
    expect(renderKey("{metadata.customer}", job)).toEqual({
      refusal: "{metadata.customer}: the job's metadata has no customer",
    });
    expect(renderKey("{metadata.c}", { ...job, metadata: { c: { nested: 1 } } })).toEqual({
      refusal: "{metadata.c}: the job's metadata c is not a string, number or boolean",
    });
  });

  it("never lets a value add a folder, and refuses a value that makes a dot segment", () => {
    expect(renderKey("x/{metadata.p}.{ext}", { ...job, metadata: { p: "../../etc/passwd" } })).toEqual({
      key: "x/.._.._etc_passwd.mp4",
    });
    expect(renderKey("x/{metadata.p}/y", { ...job, metadata: { p: ".." } })).toEqual({
      refusal: "must not have an empty, . or .. segment (no //, no trailing /, no ./ or ../)",
    });
  });

  it("gives every key it makes from any metadata the same shape: relative, no dot segment, bounded", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "binary", maxLength: 300 }),
        fc.string({ maxLength: 40 }),
        (value, lit) => {
          const template = `${lit.replace(/[{}]/g, "")}{metadata.v}/{jobId}.{ext}`;
          const result = renderKey(template, { ...job, metadata: { v: value } });
          if ("refusal" in result) return;
          const { key } = result;
          expect(key.startsWith("/")).toBe(false);
          expect(key.split("/").every((s) => s !== "" && s !== "." && s !== "..")).toBe(true);
          // oxlint-disable-next-line no-control-regex -- what must not be there
          expect(/[\u0000-\u001f\u007f\\]/.test(key)).toBe(false);
          expect(new TextEncoder().encode(key).byteLength).toBeLessThanOrEqual(MAX_KEY_BYTES);
          // The value adds no folder: the key has the template's own slashes only.
          expect(key.split("/").length).toBe(template.split("/").length);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("puts the job's other files beside its output", () => {
    expect(siblingKey("renders/job_abc.mp4", "mp4", ".poster.png")).toBe("renders/job_abc.poster.png");
    expect(siblingKey("renders/job_abc", "mp4", ".captions.vtt")).toBe("renders/job_abc.captions.vtt");
  });
});
