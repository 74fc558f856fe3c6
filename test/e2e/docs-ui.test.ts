/**
 * The API docs UI in a real headless Chromium (Debian's, through puppeteer-core) against the service `npm start`
 * runs: every documented operation drawn from this service alone. Set UPDATE_SCREENSHOTS=1 to refresh
 * test/e2e/docs-ui.png, the picture of the page committed for a person to look at.
 */
import { copyFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import puppeteer, { type Browser } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

const base = inject("baseUrl");
let browser: Browser;

beforeAll(async () => {
  browser = await puppeteer.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless=new", ...(process.getuid?.() === 0 ? ["--no-sandbox"] : [])],
    userDataDir: mkdtempSync(join(tmpdir(), "mrs-docs-")),
  });
});
afterAll(() => browser?.close());

describe("the docs UI", () => {
  it("renders every documented operation from this service alone (no CDN)", async () => {
    const docs = await browser.newPage();
    const outside: string[] = [];
    docs.on("request", (r) => {
      if (!r.url().startsWith(base) && !r.url().startsWith("data:")) outside.push(r.url());
    });
    await docs.goto(`${base}/api/v1/user-api/docs/ui`);
    await docs.waitForFunction(() => document.querySelectorAll(".opblock").length > 30, { timeout: 30_000 });
    const summaries = await docs.$$eval(".opblock-summary-path", (els) => els.map((e) => e.textContent));
    expect(summaries).toContain("/api/v1/jobs/{jobId}/events");
    expect(outside).toEqual([]);
    const shot = join(mkdtempSync(join(tmpdir(), "mrs-docs-shot-")), "docs.png");
    await docs.screenshot({ path: shot as `${string}.png` });
    if (process.env.UPDATE_SCREENSHOTS) copyFileSync(shot, join(process.cwd(), "test", "e2e", "docs-ui.png"));
  });
});
