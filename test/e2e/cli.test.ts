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
