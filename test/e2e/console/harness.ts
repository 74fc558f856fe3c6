/**
 * The console in Debian's Chromium (playwright-core, no downloaded browser) against the service `npm start` runs
 * (test/e2e/global-setup.ts). One browser per test file; every page a test visits goes through `audit`: axe-core
 * finds no serious or critical violation at 1280x800 and at 390x844, and a screenshot of each size is taken when asked
 * for (into docs/console/, or the folder of docs/ a test names, with UPDATE_SCREENSHOTS=1; SCREENSHOTS_DIR=dir). The page
 * is watched all along: a request to another host, a Content-Security-Policy violation, an uncaught script error or
 * an answer of the API outside the OpenAPI document (test/e2e/contract.ts, as for the tests' own calls) fails the
 * file.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import {
  chromium,
  type Browser,
  type BrowserContext,
  type Locator,
  type Page,
  type Response as PageResponse,
} from "playwright-core";
import { expect } from "vitest";
import { checkAnswer } from "../contract.ts";

const require = createRequire(import.meta.url);
const AXE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/**
 * Where a folder's screenshots go: docs/<folder> with UPDATE_SCREENSHOTS=1, $SCREENSHOTS_DIR/<folder> to look at
 * them without touching docs/; otherwise none are taken (nothing reads them, and each costs the browser a capture).
 */
const shots = (folder: string): string | null => {
  const dir = process.env.UPDATE_SCREENSHOTS
    ? join(process.cwd(), "docs", folder)
    : process.env.SCREENSHOTS_DIR
      ? join(process.env.SCREENSHOTS_DIR, folder)
      : null;
  if (dir) mkdirSync(dir, { recursive: true });
  return dir;
};
const SHOTS = new Map<string, string | null>();

export interface Harness {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Problems seen so far: requests to other hosts, policy violations, script errors, answers outside the document. */
  problems: () => Promise<string[]>;
  close: () => Promise<void>;
}

const ARGS = [
  ...(process.getuid?.() === 0 ? ["--no-sandbox"] : []),
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-gpu",
];

/** Starts a browser on the console; `watch` lists what the page must never do. */
export const openBrowser = async (base: string): Promise<Harness> => {
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ARGS });
  const context = await browser.newContext({ viewport: DESKTOP, acceptDownloads: true });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
  const page = await context.newPage();
  const problems: string[] = [];
  const origin = new URL(base).origin;
  page.on("request", (r) => {
    const url = r.url();
    if (!/^(data|blob):/.test(url) && new URL(url).origin !== origin) problems.push(`request to ${url}`);
  });
  page.on("console", (m) => {
    if (/Content Security Policy/i.test(m.text())) problems.push(`CSP: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`script error: ${e.message}`));
  const checking = new Set<Promise<void>>();
  context.on("response", (r) => {
    const check = checkBrowserAnswer(r).catch((e: Error) => void problems.push(e.message));
    checking.add(check);
    void check.finally(() => checking.delete(check));
  });
  const settled = async () => {
    while (checking.size) await Promise.all([...checking]);
    return problems;
  };
  return { browser, context, page, problems: settled, close: () => browser.close() };
};

/**
 * Holds an answer the browser received to the OpenAPI document (the internal routes, pages and the build's files
 * are not in it and pass). An event stream is held by its status and Content-Type: its events arrive while the page
 * reads them, and test/e2e/mcp-and-events.test.ts checks them event by event. A body the browser no longer has
 * (a redirect, a request the page dropped) cannot be read and is not checked.
 */
const checkBrowserAnswer = async (r: PageResponse) => {
  const headers = r.headers();
  const status = r.status();
  let body: Uint8Array<ArrayBuffer> | null = null;
  if (!/^text\/event-stream/.test(headers["content-type"] ?? "") && ![204, 205, 304].includes(status)) {
    try {
      body = new Uint8Array(await r.body());
    } catch {
      return;
    }
  }
  await checkAnswer(r.request().method(), r.url(), new Response(body, { status, headers }));
};

/** The serious and critical axe violations of the page as it is now. */
const violations = async (page: Page) => {
  // Evaluated over DevTools, which the page's Content-Security-Policy does not govern (no inline script).
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE);
  const result = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, o: object) => Promise<any> } }).axe;
    return axe.run(document, { resultTypes: ["violations"] });
  });
  return (result.violations as { id: string; impact: string; help: string; nodes: { target: string[] }[] }[])
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
};

/**
 * Checks the page at desktop and phone size, once it has loaded (axe: no serious or critical violation) and
 * screenshots both as `<name>-desktop.png` and `<name>-phone.png` (under docs/`folder`); leaves the page at desktop
 * size.
 */
export const audit = async (page: Page, name: string, folder = "console") => {
  if (!SHOTS.has(folder)) SHOTS.set(folder, shots(folder));
  // The page as its user reads it, not its loading state ("Checking your session…" was once what got audited).
  await page.waitForFunction(() => !document.querySelector("p.loading"), undefined, { timeout: 30_000 });
  for (const [size, viewport] of [
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ] as const) {
    await page.setViewportSize(viewport);
    await page.waitForTimeout(100);
    expect(await violations(page), `${name} at ${size}`).toEqual([]);
    // Nothing may stick out sideways on a phone but the tables' own scrolling regions.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${name} at ${size}: the page is wider than the screen`).toBeLessThanOrEqual(0);
    const dir = SHOTS.get(folder);
    if (dir) await page.screenshot({ path: join(dir, `${name}-${size}.png`), fullPage: true });
  }
  await page.setViewportSize(DESKTOP);
};

/** The newest 6-digit code the dev outbox holds for `email` (the mail a sign-in or sign-up sent). */
export const codeFromOutbox = async (base: string, email: string, after = 0): Promise<string> => {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const res = await fetch(`${base}/dev/outbox?email=${encodeURIComponent(email)}`);
    const body = (await res.json()) as { data: { messages: { text: string; createdAt: string }[] } };
    const mail = body.data.messages.find((m) => Date.parse(m.createdAt) >= after && /\b\d{6}\b/.test(m.text));
    if (mail) return /\b(\d{6})\b/.exec(mail.text)![1]!;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no code in the outbox for ${email}`);
};

/** Signs `email` in through the sign-in page and the outbox; ends on the console's overview. */
export const signIn = async (page: Page, base: string, email: string) => {
  await page.goto(`${base}/sign-in`);
  await page.getByLabel("E-mail address").fill(email);
  const asked = Date.now() - 1000;
  await page.getByRole("button", { name: "E-mail me a code" }).click();
  await page.getByLabel("Code from the e-mail").fill(await codeFromOutbox(base, email, asked));
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL(`${base}/console`);
};

/** The session cookie of the browser (name, value and flags). */
export const sessionCookie = async (context: BrowserContext) => {
  const cookie = (await context.cookies()).find((c) => c.name === "__Host-mrs_session");
  if (!cookie) throw new Error("no session cookie");
  return cookie;
};

/** The visible text of the first element a locator finds ("" while there is none), for `expect.poll`. */
export const text = async (locator: Locator): Promise<string> =>
  (await locator.count()) ? ((await locator.first().textContent()) ?? "") : "";
