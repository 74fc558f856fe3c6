/**
 * The hosted font catalogue (Google Fonts' CSS API by default) as a FontSource, cached in R2.
 *
 * First use of a family/weight: GET `<cssApi>?family=Family:wght@700` with a current browser User-Agent
 * (the API answers woff2 only to browsers it knows), keep the normal faces of that weight, download each
 * woff2 from the font host, store them at `fonts/files/<url path>` and then the stylesheet at
 * `fonts/css/<family>/<weight>.css` (last, so a cached stylesheet means its files are there). Every later
 * render reads the stylesheet from R2 and the image browser serves the files from R2: no network again.
 * All fetches go through the SSRF guard (safeFetch) with size and time bounds, and files only come from the
 * font host (hosted-css.ts).
 */
import { NotFound, UnprocessableMedia, UpstreamFailure, ValidationFailed } from "../lib/errors.ts";
import { DOH_ENDPOINT } from "../net/resolve.ts";
import { readBody, safeFetch } from "../net/safe-fetch.ts";
import { assetUrl } from "@media-render/image-page/page-origins";
import { hostedFileKey, parseHostedCss, pageCss } from "./hosted-css.ts";
import type { FontFaces, FontRequest } from "@media-render/image-page/font-faces";
import { familySlug, type FontSource } from "./source.ts";

export interface HostedSourceOptions {
  bucket: R2Bucket;
  /** Transport (tests pass a stand-in); default the global fetch. */
  fetcher?: (request: Request) => Promise<Response>;
  cssApi?: string;
  fontHost?: string;
}

export const HOSTED_CSS_API = "https://fonts.googleapis.com/css2";
export const HOSTED_FONT_HOST = "fonts.gstatic.com";
/** The CSS API picks the font format by User-Agent: a current Chrome gets woff2. */
const USER_AGENT =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36";
const CSS_MAX_BYTES = 512 * 1024;
const FILE_MAX_BYTES = 4 * 1024 * 1024;
const TIMEOUT_MS = 10_000;
/** Parallel file downloads of one family. */
const PARALLEL = 6;

export const hostedCssKey = (family: string, weight: number) =>
  `fonts/css/${familySlug(family)}/${weight}.css`;

/** Page family name of a hosted font (never a local() system font of the same name). */
const faceName = (family: string) => `hf-${familySlug(family)}`;

export const hostedFontSource = (opts: HostedSourceOptions): FontSource => {
  const cssApi = opts.cssApi ?? HOSTED_CSS_API;
  const fontHost = opts.fontHost ?? HOSTED_FONT_HOST;
  const send = opts.fetcher ?? ((r: Request) => fetch(r));

  /** GETs `url` through the guard: the body, or null when the catalogue answers 4xx (it lacks the thing). */
  const get = async (url: string, maxBytes: number): Promise<Uint8Array | null> => {
    let status = 0;
    const fetcher = async (request: Request) => {
      // The guard's DNS-over-HTTPS lookups go out as they are; only the catalogue's own answers count here.
      if (request.url.startsWith(`${DOH_ENDPOINT}?`)) return send(request);
      const headers = new Headers(request.headers);
      headers.set("user-agent", USER_AGENT);
      const res = await send(new Request(request, { headers }));
      status = res.status;
      return res;
    };
    try {
      return await readBody(await safeFetch(url, { maxBytes, timeoutMs: TIMEOUT_MS, fetcher }));
    } catch (e) {
      // 4xx but 408/429 (busy, try later): the catalogue does not have it.
      if (e instanceof NotFound || (status >= 400 && status < 500 && status !== 408 && status !== 429))
        return null;
      // Too large, a web page instead of a font, or a redirect the SSRF guard refused: a retry will not help.
      if (e instanceof UnprocessableMedia && status >= 200 && status < 300) throw e;
      if (e instanceof ValidationFailed)
        throw new UnprocessableMedia(`The hosted font catalogue sent us to a refused address: ${e.message}`);
      throw new UpstreamFailure(`The hosted font catalogue did not answer: ${(e as Error).message}`);
    }
  };

  const download = async (urls: string[]) => {
    for (let i = 0; i < urls.length; i += PARALLEL)
      await Promise.all(
        urls.slice(i, i + PARALLEL).map(async (url) => {
          const key = hostedFileKey(url);
          if (await opts.bucket.head(key)) return;
          const bytes = await get(url, FILE_MAX_BYTES);
          if (!bytes) throw new UnprocessableMedia(`The hosted font catalogue has no file ${url}`);
          if (String.fromCharCode(...bytes.subarray(0, 4)) !== "wOF2")
            throw new UnprocessableMedia(`The hosted font catalogue sent a file that is not woff2 (${url})`);
          await opts.bucket.put(key, bytes, { httpMetadata: { contentType: "font/woff2" } });
        }),
      );
  };

  const fetchCss = async (family: string, weight: number, explicit: boolean) => {
    const spec = encodeURIComponent(family).replace(/%20/g, "+") + (explicit ? `:wght@${weight}` : "");
    const body = await get(`${cssApi}?family=${spec}&display=block`, CSS_MAX_BYTES);
    return body && new TextDecoder().decode(body);
  };

  return {
    async faces(request: FontRequest): Promise<FontFaces | null> {
      const weight = request.weight ?? 400;
      const key = hostedCssKey(request.family, weight);
      const cached = await opts.bucket.get(key);
      let css = cached ? await cached.text() : null;
      const fresh = css === null;
      if (css === null) css = await fetchCss(request.family, weight, request.weight !== undefined);
      if (css === null) return null;
      let faces;
      try {
        faces = parseHostedCss(css, fontHost, weight);
      } catch (e) {
        throw new UnprocessableMedia(`Font "${request.family}" refused: ${(e as Error).message}`);
      }
      if (!faces.length) return null;
      if (fresh) {
        await download(faces.map((f) => f.url));
        await opts.bucket.put(key, css, { httpMetadata: { contentType: "text/css" } });
      }
      const toUrl = (fileKey: string) => assetUrl(`/${fileKey}`);
      return {
        name: faceName(request.family),
        weight,
        css: pageCss(faces, faceName(request.family), toUrl),
        files: faces.map((face) => ({
          key: hostedFileKey(face.url),
          ...(face.unicodeRange === undefined ? {} : { unicodeRange: face.unicodeRange }),
        })),
      };
    },
  };
};
