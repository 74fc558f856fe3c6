/**
 * Renders image configs through the real compiler and the real image browser (Browser Rendering inside
 * workerd), with the shared fixtures stored in the local R2 under fixed keys.
 */
import { env } from "cloudflare:workers";
import * as v from "valibot";
import { HostedImageConfigSchema, ImageConfigSchema } from "@media-render/contract/config";
import { compileImage } from "@media-render/image-page/compile-html";
import type { HostedFonts } from "@media-render/image-page/font-faces";
import { hostedFontKeys } from "../../../src/image-renderer/hosted-fonts.ts";
import { browserFor } from "../../../src/image-renderer/image-browser.ts";
import { keyOf } from "../../../src/storage/paths.ts";
import { fixture } from "../helpers.ts";

/** Storage URLs of the fixtures the render tests use, with natural sizes for pictures. */
export const FILES = {
  photo: {
    url: "/image/render-test/img2.jpg",
    name: "img2.jpg",
    type: "image/jpeg",
    size: { width: 4000, height: 3000 },
  },
  emoji: {
    url: "/image/render-test/emoji.png",
    name: "emoji.png",
    type: "image/png",
    size: { width: 512, height: 512 },
  },
  font: {
    url: "/font/render-test/PatuaOne-Regular.ttf",
    name: "PatuaOne-Regular.ttf",
    type: "font/ttf",
    size: undefined,
  },
} as const;

/** The name the render tests' browser object is found by (browserFor): one of the IMAGE_BROWSERS objects. */
export const RENDER_BROWSER = "render-tests";

let stored: Promise<unknown> | undefined;
const storeFixtures = () =>
  (stored ??= Promise.all(
    Object.values(FILES).map((f) =>
      env.FILES.put(keyOf(f.url), fixture(f.name), { httpMetadata: { contentType: f.type } }),
    ),
  ));

/** Validates `config` with the real schema, compiles it and screenshots it. */
export const render = (config: unknown, format: "png" | "jpeg" | "webp" = "png", quality?: number) =>
  renderWith(config, { format, quality });

/** render() with hosted catalogue fonts (loadHostedFonts) served to the page from R2. */
export const renderWith = async (
  config: unknown,
  opts: { format?: "png" | "jpeg" | "webp"; quality?: number; hosted?: HostedFonts },
) => {
  const { format = "png", quality, hosted = new Map() } = opts;
  await storeFixtures();
  // Hosted fonts are drawn only with the hosted catalogue switched on, where validation lets them pass.
  const parsed = v.parse(hosted.size ? HostedImageConfigSchema : ImageConfigSchema, config);
  const sizes = new Map(
    Object.values(FILES).flatMap((f) => (f.size ? [[f.url as string, f.size]] : [])),
  ) as Map<string, { width: number; height: number }>;
  const compiled = compileImage(parsed, sizes, hosted);
  const shot = await browserFor(env, RENDER_BROWSER).screenshot({
    html: compiled.html,
    width: parsed.width,
    height: parsed.height,
    format,
    quality,
    assetKeys: [...Object.values(FILES).map((f) => keyOf(f.url)), ...hostedFontKeys(hosted)],
    htmlLayers: compiled.htmlLayers,
    waitSeconds: compiled.waitSeconds,
    scripted: compiled.scripted,
  });
  if ("deadlineExceeded" in shot) throw new Error(shot.deadlineExceeded);
  return shot.image!;
};
