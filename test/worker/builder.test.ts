/** /builder: the page and its files from this Worker under a policy that allows only this origin. */
import { describe, expect, it } from "vitest";
import { GALLERY } from "../../src/lib/openapi-examples.ts";
import { call } from "./helpers.ts";

describe("GET /builder", () => {
  it("serves the page, its script and style with a same-origin-only policy, and the gallery", async () => {
    const page = await call("/builder");
    expect(page.status).toBe(200);
    const policy = page.headers.get("content-security-policy")!;
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("connect-src 'self'");
    expect(policy).not.toMatch(/unsafe-inline|unsafe-eval|https?:/);
    const html = await page.text();
    for (const asset of ["/builder/app.js", "/builder/app.css"]) {
      expect(html).toContain(asset);
      const res = await call(asset);
      expect(res.status, asset).toBe(200);
      expect((await res.text()).length, asset).toBeGreaterThan(500);
    }
    expect(await (await call("/builder/examples.json")).json()).toEqual(JSON.parse(JSON.stringify(GALLERY)));
  });

  it("serves nothing else from the assets folder", async () => {
    for (const path of ["/builder/index.html", "/builder/..%2Fdocs%2Fswagger-ui.css", "/builder/render"])
      expect((await call(path)).status, path).toBe(404);
  });
});
