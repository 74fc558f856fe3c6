/**
 * The hosted font catalogue, offline: a stand-in for the CSS API and the font host answers the way
 * fonts.googleapis.com / fonts.gstatic.com do (a stylesheet of one normal face per unicode subset of the weight
 * asked for, plus an italic face to skip; 400 for a family or weight it lacks; woff2 files), through the SSRF
 * guard's stand-in DNS. It counts every request it gets. Its families serve real font files: the @fontsource
 * packages pinned in package.json (`fontsourceFamily`, read by global-setup.ts since workerd cannot read the host's
 * files), or the bundled Lobster's under another name (`lobsterAs`).
 */
import { env } from "cloudflare:workers";
import { inject } from "vitest";
import { hostedFontSource } from "../../src/fonts/hosted-source.ts";
import { withDns } from "./fake-internet.ts";

/** A family the stand-in knows: the path part of its files' URLs, its weights, its subsets' ranges and files. */
export interface StandInFamily {
  slug: string;
  weights: number[];
  /** Subset -> unicode-range, in the stylesheet's order. */
  subsets: Record<string, string>;
  file: (subset: string, weight: number) => Promise<Uint8Array>;
}

const bytes = (b64: string) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));

/** An @fontsource family (global-setup.ts provides STAND_IN_FAMILIES at weights 400 and 700): `[name, family]`. */
export const fontsourceFamily = (id: string): [string, StandInFamily] => {
  const f = inject("fontsource")[id];
  if (!f) throw new Error(`no stand-in family ${id}`);
  const file = async (subset: string, weight: number) => {
    const b64 = f.files[`${subset}-${weight}`];
    if (!b64) throw new Error(`no file ${id} ${subset} ${weight}`);
    return bytes(b64);
  };
  const weights = f.weights.filter((w) => Object.keys(f.files).some((k) => k.endsWith(`-${w}`)));
  return [f.family, { slug: id.replace(/-/g, ""), weights, subsets: f.subsets, file }];
};

/** The bundled Lobster's files (from the ASSETS binding) as family `slug`, subsets `ext` and `latin`, 400 and 700. */
export const lobsterAs = (slug: string): StandInFamily => ({
  slug,
  weights: [400, 700],
  subsets: {
    ext: "U+0100-02BA, U+02BD-02C5, U+1E00-1E9F",
    latin: "U+0000-00FF, U+0131, U+2000-206F",
  },
  file: async (subset) =>
    new Uint8Array(
      await (
        await env.ASSETS.fetch(
          `https://static.local/render/fonts/lobster/400-${subset === "ext" ? "latin-ext" : "latin"}.woff2`,
        )
      ).arrayBuffer(),
    ),
});

/** The stylesheet the CSS API answers for `family` at `weight`, its files on `host`. */
const sheet = (family: StandInFamily, weight: number, host: string) =>
  [
    `/* italic */
@font-face {
  font-family: 'X';
  font-style: italic;
  font-weight: ${weight};
  src: url(https://${host}/s/${family.slug}/v9/italic.woff2) format('woff2');
}`,
    ...Object.entries(family.subsets).map(
      ([subset, range]) => `/* ${subset} */
@font-face {
  font-family: 'X';
  font-style: normal;
  font-weight: ${weight};
  font-display: block;
  src: url(https://${host}/s/${family.slug}/v9/${weight}-${subset}.woff2) format('woff2');
  unicode-range: ${range};
}`,
    ),
  ].join("\n");

/**
 * The stand-in catalogue: knows `families` (by name); its stylesheets name files on `host` (default the real font
 * host). `source` is the hosted font source over it, caching in the test R2.
 */
export const fontCatalogue = (families: Record<string, StandInFamily>, host = "fonts.gstatic.com") => {
  const calls: string[] = [];
  const fetcher = withDns(async (r: Request) => {
    calls.push(r.url);
    const url = new URL(r.url);
    if (url.host === "fonts.googleapis.com" && url.pathname === "/css2") {
      if (!/Chrome\/\d+/.test(r.headers.get("user-agent") ?? ""))
        return new Response("ttf for you", { status: 200 });
      const [name, axis] = url.searchParams.get("family")!.split(":");
      const weight = axis ? Number(axis.replace("wght@", "")) : 400;
      const family = families[name!];
      if (!family || !family.weights.includes(weight))
        return new Response("Font family not found", { status: 400 });
      return new Response(sheet(family, weight, host), { headers: { "content-type": "text/css" } });
    }
    const file = /^\/s\/([^/]+)\/v9\/(\d+)-(.+)\.woff2$/.exec(url.pathname);
    const family = file && Object.values(families).find((f) => f.slug === file[1]);
    if (url.host === "fonts.gstatic.com" && family && family.subsets[file[3]!] !== undefined)
      return new Response(await family.file(file[3]!, Number(file[2])), {
        headers: { "content-type": "font/woff2" },
      });
    return new Response("not here", { status: 404 });
  });
  return { calls, source: hostedFontSource({ bucket: env.FILES, fetcher }) };
};
