/**
 * One warm headless Chromium for the renderer (launching costs ~0.5 s). Offline flags from the
 * team brief; every page gets request interception that only lets file: and data: URLs through,
 * so layer HTML has no network.
 */
import puppeteer, { type Browser, type Page } from "puppeteer-core";

const FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--font-render-hinting=none",
  "--hide-scrollbars",
];

let launching: Promise<Browser> | null = null;

/** Path of the browser binary: CHROMIUM_PATH, else Debian's headless shell (fastest), else chromium. */
export function chromiumPath(): string {
  return process.env.CHROMIUM_HEADLESS_PATH ?? "/usr/lib/chromium/chromium-headless-shell";
}

/** The shared browser, launched on first use and relaunched if it died. */
export async function getBrowser(): Promise<Browser> {
  if (launching) {
    const b = await launching.catch(() => null);
    if (b?.connected) return b;
  }
  launching = puppeteer.launch({
    executablePath: chromiumPath(),
    headless: "shell",
    args: FLAGS,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  return launching;
}

/** A fresh page of the given viewport with network blocked; the caller closes it. */
export async function openPage(width: number, height: number): Promise<Page> {
  const browser = await getBrowser();
  const page = await browser.newPage();
  await page.setViewport({ width, height, deviceScaleFactor: 1 });
  await page.setRequestInterception(true);
  page.on("request", (req) => {
    const url = req.url();
    if (url.startsWith("file:") || url.startsWith("data:") || url === "about:blank") void req.continue();
    else void req.abort("blockedbyclient");
  });
  return page;
}

/** Closes the shared browser (server shutdown, end of tests and benchmarks). */
export async function closeBrowser(): Promise<void> {
  const b = launching ? await launching.catch(() => null) : null;
  launching = null;
  await b?.close().catch(() => {});
}
