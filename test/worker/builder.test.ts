/**
 * The builder as the Worker serves it (src/builder/routes.ts): its page under the console's policy with one frame
 * allowed, its preview page sandboxed under the image page's policy (no connection, no other host), and the bundled
 * fonts and html libraries that preview draws with, open to its opaque origin; nothing else of the assets folder.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { contentSecurityPolicy } from "../../src/console/policy.ts";
import { call } from "./helpers.ts";

const directives = (policy: string) =>
  new Map(
    policy
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...sources]) => [name!, sources.join(" ")]),
  );

describe("GET /builder", () => {
  it("answers the builder's page with the console's policy, framing only its own preview", async () => {
    const res = await call("/builder");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-cache");
    const policy = res.headers.get("content-security-policy")!;
    expect(directives(policy).get("frame-src")).toMatch(/^https?:\/\/[^/\s]+\/builder\/preview$/);
    // Everything else is the console's policy (with this deployment's settings), word for word.
    const consolePolicy = directives(contentSecurityPolicy(env));
    const others = (p: Map<string, string>) => [...p].filter(([name]) => name !== "frame-src");
    expect(others(directives(policy))).toEqual(others(consolePolicy));
    expect(policy).not.toMatch(/unsafe-inline|unsafe-eval/);
    const html = await res.text();
    expect(html).toMatch(
      /<script type="module" crossorigin src="\/web\/assets\/builder-[\w-]+\.js"><\/script>/,
    );
    expect(html).not.toMatch(/<script(?![^>]*\ssrc="\/web\/)[^>]*>/);
  });

  it("answers the preview sandboxed, with no connection and nothing from another host", async () => {
    const res = await call("/builder/preview");
    expect(res.status).toBe(200);
    const policy = directives(res.headers.get("content-security-policy")!);
    expect(policy.get("sandbox")).toBe("allow-scripts");
    expect(policy.get("default-src")).toBe("'none'");
    expect(policy.get("connect-src")).toBe("'none'");
    expect(policy.get("worker-src")).toBe("'none'");
    expect(policy.get("frame-ancestors")).toBe("'self'");
    expect(policy.get("form-action")).toBe("'none'");
    expect(policy.get("base-uri")).toBe("'none'");
    // Pictures only as blob: or data: URLs the page made; fonts and scripts from this origin alone.
    expect(policy.get("img-src")!.split(" ").sort()).toEqual(["blob:", "blob:", "data:"]);
    const self = /^https?:\/\/[^/\s]+$/;
    for (const name of ["script-src", "style-src", "font-src"]) {
      const hosts = policy
        .get(name)!
        .split(" ")
        .filter((s) => /^https?:/.test(s));
      expect(hosts, name).toHaveLength(1);
      expect(hosts[0], name).toMatch(self);
    }
    const html = await res.text();
    expect(html).toMatch(
      /<script type="module" crossorigin src="\/web\/assets\/builder-preview-[\w-]+\.js">/,
    );
  });

  it("serves the build's scripts to the preview's opaque origin (CORS)", async () => {
    const html = await (await call("/builder/preview")).text();
    const script = /src="(\/web\/assets\/[^"]+\.js)"/.exec(html)![1]!;
    const res = await call(script, { headers: { origin: "null" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });
});

describe("GET /render/*", () => {
  it("serves the catalogue's fonts and the html libraries, open to the preview", async () => {
    for (const [path, type] of [
      ["/render/fonts/inter/400-latin.woff2", /font\/woff2/],
      ["/render/fonts/poppins/700-latin-ext.woff2", /font\/woff2/],
      ["/render/lib/gsap.js", /javascript/],
    ] as const) {
      const res = await call(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("content-type"), path).toMatch(type);
      expect(res.headers.get("access-control-allow-origin"), path).toBe("*");
      expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect((await res.arrayBuffer()).byteLength, path).toBeGreaterThan(1000);
    }
  });

  it("serves nothing else: other files, other folders, traversal", async () => {
    for (const path of [
      "/render",
      "/render/",
      "/render/fonts/inter",
      "/render/fonts/inter/400-latin.woff",
      "/render/fonts/nothing/400-latin.woff2",
      "/render/lib/nothing.js",
      "/render/lib/gsap.js.map",
      "/render/fonts/%2e%2e%2f%2e%2e%2fweb%2findex.html",
      "/render/..%2fweb%2findex.html",
      "/render/docs/swagger-ui.css",
      "/render/web/index.html",
      "/builder/examples.json",
      "/builder/app.js",
    ])
      expect((await call(path)).status, path).toBe(404);
  });
});
