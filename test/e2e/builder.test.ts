/**
 * The builder page in a real headless Chromium (Debian's, through puppeteer-core) against the service `npm start`
 * runs: completion from the schema, a field error from live validation, an image render that appears, a video
 * preview whose progress reaches 100 %. Set UPDATE_SCREENSHOTS=1 to refresh test/e2e/builder.png, the picture of
 * the finished page committed for a person to look at.
 */
import { copyFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

const base = inject("baseUrl");
const key = inject("apiKey");
let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await puppeteer.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless=new", ...(process.getuid?.() === 0 ? ["--no-sandbox"] : [])],
    userDataDir: mkdtempSync(join(tmpdir(), "mrs-builder-")),
  });
  page = await browser.newPage();
  await page.setViewport({ width: 1400, height: 800 });
  await page.goto(`${base}/builder`);
  await page.type("#key", key);
});
afterAll(() => browser?.close());

const setConfig = async (config: unknown) => {
  await page.$eval(
    "#config",
    (el, value) => {
      (el as HTMLTextAreaElement).value = value;
      el.dispatchEvent(new Event("input"));
    },
    JSON.stringify(config, null, 2),
  );
};

const textOf = (selector: string) => page.$eval(selector, (el) => el.textContent ?? "");

describe("the builder page", () => {
  it("loads the gallery, validates the first example, and completes property names from the schema", async () => {
    await page.waitForSelector("#gallery button");
    await page.waitForFunction(() => document.querySelector("#estimate")?.textContent?.startsWith("Valid"));
    // Cursor inside the text layer: its own properties are offered, not the rectangle's.
    const offset = await page.$eval("#config", (el) =>
      (el as HTMLTextAreaElement).value.indexOf('"text": "Hello"'),
    );
    await page.$eval("#config", (el, at) => (el as HTMLTextAreaElement).setSelectionRange(at, at), offset);
    await page.click("#config");
    await page.$eval(
      "#config",
      (el, at) => {
        (el as HTMLTextAreaElement).setSelectionRange(at, at);
        el.dispatchEvent(new KeyboardEvent("keyup"));
      },
      offset,
    );
    const hints = await page.$$eval("#hints button", (bs) => bs.map((b) => b.textContent));
    expect(hints).toEqual(expect.arrayContaining(["fontSize", "lineHeight", "wrap"]));
    expect(hints).not.toContain("borderRadius");
  });

  it("shows the field error of an invalid config", async () => {
    await setConfig({ width: 0, height: 10, layers: [] });
    await page.waitForFunction(() =>
      document.querySelector("#errors")?.textContent?.includes("config.width"),
    );
    expect(await textOf("#errors")).toMatch(/config\.width: .+/);
  });

  it("renders an image and shows it", async () => {
    await page.click("#gallery button:nth-child(1)");
    await page.waitForFunction(() => document.querySelector("#estimate")?.textContent?.startsWith("Valid"));
    await page.click("#render");
    await page.waitForFunction(
      () => (document.querySelector("#rendered") as HTMLImageElement | null)?.naturalWidth === 640,
      { timeout: 45_000 },
    );
    expect(await textOf("#status")).toMatch(/^COMPLETED 100%/);
  });

  it("renders a fast video preview and follows its progress to 100 %", async () => {
    await page.click("#gallery button:nth-child(3)");
    await page.waitForFunction(
      () => (document.querySelector("#type") as HTMLSelectElement).value === "video",
    );
    // Every status line the page shows, recorded in the page as it changes.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { seen: string[] }).seen = seen;
      const status = document.querySelector("#status")!;
      new MutationObserver(() => seen.push(status.textContent ?? "")).observe(status, {
        childList: true,
        characterData: true,
        subtree: true,
      });
    });
    await page.click("#render");
    // This job's own status lines: the status still shows the image test's "COMPLETED 100%" until the page
    // has posted this job (then it shows PENDING with an empty bar).
    await page.waitForFunction(
      () => (window as unknown as { seen: string[] }).seen.at(-1)?.startsWith("COMPLETED 100%"),
      {
        timeout: 60_000,
      },
    );
    expect(await page.$eval("#bar", (el) => (el as HTMLElement).style.width)).toBe("100%");
    await page.waitForFunction(
      () => ((document.querySelector("#rendered") as HTMLVideoElement | null)?.videoWidth ?? 0) > 0,
    );
    const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen);
    expect(seen[0]).toMatch(/^PENDING · job job_/);
    expect(seen.at(-1)).toMatch(/^COMPLETED 100% · \d+ tokens$/);
    const shot = join(mkdtempSync(join(tmpdir(), "mrs-builder-shot-")), "builder.png");
    await page.screenshot({ path: shot as `${string}.png` });
    if (process.env.UPDATE_SCREENSHOTS) copyFileSync(shot, join(process.cwd(), "test", "e2e", "builder.png"));
  });
});

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
