/**
 * The console, as a new user meets it, in Debian's Chromium against the service `npm start` runs: the landing
 * page, sign-up through the dev outbox (consent errors at their fields first), the session cookie's flags, API
 * keys, the profile and an address change, billing through the local checkout stand-in; then the security of
 * the cookie: CSRF (a cross-site form post, missing and wrong tokens, a foreign Origin), another account's
 * resources answering 404 through the console's own calls, and sign-out revoking the session on the server.
 * Every page is audited (axe, both sizes, screenshots: test/e2e/console/harness.ts).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { contentSecurityPolicy } from "../../src/console/policy.ts";
import { audit, codeFromOutbox, openBrowser, sessionCookie, text, type Harness } from "./console/harness.ts";

const base = inject("baseUrl");
const TINY = {
  width: 32,
  height: 32,
  layers: [{ type: "rectangle", x: 0, y: 0, width: 8, height: 8, fill: "#000" }],
};
const otherKey = inject("apiKey");
const email = `console-${Date.now()}@example.com`;
let h: Harness;
let page: Page;

beforeAll(async () => {
  h = await openBrowser(base);
  page = h.page;
});
afterAll(async () => {
  await h?.close();
});

/** A request as another program would send it, with the browser's session cookie. */
const withCookie = async (
  path: string,
  init: RequestInit & { origin?: string | null; csrf?: string } = {},
) => {
  const cookie = await sessionCookie(h.context);
  const headers = new Headers(init.headers);
  headers.set("cookie", `${cookie.name}=${cookie.value}`);
  if (init.origin !== null) headers.set("origin", init.origin ?? base);
  if (init.csrf !== undefined) headers.set("x-csrf-token", init.csrf);
  return fetch(`${base}${path}`, { ...init, headers });
};

/** What the console's own session answer holds (the CSRF token its calls send). */
const consoleSession = () =>
  page.evaluate(
    async () => (await (await fetch("/api/v1/auth/session")).json()).data as { csrfToken: string },
  );

describe("the console for a new user", () => {
  it("starts with a landing page: what the service is, a rendered example, the ways in", async () => {
    await page.goto(base);
    await expect
      .poll(() => page.locator(".example img").evaluate((img: HTMLImageElement) => img.naturalWidth))
      .toBe(1200);
    await expect
      .poll(() => text(page.getByRole("heading", { level: 1 })))
      .toMatch(/JSON in, images and videos out/);
    for (const [name, href] of [
      ["Sign up free", "/sign-up"],
      ["Sign in", "/sign-in"],
      ["Try the builder", "/builder"],
      ["API docs", "/api/v1/user-api/docs/ui"],
    ])
      expect(await page.getByRole("link", { name, exact: true }).first().getAttribute("href")).toBe(href);
    await audit(page, "landing");
    // A console page while signed out leads to sign-in, and back after it.
    await page.goto(`${base}/console/keys`);
    await page.waitForURL(`${base}/sign-in?next=%2Fconsole%2Fkeys`);
  });

  it("signs up with the e-mailed code, consent errors shown at their field first", async () => {
    await page.goto(`${base}/sign-up`);
    await page.getByLabel("E-mail address").fill(email);
    await page.getByLabel("Name (optional)").fill("Ada Console");
    await audit(page, "sign-up");
    await page.getByRole("button", { name: "E-mail me a code" }).click();
    // The terms are required: the service's message appears in the consent group, and nothing was sent.
    await expect
      .poll(() => text(page.locator("fieldset .field-error")))
      .toMatch("consent.termsAccepted must be true");
    await page
      .getByRole("checkbox", { name: /I accept the terms of service \(version 2026-10-12\)/ })
      .check();
    const asked = Date.now() - 1000;
    await page.getByRole("button", { name: "E-mail me a code" }).click();
    await expect
      .poll(() => page.getByRole("link", { name: "dev outbox" }).getAttribute("href"))
      .toBe(`/dev/outbox?email=${encodeURIComponent(email)}`);
    await audit(page, "sign-up-code");
    // A wrong code is refused with the service's words.
    await page.getByLabel("Code from the e-mail").fill("000000");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect.poll(() => text(page.getByRole("alert"))).toMatch("Invalid or expired code");
    await page.getByLabel("Code from the e-mail").fill(await codeFromOutbox(base, email, asked));
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL(`${base}/console`);
    await expect.poll(() => text(page.getByRole("heading", { level: 1 }))).toMatch("Welcome, Ada Console");
    await page.locator("#usage-meter").waitFor();
    await audit(page, "overview");
  });

  it("keeps the session in an HttpOnly, Secure, SameSite=Strict cookie that no script can read or store", async () => {
    const cookie = await sessionCookie(h.context);
    expect(cookie).toMatchObject({
      httpOnly: true,
      secure: true,
      sameSite: "Strict",
      path: "/",
      domain: "127.0.0.1",
    });
    expect(cookie.value).toMatch(/^mrs_/);
    // Chromium treats http://127.0.0.1 as a secure context, so the Secure cookie is kept and sent on loopback.
    expect(await page.evaluate(() => window.isSecureContext)).toBe(true);
    const stored = await page.evaluate(() => ({
      cookie: document.cookie,
      local: JSON.stringify(localStorage),
      session: JSON.stringify(sessionStorage),
    }));
    expect(stored.cookie).not.toContain("mrs_");
    expect(stored.local + stored.session).not.toContain("mrs_");
  });

  it("creates an API key with permissions, scopes and an expiry, shows the secret once, lists its last use, deletes it", async () => {
    await page.getByRole("link", { name: "API keys", exact: true }).click();
    await page.waitForURL(`${base}/console/keys`);
    // The service's rule for the name, at the name field.
    await page.getByLabel("Name", { exact: true }).fill("ab");
    await page.getByRole("button", { name: "Create key" }).click();
    await expect
      .poll(() => text(page.locator("#f-name-error")))
      .toMatch("name must be at least 3 characters");
    await expect
      .poll(() => page.getByLabel("Name", { exact: true }).getAttribute("aria-invalid"))
      .toBe("true");

    await page.getByLabel("Name", { exact: true }).fill("CI pipeline");
    await page.getByRole("radiogroup", { name: "Files (media)" }).getByLabel("read (GET)").check();
    await page.getByRole("checkbox", { name: "templates:bulk" }).check();
    const expiry = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    await page.getByLabel("Expires (optional)").fill(expiry);
    await page.getByRole("button", { name: "Create key" }).click();
    const secretBox = page.getByRole("textbox", { name: 'The key "CI pipeline":' });
    const secret = await secretBox.inputValue();
    expect(secret).toMatch(/^mrk_/);
    await page.getByRole("button", { name: "Copy", exact: true }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await audit(page, "keys");

    const row = page.getByRole("row", { name: /CI pipeline/ });
    await expect.poll(() => text(row)).toMatch("jobs:full, media:read");
    await expect.poll(() => text(row)).toMatch("templates:bulk");
    await expect.poll(() => text(row)).toMatch("never");
    // The key works, and its use shows after a reload; the secret is not shown again.
    const used = await fetch(`${base}/api/v1/jobs`, { headers: { "x-api-key": secret } });
    expect(used.status).toBe(200);
    await page.reload();
    await expect.poll(() => text(page.getByRole("row", { name: /CI pipeline/ }))).toMatch(/second|now/);
    expect(await page.getByRole("textbox", { name: /The key/ }).count()).toBe(0);

    await page
      .getByRole("row", { name: /CI pipeline/ })
      .getByRole("button", { name: "Delete" })
      .click();
    await page.getByRole("button", { name: "Yes" }).click();
    await page.getByText("No keys yet.").waitFor();
    expect((await fetch(`${base}/api/v1/jobs`, { headers: { "x-api-key": secret } })).status).toBe(401);
  });

  it("changes the name and, with a code sent to it, the e-mail address", async () => {
    await page.getByRole("link", { name: "Ada Console" }).click();
    await page.waitForURL(`${base}/console/account`);
    await page.getByLabel("Name").fill("Ada Lovelace");
    await page.getByRole("button", { name: "Save profile" }).click();
    await page.getByText("Saved.").waitFor();
    await page.getByRole("link", { name: "Ada Lovelace" }).waitFor();
    // An address that is not one: the service's message at the e-mail field.
    await page.getByLabel("E-mail address").fill("not-an-address");
    await page.getByRole("button", { name: "Save profile" }).click();
    await expect.poll(() => text(page.locator("#f-email-error"))).toMatch("email must be an e-mail address");

    const newEmail = email.replace("console-", "moved-");
    await page.getByLabel("E-mail address").fill(newEmail);
    const asked = Date.now() - 1000;
    await page.getByRole("button", { name: "Save profile" }).click();
    await page.getByText(`A code went to ${newEmail}`).waitFor();
    await audit(page, "account");
    await page.getByLabel("Code sent to the new address").fill(await codeFromOutbox(base, newEmail, asked));
    await page.getByRole("button", { name: "Confirm the new address" }).click();
    await expect.poll(() => page.getByLabel("E-mail address").inputValue()).toBe(newEmail);
    await expect.poll(() => page.getByText("A code went to").count()).toBe(0);
  });

  it("buys tokens and upgrades the plan through the local checkout stand-in, then schedules a downgrade", async () => {
    await page.getByRole("link", { name: "Billing", exact: true }).click();
    await page.waitForURL(`${base}/console/billing`);
    await page.getByText("Plan Free").waitFor();
    await page.getByLabel("Tokens to buy").fill("1500");
    await page.getByRole("button", { name: "Buy tokens" }).click();
    await expect
      .poll(() => text(page.locator("#f-tokens-error")))
      .toMatch("tokens must be a multiple of 1000");
    await audit(page, "billing");

    await page.getByLabel("Tokens to buy").fill("2000");
    await payThroughStandIn(
      () => page.getByRole("button", { name: "Buy tokens" }).click(),
      "/api/v1/billing/checkout",
    );
    await page.getByText(/Payment of \$10\.00 confirmed: 2,000 tokens added\./).waitFor();
    await expect.poll(() => text(page.locator("dl.facts").first())).toMatch(/Prepaid tokens\s*2,000/);
    await expect
      .poll(() => text(page.getByRole("region", { name: "Token ledger" })))
      .toMatch("prepaid tokens bought");

    await payThroughStandIn(
      () => page.getByRole("button", { name: "Upgrade to Pro" }).click(),
      "/api/v1/billing/plan",
    );
    await page.getByText(/confirmed: you are on the pro plan/).waitFor();
    await page.getByText("Plan Pro").waitFor();

    await page.getByRole("button", { name: "Downgrade to Free" }).click();
    await page.getByText(/The move to free is scheduled for/).waitFor();
    await page.goto(`${base}/console/billing?payment=x&checkout=cancelled`);
    await page.getByText("Checkout cancelled: nothing was charged.").waitFor();
  });
});

describe("the console's session cookie is safe", () => {
  it("refuses a state change made with the cookie but without this origin's CSRF token", async () => {
    const { csrfToken } = await consoleSession();
    const body = JSON.stringify({ name: "forged key", permissions: [{ resource: "jobs", action: "full" }] });
    const post = (init: Parameters<typeof withCookie>[1]) =>
      withCookie("/api/v1/api-keys", {
        method: "POST",
        body,
        headers: { "content-type": "application/json" },
        ...init,
      });
    const missing = await post({});
    expect(missing.status).toBe(403);
    expect(await missing.json()).toMatchObject({
      success: false,
      details: { errors: [{ field: "x-csrf-token", code: "CSRF_TOKEN_INVALID" }] },
    });
    // Another token of the same length: its last character changed, never to itself.
    const tampered = `${csrfToken.slice(0, -1)}${csrfToken.endsWith("0") ? "1" : "0"}`;
    expect((await post({ csrf: tampered })).status).toBe(403);
    const foreign = await post({ csrf: csrfToken, origin: "http://localhost:1" });
    expect(await foreign.json()).toMatchObject({ details: { errors: [{ code: "CROSS_SITE_REQUEST" }] } });
    expect((await post({ csrf: csrfToken, origin: null })).status).toBe(403);
    // Reads need no token; a token of this session from this origin makes the write go through.
    expect((await withCookie("/api/v1/api-keys")).status).toBe(200);
    const made = await post({ csrf: csrfToken });
    expect(made.status).toBe(201);
    const keys = (await (await withCookie("/api/v1/api-keys")).json()) as {
      data: { apiKeys: { id: string; name: string }[] };
    };
    expect(keys.data.apiKeys.map((k) => k.name)).toEqual(["forged key"]);
    const del = await withCookie(`/api/v1/api-keys/${keys.data.apiKeys[0]!.id}`, {
      method: "DELETE",
      csrf: csrfToken,
    });
    expect(del.status).toBe(200);
  });

  it("refuses a cross-site form post: the browser does not send the cookie, nothing changes", async () => {
    const attacker = await attackerSite(
      `<form id="f" method="post" action="${base}/api/v1/api-keys" enctype="text/plain">` +
        `<input name='{"name":"csrf key","permissions":[{"resource":"jobs","action":"full"}],"x":"' value='"}'>` +
        `</form><script>document.getElementById("f").submit()</script>`,
    );
    try {
      const tab = await h.context.newPage();
      const answered = tab.waitForResponse((r) => r.url() === `${base}/api/v1/api-keys`);
      await tab.goto(attacker.url);
      const response = await answered;
      expect(response.request().headers().cookie).toBeUndefined();
      expect(response.status()).toBe(401);
      await tab.close();
    } finally {
      await attacker.close();
    }
    const keys = (await (await withCookie("/api/v1/api-keys")).json()) as { data: { apiKeys: unknown[] } };
    expect(keys.data.apiKeys).toEqual([]);
  });

  it("answers 404 for another account's job, file, template and webhook through the console's own calls", async () => {
    const other = (path: string, init: RequestInit = {}) =>
      fetch(`${base}${path}`, { ...init, headers: { "x-api-key": otherKey, ...init.headers } });
    const json = { "content-type": "application/json" };
    const job = (await (
      await other("/api/v1/jobs", {
        method: "POST",
        headers: json,
        body: JSON.stringify({ type: "image", config: TINY }),
      })
    ).json()) as { data: { jobId: string } };
    const form = new FormData();
    form.set(
      "file",
      new File([new Uint8Array(await (await other("/web/favicon.svg")).arrayBuffer())], "m.svg"),
    );
    const file = (await (await other("/api/v1/files/upload", { method: "POST", body: form })).json()) as {
      data: { id: string };
    };
    const template = (await (
      await other("/api/v2/templates", {
        method: "POST",
        headers: json,
        body: JSON.stringify({
          name: "theirs",
          type: "image",
          config: TINY,
        }),
      })
    ).json()) as { data: { id: string } };
    const hook = (await (
      await other("/api/v2/webhooks", {
        method: "POST",
        headers: json,
        body: JSON.stringify({
          name: "theirs",
          url: "http://127.0.0.1:9/x",
          eventTypes: ["render.completed"],
        }),
      })
    ).json()) as { data: { id: string } };

    await page.goto(`${base}/console/jobs/${job.data.jobId}`);
    await expect.poll(() => text(page.getByRole("alert"))).toMatch("Job not found");
    await page.goto(`${base}/console/templates/${template.data.id}`);
    await expect.poll(() => text(page.getByRole("alert"))).toMatch("Template not found");
    const { csrfToken } = await consoleSession();
    const statuses = await page.evaluate(
      async ({ ids, csrfToken }) => {
        const send = (method: string, path: string) =>
          fetch(path, { method, headers: { "x-csrf-token": csrfToken } }).then((r) => r.status);
        return [
          await send("GET", `/api/v1/jobs/${ids.job}`),
          await send("DELETE", `/api/v1/jobs/${ids.job}`),
          await send("GET", `/api/v1/files/${ids.file}`),
          await send("GET", `/api/v1/files/${ids.file}/download`),
          await send("DELETE", `/api/v1/files/${ids.file}`),
          await send("PUT", `/api/v2/templates/${ids.template}`),
          await send("DELETE", `/api/v2/templates/${ids.template}`),
          await send("DELETE", `/api/v2/webhooks/${ids.hook}`),
          await send("GET", `/api/v2/webhooks/${ids.hook}/deliveries`),
        ];
      },
      {
        ids: { job: job.data.jobId, file: file.data.id, template: template.data.id, hook: hook.data.id },
        csrfToken,
      },
    );
    expect(statuses).toEqual(Array(9).fill(404));
    // Still there for their owner.
    expect((await other(`/api/v1/files/${file.data.id}`)).status).toBe(200);
    expect((await other(`/api/v2/templates/${template.data.id}`)).status).toBe(200);
  });

  it("signs out: the session is revoked on the server, the cookie dropped, the console asks to sign in", async () => {
    const before = await sessionCookie(h.context);
    await page.goto(`${base}/console`);
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("link", { name: "Sign in" }).first().waitFor();
    expect((await h.context.cookies()).find((c) => c.name === before.name)).toBeUndefined();
    // The old cookie, replayed by anyone who kept it, is refused.
    const replay = await fetch(`${base}/api/v1/account`, {
      headers: { cookie: `${before.name}=${before.value}` },
    });
    expect(replay.status).toBe(401);
    await page.goto(`${base}/console/billing`);
    await page.waitForURL(/\/sign-in\?next=/);
    expect(await h.problems()).toEqual([]);
  });
});

describe("the captcha widget", () => {
  it("appears where the service has the captcha on, and its token travels as hcaptchaToken", async () => {
    // The local service runs without the captcha (no internet): this browser is told it is on, with the policy a
    // production Worker sends then, and gets a stand-in of the vendor's script that solves at a click.
    const context = await h.browser.newContext();
    const tab = await context.newPage();
    await tab.route(`${base}/api/v1/auth/options`, async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { data: Record<string, unknown> };
      body.data.captcha = { provider: "hcaptcha", siteKey: "10000000-ffff-ffff-ffff-000000000001" };
      await route.fulfill({ response, json: body });
    });
    await tab.route(`${base}/sign-up`, async (route) => {
      const response = await route.fetch();
      await route.fulfill({
        response,
        headers: {
          ...response.headers(),
          "content-security-policy": contentSecurityPolicy({ CAPTCHA_ENABLED: "true" }),
        },
      });
    });
    await tab.route("https://js.hcaptcha.com/1/api.js*", (route) =>
      route.fulfill({
        contentType: "text/javascript",
        body: `window.hcaptcha = { render(box, o) { const b = document.createElement("button"); b.type = "button";
          b.textContent = "I am human (" + o.sitekey + ")"; b.onclick = () => o.callback("stub-token"); box.append(b); return "w1"; },
          reset() {} }; window.mrsCaptchaLoaded();`,
      }),
    );
    await tab.goto(`${base}/sign-up`);
    const captchaEmail = `captcha-${Date.now()}@example.com`;
    await tab.getByLabel("E-mail address").fill(captchaEmail);
    await tab.getByRole("checkbox", { name: /I accept the terms/ }).check();
    await tab.getByRole("button", { name: /I am human \(10000000-ffff/ }).click();
    const sent = tab.waitForRequest(`${base}/api/v1/auth/register`);
    await tab.getByRole("button", { name: "E-mail me a code" }).click();
    expect(JSON.parse((await sent).postData()!)).toMatchObject({
      email: captchaEmail,
      hcaptchaToken: "stub-token",
    });
    await tab.getByLabel("Code from the e-mail").waitFor();
    await context.close();
  });
});

/**
 * Starts a checkout with `start` (the console posts to `path` and follows the answer's checkoutUrl), pays on the
 * local stand-in's page, which sends the browser back to the checkout's success URL as Stripe does (the console's
 * billing page, `?payment=<id>&checkout=success`), and returns the payment's id.
 */
const payThroughStandIn = async (start: () => Promise<void>, path: string) => {
  let paymentId = "";
  // Read the console's checkout answer on its way (the page navigates away at once, to the checkout).
  await page.route(`${base}${path}`, async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as {
      data: { paymentId?: string; checkout?: { paymentId: string } };
    };
    paymentId = body.data.paymentId ?? body.data.checkout!.paymentId;
    await route.fulfill({ response });
  });
  await start();
  await page.waitForURL(/\/dev\/checkout\/cs_/);
  await page.unroute(`${base}${path}`);
  await page.getByRole("button", { name: "Pay (test mode)" }).click();
  await page.waitForURL(`${base}/console/billing?payment=${paymentId}&checkout=success`);
  return paymentId;
};

/** A page of another site (http://localhost:<port>, another site than 127.0.0.1) serving `html`. */
const attackerSite = async (html: string) => {
  const server: Server = createServer((_, res) => {
    res.setHeader("content-type", "text/html");
    res.end(`<!doctype html><title>Win a prize</title>${html}`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://localhost:${port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};
