/**
 * The hosted font catalogue for image jobs, offline, through its stand-in (../font-catalogue.ts): here every family
 * it knows is served with the bundled Lobster's files (a script face) under a name the bundle does not have.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { catalogFontIssue } from "@media-render/contract/fonts/catalog";
import { hostedCssKey, hostedFontSource } from "../../../src/fonts/hosted-source.ts";
import { UnprocessableMedia, UpstreamFailure } from "../../../src/lib/errors.ts";
import type { HostedFonts } from "@media-render/image-page/font-faces";
import { loadHostedFonts } from "../../../src/image-renderer/hosted-fonts.ts";
import { withDns } from "../fake-internet.ts";
import { fontCatalogue, lobsterAs } from "../font-catalogue.ts";
import { renderWith } from "./harness.ts";
import { decode } from "./pixels.ts";

const lobster = (subset: string) => lobsterAs("x").file(subset === "latin-ext" ? "ext" : "latin", 400);

/** The stand-in hosted catalogue knowing `families` (name -> slug), each served with Lobster's files. */
const catalogue = (families: Record<string, string>, host?: string) =>
  fontCatalogue(
    Object.fromEntries(Object.entries(families).map(([name, slug]) => [name, lobsterAs(slug)])),
    host,
  );

const textConfig = (googleFont?: string) => ({
  width: 600,
  height: 120,
  backgroundColor: "#ffffff",
  layers: [
    {
      type: "text",
      text: "Hamburgefonstiv",
      x: 10,
      y: 20,
      fontSize: 60,
      ...(googleFont ? { googleFont } : {}),
    },
  ],
});

describe("hosted font catalogue", () => {
  it("fetches a family once, caches stylesheet and files in R2, and reads only R2 afterwards", async () => {
    const first = catalogue({ "Comic Neue": "comicneue" });
    const faces = (await first.source.faces({ family: "Comic Neue", weight: 700 }))!;
    expect(first.calls).toHaveLength(3); // the stylesheet and two subset files; the italic face is skipped
    expect(first.calls[0]).toBe("https://fonts.googleapis.com/css2?family=Comic+Neue:wght@700&display=block");
    const keys = faces.files.map((f) => f.key);
    expect(keys).toEqual([
      "fonts/files/s/comicneue/v9/700-ext.woff2",
      "fonts/files/s/comicneue/v9/700-latin.woff2",
    ]);
    expect(await (await env.FILES.get(hostedCssKey("Comic Neue", 700)))!.text()).toContain("700-latin.woff2");
    const file = new Uint8Array(await (await env.FILES.get(keys[1]!))!.arrayBuffer());
    expect(file).toEqual(await lobster("latin"));
    expect(faces.css).toContain(`src:url(https://assets.local/${keys[1]}) format("woff2")`);
    expect(faces.css).toContain("unicode-range:U+0000-00FF, U+0131, U+2000-206F");

    const second = catalogue({ "Comic Neue": "comicneue" });
    expect(await second.source.faces({ family: "Comic Neue", weight: 700 })).toEqual(faces);
    expect(second.calls).toEqual([]);
  });

  it("refuses a stylesheet that names a font outside the catalogue's font host, and caches nothing", async () => {
    const evil = catalogue({ "Fira Sans": "firasans" }, "evil.example.com");
    await expect(evil.source.faces({ family: "Fira Sans", weight: 400 })).rejects.toThrow(
      /outside https:\/\/fonts\.gstatic\.com\/: evil\.example\.com/,
    );
    await expect(evil.source.faces({ family: "Fira Sans" })).rejects.toBeInstanceOf(UnprocessableMedia);
    expect(evil.calls.every((u) => u.startsWith("https://fonts.googleapis.com/"))).toBe(true);
    expect(await env.FILES.head(hostedCssKey("Fira Sans", 400))).toBeNull();
  });

  it("fails the job with the field path when the hosted catalogue lacks the family or weight", async () => {
    const { source } = catalogue({ "Comic Neue": "comicneue" });
    expect(await source.faces({ family: "Comic Neue", weight: 300 })).toBeNull();
    await expect(loadHostedFonts(textConfig("No Such Family:700") as never, source)).rejects.toThrow(
      /^layers\[0\]\.googleFont: the hosted font catalogue has no "No Such Family:700"/,
    );
  });

  it("retries later when the catalogue is busy or down, and refuses a redirect to a private address", async () => {
    const answer = (res: Response) =>
      hostedFontSource({ bucket: env.FILES, fetcher: withDns(async () => res.clone()) });
    const busy = answer(new Response("slow down", { status: 429 }));
    await expect(busy.faces({ family: "Busy Sans" })).rejects.toBeInstanceOf(UpstreamFailure);
    const down = answer(new Response("oops", { status: 503 }));
    await expect(down.faces({ family: "Busy Sans" })).rejects.toBeInstanceOf(UpstreamFailure);
    const inward = answer(
      new Response(null, { status: 302, headers: { location: "http://10.0.0.1/x.css" } }),
    );
    await expect(inward.faces({ family: "Busy Sans" })).rejects.toBeInstanceOf(UnprocessableMedia);
  });

  it("asks the hosted catalogue only for fonts the bundle lacks", async () => {
    const { calls, source } = catalogue({});
    const fonts = await loadHostedFonts(textConfig("Lobster") as never, source);
    expect(fonts.size).toBe(0);
    expect(calls).toEqual([]);
  });

  it("draws text in the hosted font (ink box of the same glyphs as the bundled file, not the fallback)", async () => {
    const { source } = catalogue({ "Comic Neue": "comicneue" });
    const config = textConfig("Comic Neue:700");
    const hosted = await loadHostedFonts(config as never, source);
    const box = async (c: unknown, h: HostedFonts = new Map()) =>
      (await decode(await renderWith(c, { hosted: h }))).bbox([255, 255, 255, 255])!;
    const drawn = await box(config, hosted);
    const bundled = await box(textConfig("Lobster"));
    const fallback = await box(textConfig());
    // Same font bytes: the same ink box (to a pixel of anti-aliasing).
    for (const side of ["left", "top", "right", "bottom"] as const)
      expect(Math.abs(drawn[side] - bundled[side])).toBeLessThanOrEqual(1);
    expect(Math.abs(drawn.right - drawn.left - (fallback.right - fallback.left))).toBeGreaterThan(20);
  });
});

describe("catalogFont validation with the hosted catalogue switched on", () => {
  it("accepts a family the bundle lacks online, and lists the bundle offline", () => {
    expect(catalogFontIssue("Comic Neue:700", true)).toBeNull();
    expect(catalogFontIssue("Lobster:700", true)).toBeNull();
    expect(catalogFontIssue("Comic Neue:700", false)).toMatch(/available families: .*Lobster/);
    expect(catalogFontIssue("Montserrat:700", false)).toBeNull();
  });
});
