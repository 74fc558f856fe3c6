/**
 * The API docs UI in Debian's Chromium (playwright-core, as the console's tests: test/e2e/console/harness.ts, which
 * fails on a request to another host, a Content-Security-Policy violation or a script error) against the service
 * `npm start` runs: the page comes under its strict policy, every documented operation is drawn from this service
 * alone, and "Try it out" with a key works under that policy. Set UPDATE_SCREENSHOTS=1 to refresh
 * test/e2e/docs-ui.png, the picture of the page committed for a person to look at.
 */
import { copyFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openBrowser, text, type Harness } from "./console/harness.ts";

const base = inject("baseUrl");
const key = inject("apiKey");
let h: Harness;
let page: Page;

beforeAll(async () => {
  h = await openBrowser(base);
  page = h.page;
});
afterAll(() => h?.close());

describe("the docs UI", () => {
  it("comes under a strict Content-Security-Policy and draws every documented operation from this service alone", async () => {
    const violations: string[] = [];
    await page.exposeFunction("policyViolated", (v: string) => violations.push(v));
    await page.addInitScript(() =>
      document.addEventListener("securitypolicyviolation", (e) =>
        (window as unknown as { policyViolated: (v: string) => void }).policyViolated(
          `${e.effectiveDirective} ${e.blockedURI}`,
        ),
      ),
    );
    const res = (await page.goto(`${base}/api/v1/user-api/docs/ui`))!;
    const policy = res.headers()["content-security-policy"] ?? "";
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    await page.waitForFunction(() => document.querySelectorAll(".opblock").length > 30, null, {
      timeout: 30_000,
    });
    const summaries = await page.$$eval(".opblock-summary-path", (els) => els.map((e) => e.textContent));
    expect(summaries).toContain("/api/v1/jobs/{jobId}/events");
    // Swagger UI's own styles applied (the stylesheet came through the policy): the operations are laid out.
    expect(
      await page
        .locator(".opblock-summary-method")
        .first()
        .evaluate((e) => getComputedStyle(e).minWidth),
    ).toBe("80px");
    expect(violations).toEqual([]);
    expect(await h.problems()).toEqual([]);
    const shot = join(mkdtempSync(join(tmpdir(), "mrs-docs-shot-")), "docs.png");
    await page.screenshot({ path: shot });
    if (process.env.UPDATE_SCREENSHOTS) copyFileSync(shot, join(process.cwd(), "test", "e2e", "docs-ui.png"));
  });

  it("sends a request with a key from 'Try it out' and shows the answer, under the same policy", async () => {
    await page.getByRole("button", { name: "Authorize" }).first().click();
    const dialog = page.locator(".modal-ux");
    // The innermost block headed by the apiKey scheme (x-api-key) holds its value's field.
    const keyBlock = dialog
      .locator("div")
      .filter({ has: page.locator("h4 > code", { hasText: /^apiKey$/ }) })
      .last();
    await keyBlock.locator("input").fill(key);
    await dialog.getByRole("button", { name: "Apply credentials" }).first().click();
    // Applied: the key's field is gone from its block (it shows as ******).
    await expect.poll(() => keyBlock.locator("input").count()).toBe(0);
    await dialog.getByRole("button", { name: "Close" }).first().click();
    const operation = page.locator(".opblock").filter({
      has: page.locator(".opblock-summary-path", { hasText: /^\/api\/v1\/account$/ }),
    });
    await operation.first().locator(".opblock-summary").click();
    await operation.first().getByRole("button", { name: "Try it out" }).click();
    const answered = page.waitForResponse((r) => r.url() === `${base}/api/v1/account`);
    await operation.first().getByRole("button", { name: "Execute" }).click();
    expect((await answered).status()).toBe(200);
    await expect
      .poll(() => text(operation.first().locator(".live-responses-table tbody .response-col_status")))
      .toMatch(/^\s*200/);
    expect(
      await text(operation.first().locator(".live-responses-table tbody .microlight").first()),
    ).toContain('"success": true');
    expect(await h.problems()).toEqual([]);
  });
});
