/**
 * The document an `html` layer renders as, for image jobs (an iframe of the image page, Browser Rendering) and
 * video jobs (a page of the renderer's Chromium) alike: the user's markup with, first in `<head>`, the page's
 * policy, the page's size (`html` and `body` as tall as the layer), a prelude that removes WebRTC and WebGL/WebGPU, the runtime's own scripts (a readiness signal, a virtual
 * clock), the libraries the layer asked for (from our own origin, never a CDN, the user's CDN imports of them
 * removed), its catalogue fonts and its `css`.
 *
 * The user's own scripts run only with `enableLibraries: true` (spec: inline scripts are allowed then). Otherwise
 * the policy admits only scripts carrying this document's nonce (ours), so markup scripts and event-handler
 * attributes stay inert. No frame may connect anywhere either way (the policy, plus the runtimes' own blocks).
 */
import { libraryNames, stripLibraryImports } from "./html-libraries.ts";

/**
 * Runs before any script of the user's: no peer connections, no GPU contexts (on a canvas or an OffscreenCanvas),
 * no WebGPU or WebNN. A page script can reach a fresh realm (a frame of its own), so where the browser can be told
 * (the renderer's Chromium, the local Browser Rendering launcher) its flags close these for good; this is what
 * remains where they cannot (Browser Rendering in production, where `evaluateOnNewDocument` runs it in every frame).
 */
export const SANDBOX_PRELUDE = `(()=>{for(const k of ["RTCPeerConnection","webkitRTCPeerConnection","RTCDataChannel"])try{delete window[k];window[k]=undefined}catch{}
for(const C of [self.HTMLCanvasElement,self.OffscreenCanvas])if(C){const g=C.prototype.getContext;C.prototype.getContext=function(t,...a){return /webgl|webgpu/i.test(String(t))?null:g.call(this,t,...a)}}
for(const k of ["gpu","ml"])try{delete Navigator.prototype[k]}catch{}})();`;

/**
 * A Content-Security-Policy that allows `origin` (libraries, fonts) and nothing else: no fetch, XHR, WebSocket,
 * workers, frames or external images. Scripts: those with `nonce` only, or (no nonce: the user's scripts may run)
 * inline code and `origin`.
 */
export const sandboxPolicy = (origin: string, nonce?: string): string =>
  [
    "default-src 'none'",
    nonce ? `script-src 'nonce-${nonce}'` : `script-src 'unsafe-inline' 'unsafe-eval' ${origin}`,
    "style-src 'unsafe-inline'",
    "img-src data: blob:",
    "media-src data: blob:",
    `font-src data: ${origin}`,
    "connect-src 'none'",
    "worker-src 'none'",
    "frame-src 'none'",
  ].join(";");

/**
 * The page's size, as a browser window of the layer's size gives it: `html` and `body` as tall as the layer
 * (the canvas, unless the layer is sized), so `height: 100%` on the page's root block fills it. Nothing
 * scrolls: a capture shows the layer's box only. Zero specificity (`:where`), so any rule of the page's own wins.
 */
export const PAGE_SIZE_CSS = ":where(html,body){height:100%}:where(html){overflow:hidden}";

/** Inserts `head` after `<head>`, `<html>` or the doctype (keeps standards mode), else in front. */
export const injectHead = (html: string, head: string): string => {
  for (const re of [/<head\b[^>]*>/i, /<html\b[^>]*>/i, /<!doctype[^>]*>/i]) {
    const match = re.exec(html);
    if (match)
      return html.slice(0, match.index + match[0].length) + head + html.slice(match.index + match[0].length);
  }
  return head + html;
};

/** The layer properties the document is built from. */
export interface SandboxLayer {
  html?: string;
  css?: string;
  enableLibraries?: boolean;
  tailwindcss?: boolean;
}

export interface SandboxOptions {
  /** URL of a library's browser build on the runtime's own origin. */
  libraryUrl: (name: string) => string;
  /** The origin libraries and fonts come from (the policy allows it). */
  origin: string;
  /** Inline scripts of the runtime, run after the prelude and before the libraries. */
  scripts?: readonly string[];
  /** `@font-face` rules of the layer's catalogue fonts. */
  fontFaces?: string;
}

/** A fresh nonce for one document (base64url of 16 random bytes). */
const newNonce = (): string =>
  btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");

/** The full html document of a layer. */
export const sandboxDocument = (layer: SandboxLayer, options: SandboxOptions): string => {
  const markup = stripLibraryImports(layer.html ?? "", layer);
  const userScripts = layer.enableLibraries === true;
  const nonce = newNonce();
  const policy = `<meta http-equiv="Content-Security-Policy" content="${sandboxPolicy(options.origin, userScripts ? undefined : nonce)}">`;
  const mark = userScripts ? "" : ` nonce="${nonce}"`;
  const scripts = [SANDBOX_PRELUDE, ...(options.scripts ?? [])]
    .map((s) => `<script${mark}>${s}</script>`)
    .join("");
  const libs = libraryNames(layer)
    .map((n) => `<script${mark} src="${options.libraryUrl(n)}"></script>`)
    .join("");
  const fonts = options.fontFaces ? `<style>${options.fontFaces}</style>` : "";
  const css = layer.css ? `<style>${layer.css.replace(/<\/style/gi, "<\\/style")}</style>` : "";
  const base = `<style>${PAGE_SIZE_CSS}</style>`;
  const doc = injectHead(markup, `<meta charset="utf-8">${policy}${base}${scripts}${libs}${fonts}${css}`);
  return /^\s*<!doctype/i.test(doc) ? doc : `<!doctype html>${doc}`;
};
