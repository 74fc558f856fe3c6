/**
 * The mrs CLI (client/src/cli.ts on the typed client) against the service `npm start` runs: a job file naming a
 * local photo is rendered end to end (upload, create, progress from the event stream, download), an invalid one
 * is refused with its field, and a wrong key fails cleanly.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { decodeImage, distance, pngSize } from "./pixels.ts";

const base = inject("baseUrl");
const key = inject("apiKey");
const root = process.cwd();

/** Runs the CLI the way `npm run cli -- ...` does: in the project's folder, with the caller's folder in INIT_CWD. */
const mrs = (args: string[], cwd: string, apiKey = key) =>
  spawnSync(process.execPath, [join(root, "client", "src", "cli.ts"), ...args], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, INIT_CWD: cwd, MRS_API_URL: base, MRS_API_KEY: apiKey },
    timeout: 60_000,
  });

describe("mrs CLI", () => {
  it("renders a job file with a local photo and downloads the output", () => {
    const dir = mkdtempSync(join(tmpdir(), "mrs-cli-"));
    copyFileSync(join(root, "..", "shared", "fixtures", "emoji.png"), join(dir, "emoji.png"));
    const job = {
      type: "image",
      config: {
        width: 400,
        height: 200,
        backgroundColor: "#0000ff",
        layers: [{ type: "image", path: "emoji.png", x: 0, y: 0, width: 200, height: 200 }],
      },
    };
    writeFileSync(join(dir, "card.json"), JSON.stringify(job));
    const r = mrs(["render", "card.json", "--out", "card.png"], dir);
    expect(r.stderr).toContain("uploading emoji.png");
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain("100% COMPLETED");
    const png = new Uint8Array(readFileSync(join(dir, "card.png")));
    expect(pngSize(png)).toEqual({ width: 400, height: 200 });
    const px = decodeImage(png, 400, 200);
    expect(distance(px.at(300, 100), [0, 0, 255])).toBeLessThan(8);
    expect(distance(px.at(100, 100), [0, 0, 255])).toBeGreaterThan(40); // the photo, not the background
  });

  it("validates: exit 1 with the field for an invalid job, 0 for a valid one", () => {
    const dir = mkdtempSync(join(tmpdir(), "mrs-cli-"));
    writeFileSync(
      join(dir, "bad.json"),
      JSON.stringify({ type: "image", config: { width: 0, height: 10, layers: [] } }),
    );
    const bad = mrs(["validate", "bad.json"], dir);
    expect(bad.status).toBe(1);
    expect(JSON.parse(bad.stdout)).toMatchObject({
      isValid: false,
      errors: expect.arrayContaining([expect.objectContaining({ field: "config.width" })]),
    });
    writeFileSync(
      join(dir, "good.json"),
      JSON.stringify({
        type: "image",
        config: { width: 10, height: 10, layers: [{ type: "text", text: "x" }] },
      }),
    );
    expect(mrs(["validate", "good.json"], dir).status).toBe(0);
  });

  it("renders a saved template by id with variables and metadata, and lists the templates and batches", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mrs-cli-"));
    const template = {
      name: `cli card ${Date.now()}`,
      type: "image",
      config: {
        width: 200,
        height: 100,
        backgroundColor: "{{bg}}",
        layers: [
          { type: "text", text: "{{title}}", x: 4, y: 4 },
          {
            type: "rectangle",
            x: 0,
            y: 0,
            width: 100,
            height: 100,
            fill: "#ff0000",
            when: { var: "badge", equals: "sale" },
          },
        ],
      },
      variables: [{ name: "bg", type: "colour", default: "#0000ff" }],
    };
    const res = await fetch(`${base}/api/v2/templates`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": key },
      body: JSON.stringify(template),
    });
    expect(res.status).toBe(201);
    const { id } = ((await res.json()) as { data: { id: string } }).data;
    writeFileSync(join(dir, "vars.json"), JSON.stringify({ title: "Hi" }));
    const r = mrs(
      [
        "templates",
        "render",
        id,
        "--vars",
        "vars.json",
        "--var",
        "badge=sale",
        "--metadata",
        '{"sku":"A-1"}',
        "--out",
        "card",
      ],
      dir,
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain("100% COMPLETED");
    const png = new Uint8Array(readFileSync(join(dir, "card.png")));
    expect(pngSize(png)).toEqual({ width: 200, height: 100 });
    const px = decodeImage(png, 200, 100);
    expect(distance(px.at(50, 80), [255, 0, 0])).toBeLessThan(8); // the sale badge
    expect(distance(px.at(150, 80), [0, 0, 255])).toBeLessThan(8); // the default background
    const jobId = /job (job_\w+)/.exec(r.stderr)![1]!;
    const job = mrs(["jobs", "get", jobId], dir);
    expect(JSON.parse(job.stdout)).toMatchObject({ metadata: { sku: "A-1" } });
    // Without the badge, and without waiting: the created job, printed.
    const quick = mrs(["templates", "render", id, "--var", "title=Bye", "--no-wait"], dir);
    expect(quick.status, quick.stderr).toBe(0);
    expect(JSON.parse(quick.stdout)).toMatchObject({ status: "PENDING", type: "IMAGE" });
    const listed = JSON.parse(mrs(["templates", "list"], dir).stdout) as { templates: { id: string }[] };
    expect(listed.templates.map((t) => t.id)).toContain(id);
    expect(JSON.parse(mrs(["batches", "list", "--template", id], dir).stdout)).toMatchObject({ batches: [] });
    // A missing variable: the API's field error; a malformed --var or --metadata: usage, exit 2.
    const missing = mrs(["templates", "render", id, "--no-wait"], dir);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain("variables.title: title is required");
    expect(mrs(["templates", "render", id, "--var", "title"], dir).status).toBe(2);
    expect(mrs(["templates", "render", id, "--var", "title=x", "--metadata", "{nope"], dir).status).toBe(2);
    // The callbacks secret.
    expect(JSON.parse(mrs(["callbacks"], dir).stdout).secret).toMatch(/^whsec_/);
  });

  it("fails cleanly with the API's message for a wrong key, and shows usage without a command", () => {
    const wrong = mrs(["jobs", "list"], tmpdir(), "mrk_wrong");
    expect(wrong.status).toBe(1);
    expect(wrong.stderr).toBe("error 401: Unauthorized\n");
    const usage = mrs([], tmpdir());
    expect(usage.status).toBe(2);
    expect(usage.stdout).toContain("usage: mrs render");
    const listed = mrs(["jobs", "list"], tmpdir());
    expect(listed.status).toBe(0);
    expect(JSON.parse(listed.stdout).pagination).toBeDefined();
  });
});
