/**
 * docs/pricing.md's worked examples, computed with the functions that price jobs. Each example (a `###` heading under
 * "## Worked examples") holds one job as `POST /api/v1/jobs` takes it (its JSON block) and a table of what it costs
 * when. Every row's figure is checked twice: its sum must add up to it ("10 + 2 × 13 = 36"), and it must be what the
 * service computes:
 * - "reserved at creation[, every stored file N s long]": the grammar (`validateJobConfig`, as creation parses the
 *   config) and, for a video, the creation's plan (`plannedVideo`, with each stored file N s long; a file whose
 *   length no row names is of unknown length, which creation refuses where it sizes a clip);
 * - "charged: completed" (an image), "charged: N s rendered[, the mix transcribed | , no audio to transcribe]",
 *   "charged: no duration reported": the completion's `finalCost` with that report, capped at the reserve as the
 *   lifecycle caps it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { validateJobConfig } from "@media-render/contract/config";
import { describe, expect, it } from "vitest";
import { finalCost } from "../../../../src/jobs/cost.ts";
import { plannedVideo } from "../../../../src/jobs/planned-length.ts";

const page = readFileSync(join(import.meta.dirname, "..", "..", "..", "..", "docs", "pricing.md"), "utf8");

interface Example {
  title: string;
  job: { type: string; config: Record<string, unknown> };
  rows: { when: string; tokens: string }[];
}

/** The examples under "## Worked examples": each `###` section's JSON block and its table's rows. */
const examples = (markdown: string): Example[] => {
  const section = markdown.split(/^## /m).find((s) => s.startsWith("Worked examples\n")) ?? "";
  return section
    .split(/^### /m)
    .slice(1)
    .map((part) => {
      const json = /```json\n([\s\S]*?)```/.exec(part)?.[1];
      const rows = [...part.matchAll(/^\| *(.+?) *\| *(.+?) *\|$/gm)]
        .map(([, when, tokens]) => ({ when: when!, tokens: tokens! }))
        .filter((r) => r.when !== "when" && !/^-+$/.test(r.when));
      return { title: part.split("\n")[0]!, job: json ? JSON.parse(json) : undefined, rows };
    });
};

/**
 * The figure a row states, after checking its sum: "2 + 1 × 2 = 4" adds up and gives 4; "36" gives 36. Only sums of
 * products of whole numbers are written.
 */
const stated = (tokens: string): number => {
  const [sum, figure] = tokens.includes("=") ? tokens.split("=") : [undefined, tokens];
  const value = Number(figure!.trim());
  expect(Number.isInteger(value), `"${tokens}" ends with a whole number`).toBe(true);
  if (sum !== undefined) {
    expect(sum, `"${tokens}" is a sum of products of whole numbers`).toMatch(/^[\d ×+]+$/);
    const total = sum
      .split("+")
      .map((term) => term.split("×").reduce((product, n) => product * Number(n.trim()), 1))
      .reduce((a, b) => a + b, 0);
    expect(total, `"${tokens}" adds up`).toBe(value);
  }
  return value;
};

/** What the service computes for one row of `example`. */
const computed = (example: Example, when: string): number => {
  const checked = validateJobConfig(example.job.type, example.job.config);
  if (!checked.valid) throw new Error(`${example.title}: ${JSON.stringify(checked.errors)}`);
  // The files' lengths the reserve row names hold for every row: the job's plan is made once, at creation.
  const lengths = example.rows.map((r) => /every stored file ([\d.]+) s long/.exec(r.when)?.[1]);
  const fileSeconds = Number(lengths.find((l) => l !== undefined) ?? Number.NaN);
  const reserve =
    checked.type === "video"
      ? plannedVideo(checked.config, () => (Number.isNaN(fileSeconds) ? null : fileSeconds)).estimatedTokens
      : checked.estimatedTokens;
  if (when.startsWith("reserved at creation")) return reserve;
  const job = {
    id: "job_docs",
    type: checked.type === "image" ? ("IMAGE" as const) : ("VIDEO" as const),
    config: example.job.config,
    normalizedConfig: checked.config,
    tokensReserved: reserve,
  };
  const rendered = /^charged: ([\d.]+) s rendered(, the mix transcribed|, no audio to transcribe)?$/.exec(
    when,
  );
  const cost =
    when === "charged: completed" && checked.type === "image"
      ? finalCost(job)
      : when === "charged: no duration reported"
        ? finalCost(job, null)
        : rendered
          ? finalCost(job, Number(rendered[1]), rendered[2] === ", the mix transcribed")
          : Number.NaN;
  expect(cost, `${example.title}: "${when}" is a row this test knows`).not.toBeNaN();
  // The lifecycle charges at most the reserve (lifecycle.ts).
  return Math.min(cost, reserve);
};

describe("docs/pricing.md's worked examples", () => {
  const all = examples(page);

  it("are there: each a job and a table, the first row its reserve", () => {
    expect(all.length).toBeGreaterThanOrEqual(8);
    for (const example of all) {
      expect(example.job, `${example.title}: a JSON block`).toBeDefined();
      expect(example.rows.length, `${example.title}: a table`).toBeGreaterThan(1);
      expect(example.rows[0]!.when).toMatch(/^reserved at creation/);
    }
  });

  it.each(all.map((e) => [e.title, e] as const))("%s", (_, example) => {
    for (const row of example.rows)
      expect(computed(example, row.when), `${example.title}: ${row.when}`).toBe(stated(row.tokens));
  });

  it("catches a sum that does not add up, a figure the code does not give and a row it does not know", () => {
    expect(() => stated("10 + 2 × 13 = 37")).toThrow(/adds up/);
    const [first] = examples(page);
    const wrong = { ...first!, rows: [{ when: "reserved at creation", tokens: "5" }] };
    expect(computed(wrong, "reserved at creation")).not.toBe(stated("5"));
    expect(() => computed(first!, "charged: when it feels like it")).toThrow(/a row this test knows/);
  });
});
