/**
 * Reads the stylesheet the hosted catalogue's CSS API answers (one `@font-face` per unicode subset, each
 * naming one woff2 file on the catalogue's font host) and writes the page's version of it. Pure. Only
 * normal-style faces of the requested weight are kept; a face whose file lives anywhere but on the font
 * host over https is refused, so a tampered or unexpected stylesheet cannot make the service fetch from
 * other hosts.
 */
import { MAX_FONT_FACES, UNICODE_RANGE_PATTERN } from "@media-render/contract/fonts/hosted";

/** One face of the hosted stylesheet. */
export interface HostedFace {
  weight: number;
  /** Absolute https URL of the woff2 file on the font host. */
  url: string;
  /** Kept only when it is a plain unicode-range (UNICODE_RANGE_PATTERN); absent, the face draws every character. */
  unicodeRange?: string;
}

const FACE = /@font-face\s*\{([^}]*)\}/g;
const prop = (block: string, name: string) =>
  new RegExp(`(?:^|[;{\\s])${name}\\s*:\\s*([^;]+)`, "i").exec(block)?.[1]?.trim();

/**
 * The faces of `css` for `weight`. Throws an Error naming the reason when a face points outside
 * `https://<fontHost>/`, when a face is not woff2, or when there are more than MAX_FONT_FACES.
 */
export const parseHostedCss = (css: string, fontHost: string, weight: number): HostedFace[] => {
  const faces: HostedFace[] = [];
  for (const [, block] of css.matchAll(FACE)) {
    const style = prop(block!, "font-style") ?? "normal";
    const faceWeight = Number(prop(block!, "font-weight") ?? "400");
    if (style !== "normal" || faceWeight !== weight) continue;
    const src = prop(block!, "src") ?? "";
    const url = /url\(\s*(['"]?)([^'")]+)\1\s*\)/.exec(src)?.[2];
    if (!url) throw new Error("a face of the hosted stylesheet has no url()");
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new Error(`a face of the hosted stylesheet has a malformed URL: ${url.slice(0, 200)}`);
    }
    if (parsed.protocol !== "https:" || parsed.hostname !== fontHost || parsed.username || parsed.port)
      throw new Error(`the hosted stylesheet names a font outside https://${fontHost}/: ${parsed.host}`);
    if (!/\.woff2$/i.test(parsed.pathname) && !/format\(\s*['"]?woff2/i.test(src))
      throw new Error(`the hosted stylesheet names a font that is not woff2: ${parsed.pathname}`);
    const range = prop(block!, "unicode-range");
    faces.push({
      weight,
      url: parsed.toString(),
      ...(range !== undefined && UNICODE_RANGE_PATTERN.test(range) ? { unicodeRange: range } : {}),
    });
    if (faces.length > MAX_FONT_FACES)
      throw new Error(`the hosted stylesheet has more than ${MAX_FONT_FACES} faces`);
  }
  return faces;
};

/** R2 key of a font file of the hosted catalogue: its URL path under `fonts/files/` (URLs are versioned). */
export const hostedFileKey = (url: string): string => {
  const path = new URL(url).pathname.replace(/[^A-Za-z0-9._/-]/g, "_").replace(/\/+/g, "/");
  return `fonts/files${path.startsWith("/") ? "" : "/"}${path}`;
};

/** `@font-face` rules for the page: family `name`, files at `urlOf(key)`. */
export const pageCss = (faces: HostedFace[], name: string, urlOf: (key: string) => string): string =>
  faces
    .map(
      (face) =>
        `@font-face{font-family:"${name}";font-style:normal;font-weight:${face.weight};font-display:block;` +
        `src:url(${urlOf(hostedFileKey(face.url))}) format("woff2")` +
        (face.unicodeRange && UNICODE_RANGE_PATTERN.test(face.unicodeRange)
          ? `;unicode-range:${face.unicodeRange}}`
          : "}"),
    )
    .join("\n");
