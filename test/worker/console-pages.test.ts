/**
 * The web front end as the Worker serves it (src/console/routes.ts): the console's pages answer its index.html
 * with a strict Content-Security-Policy, the build's files are public and cached, and nothing else of the assets
 * folder is reachable through them (the fonts and libraries the builder's preview loads: builder.test.ts). The API's
 * own answers are unchanged.
 */
import { describe, expect, it } from "vitest";
import { contentSecurityPolicy } from "../../src/console/policy.ts";
import { call } from "./helpers.ts";

const PAGES = [
  "/",
  "/sign-in",
  "/sign-up",
  "/terms",
  "/console",
  "/console/jobs",
  "/console/jobs/job_x",
  "/console/anything/else",
];

describe("the console's pages", () => {
  it("answer the single-page app with a strict policy and no caching", async () => {
    for (const path of PAGES) {
      const res = await call(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/html/);
      expect(res.headers.get("cache-control")).toBe("no-cache");
      const policy = res.headers.get("content-security-policy")!;
      expect(policy).toContain("script-src 'self'");
      expect(policy).toContain("default-src 'none'");
      expect(policy).toContain("frame-ancestors 'none'");
      expect(policy).not.toMatch(/unsafe-inline|unsafe-eval|https?:/);
      const html = await res.text();
      expect(html).toContain('<div id="app"></div>');
      // Scripts come from files of this origin only.
      expect(html).not.toMatch(/<script(?![^>]*\ssrc="\/web\/)[^>]*>/);
    }
  });

  it("serve the build's files with long caching, and only those", async () => {
    const html = await (await call("/")).text();
    const script = /src="(\/web\/assets\/[^"]+\.js)"/.exec(html)![1]!;
    const res = await call(script);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/javascript/);
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    for (const path of [
      "/web/assets/nothing.js",
      "/web/../docs/swagger-ui.css",
      "/web/%2e%2e/docs/swagger-ui.css",
      "/web/.build-hash",
    ])
      expect((await call(path)).status, path).toBe(404);
  });

  it("leave the API's answers alone: unknown API paths and methods are still JSON 404s", async () => {
    for (const [method, path] of [
      ["GET", "/api/v1/nothing"],
      ["POST", "/"],
      ["GET", "/consoleX"],
    ] as const) {
      const res = await call(path, { method });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(await res.json()).toMatchObject({ success: false, error: "Not found" });
    }
  });

  it("allow the captcha vendor's widget only where the captcha is on", () => {
    expect(contentSecurityPolicy({ CAPTCHA_ENABLED: "false" })).toContain("frame-src 'none'");
    const on = contentSecurityPolicy({ CAPTCHA_ENABLED: "true" });
    expect(on).toContain("script-src 'self' https://hcaptcha.com https://*.hcaptcha.com");
    expect(on).toContain("frame-src https://hcaptcha.com https://*.hcaptcha.com");
  });
});
