/** Pure parts of html layers: the document (policy and clock first) and the libraries it loads. */
import { describe, expect, it } from "vitest";
import { libraryNames, librarySource, stripLibraryImports } from "../../../../src/video/html/libraries.ts";
import { injectHead } from "@media-render/contract/html-sandbox";
import { htmlLayerDocument, PAGE_POLICY } from "../../../../src/video/html/page.ts";

describe("html layer document", () => {
  it("puts the policy, then the clock, before any markup of the user", () => {
    const doc = htmlLayerDocument(
      { type: "html", html: "<html><head><script>x()</script></head><body>hi</body></html>" },
      0,
    );
    const policy = doc.indexOf("Content-Security-Policy");
    const clock = doc.indexOf("__mrsAdvance");
    expect(doc.startsWith("<!doctype html>")).toBe(true);
    expect(policy).toBeGreaterThan(0);
    expect(clock).toBeGreaterThan(policy);
    expect(doc.indexOf("x()")).toBeGreaterThan(clock);
    expect(PAGE_POLICY).toContain("connect-src 'none'");
    expect(PAGE_POLICY).toContain("default-src 'none'");
  });

  it("injects after <head>, <html>, the doctype, or in front", () => {
    expect(injectHead("<head><title>t</title></head>", "X")).toBe("<head>X<title>t</title></head>");
    expect(injectHead("<!DOCTYPE html><p>a</p>", "X")).toBe("<!DOCTYPE html>X<p>a</p>");
    expect(injectHead("<p>a</p>", "X")).toBe("X<p>a</p>");
  });

  it("loads the eight libraries (Tailwind first) only when asked, from our own origin", () => {
    expect(libraryNames({})).toEqual([]);
    expect(libraryNames({ tailwindcss: true })).toEqual(["tailwind"]);
    expect(libraryNames({ enableLibraries: true })).toEqual([
      "tailwind",
      "gsap",
      "lottie",
      "chart",
      "motion",
      "anime",
      "d3",
      "lucide",
    ]);
    const doc = htmlLayerDocument({ type: "html", html: "", enableLibraries: true }, 0);
    expect(doc).toContain('<script src="https://html-layer.local/lib/gsap.js"></script>');
  });

  it("strips CDN imports of preloaded libraries and keeps other scripts", () => {
    const html =
      '<script src="https://cdn.jsdelivr.net/npm/gsap@3.12/dist/gsap.min.js"></script>' +
      '<script src="https://unpkg.com/lottie-web/build/player/lottie.min.js"></script>' +
      '<script src="https://example.com/mine.js"></script>';
    const out = stripLibraryImports(html, { enableLibraries: true });
    expect(out).toBe('<script src="https://example.com/mine.js"></script>');
    expect(stripLibraryImports(html, {})).toBe(html);
  });

  it("reads every library from the renderer's npm dependencies", async () => {
    for (const name of libraryNames({ enableLibraries: true })) {
      expect((await librarySource(name)).length).toBeGreaterThan(10_000);
    }
  });
});
