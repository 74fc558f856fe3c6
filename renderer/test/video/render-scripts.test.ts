/**
 * Fonts of the hosted catalogue and the world's scripts in video text, through the real renderer: a title in a
 * family the bundle lacks (the request's `fonts`, faces from @fontsource files standing in for the catalogue), and
 * right-to-left (Arabic, Hebrew), complex (Devanagari) and CJK titles and captions, each compared by its pixels with
 * Chromium's own rendering of the same text in the same font on a plain page; a glyph-by-glyph drawing of the same
 * text (no shaping, no bidi) is the control that must not match. Emoji come out in colour.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { HostedFonts } from "@media-render/contract/wire";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_RENDER_TOOLS } from "../../src/settings.ts";
import { FALLBACK_FONT_FILES } from "../../src/fonts/measure.ts";
import { run } from "../../src/lib/process.ts";
import { fetchInputs } from "../../src/video/fetch-inputs.ts";
import { closeBrowser, openPage, servePageFiles } from "../../src/video/raster/browser.ts";
import { renderVideo } from "../../src/video/render.ts";
import { fontsourceFamily, fontsourceFile } from "../../../test/fonts/fontsource.ts";
import { videoConfig } from "../helpers/video-config.ts";
import { frameAt } from "../captions/frame-pixels.ts";

const W = 640;
const H = 160;
const SIZE = 48;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "video-scripts-"));
});
afterAll(async () => {
  await closeBrowser();
  await rm(dir, { recursive: true, force: true });
});

/** A hosted font as the Worker sends it: every subset of the @fontsource family at `weight`, files by local path. */
const hostedFont = (id: string, weight: number): HostedFonts[string] => ({
  weight,
  faces: Object.entries(fontsourceFamily(id).subsets).map(([subset, unicodeRange]) => ({
    ref: fontsourceFile(id, subset, weight),
    unicodeRange,
  })),
});

/** A grey frame: one byte a pixel. */
interface Grey {
  width: number;
  height: number;
  data: Uint8Array;
}

const grey = (f: { width: number; height: number; data: Buffer }): Grey => {
  const data = new Uint8Array(f.width * f.height);
  for (let i = 0; i < data.length; i++)
    data[i] = Math.round((f.data[i * 3]! + f.data[i * 3 + 1]! + f.data[i * 3 + 2]!) / 3);
  return { width: f.width, height: f.height, data };
};

/** The references the last render downloaded (the faces of a hosted font it chose). */
let downloaded: string[] = [];

/** The frame at 0.8 s of a 1 s clip: `layer` (and captions) on black. */
const render = async (
  name: string,
  layers: Record<string, unknown>[],
  extra: { fonts?: HostedFonts; config?: Record<string, unknown> } = {},
): Promise<Grey> => {
  const outPath = join(dir, `${name}.mp4`);
  await renderVideo({
    jobId: `job_${name}`,
    workDir: await mkdtemp(join(dir, `${name}-`)),
    outPath,
    allowLocalFiles: true,
    fonts: extra.fonts,
    fetchInputs: (refs, workDir, options) => {
      downloaded = [...refs];
      return fetchInputs(refs, workDir, options);
    },
    config: videoConfig({
      width: W,
      height: H,
      fps: 10,
      clips: [{ duration: 1, layers: [{ type: "fill-color", color: "#000000" }, ...layers] }],
      ...extra.config,
    }),
  });
  return grey(await frameAt(outPath, 0.8, W, H));
};

const title = (text: string, googleFont?: string) => ({
  type: "title",
  text,
  fontSize: SIZE,
  zoomDirection: null,
  ...(googleFont ? { googleFont } : {}),
});

const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;");

/**
 * Chromium's rendering of `text` on a plain page (white on black, `SIZE` px, the font's files by @font-face, the
 * paragraph's direction from its text as `dir=auto` says); `glyphByGlyph`: every character in a box of its own,
 * which is what a rasteriser without shaping or bidi would draw.
 */
const chromium = async (
  text: string,
  font: { files: { path: string; unicodeRange?: string }[]; weight: number },
  glyphByGlyph = false,
): Promise<Grey> => {
  const page = await openPage(DEFAULT_RENDER_TOOLS, W, H);
  try {
    servePageFiles(
      page,
      font.files.map((f) => f.path),
    );
    const faces = font.files
      .map(
        (f) =>
          `@font-face{font-family:"ref";font-weight:${font.weight};src:url("${pathToFileURL(f.path).href}")` +
          (f.unicodeRange ? `;unicode-range:${f.unicodeRange}}` : "}"),
      )
      .join("\n");
    const body = glyphByGlyph
      ? [...text].map((c) => `<span style="display:inline-block">${escape(c)}</span>`).join("")
      : escape(text);
    const html = `<!doctype html><html><head><meta charset="utf-8"><style>${faces}
html,body{margin:0;background:#000}
div{position:absolute;left:24px;top:24px;white-space:pre;color:#fff;font-family:"ref";font-weight:${font.weight};font-size:${SIZE}px}
</style></head><body><div dir="${glyphByGlyph ? "ltr" : "auto"}">${body}</div></body></html>`;
    await page.evaluate(async (doc: string) => {
      document.open();
      document.write(doc);
      document.close();
      await Promise.all([...document.fonts].map((f) => f.load().catch(() => null)));
      await document.fonts.ready;
    }, html);
    const png = join(dir, `ref-${Math.random().toString(36).slice(2)}.png`);
    await page.screenshot({ path: png, clip: { x: 0, y: 0, width: W, height: H } });
    const { stdout } = await run("ffmpeg", [
      ...["-v", "error", "-i", png, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"],
    ]);
    return grey({ width: W, height: H, data: stdout });
  } finally {
    await page.close();
  }
};

/** The inked pixels (grey above half) cropped to their bounding box. */
const ink = (g: Grey) => {
  let [left, top, right, bottom] = [g.width, g.height, -1, -1];
  for (let y = 0; y < g.height; y++)
    for (let x = 0; x < g.width; x++)
      if (g.data[y * g.width + x]! > 128) {
        left = Math.min(left, x);
        right = Math.max(right, x);
        top = Math.min(top, y);
        bottom = Math.max(bottom, y);
      }
  const width = right - left + 1;
  const height = bottom - top + 1;
  const at = (x: number, y: number) =>
    x >= 0 && y >= 0 && x < width && y < height && g.data[(top + y) * g.width + left + x]! > 128;
  return { width, height, at };
};

/**
 * How alike two drawings of a text are, boxes aligned (the best of two pixels' shift either way): the share of each
 * one's ink within a pixel of the other's ink (the smaller of the two; anti-aliasing and the encoder move edges by a
 * pixel), and the difference of their boxes' sizes.
 */
const likeness = (a: Grey, b: Grey) => {
  const x = ink(a);
  const y = ink(b);
  const near = (p: ReturnType<typeof ink>, i: number, j: number) => {
    for (let dj = -1; dj <= 1; dj++) for (let di = -1; di <= 1; di++) if (p.at(i + di, j + dj)) return true;
    return false;
  };
  /** Share of `p`'s ink near `q`'s, `q` shifted by (dx, dy). */
  const covered = (p: ReturnType<typeof ink>, q: ReturnType<typeof ink>, dx: number, dy: number) => {
    let inked = 0;
    let hit = 0;
    for (let j = 0; j < p.height; j++)
      for (let i = 0; i < p.width; i++)
        if (p.at(i, j)) {
          inked++;
          if (near(q, i + dx, j + dy)) hit++;
        }
    return hit / Math.max(1, inked);
  };
  let best = 0;
  for (let dx = -2; dx <= 2; dx++)
    for (let dy = -2; dy <= 2; dy++)
      best = Math.max(best, Math.min(covered(x, y, dx, dy), covered(y, x, -dx, -dy)));
  return { match: best, dw: Math.abs(x.width - y.width), dh: Math.abs(x.height - y.height) };
};

/**
 * "shaped" when `drawn` matches Chromium's rendering of `text` in `font` (ink within a pixel, boxes within 2 px) and
 * not its glyph-by-glyph drawing; otherwise the figures, so a failure shows them.
 */
const verdict = async (
  drawn: Grey,
  text: string,
  font: { files: { path: string; unicodeRange?: string }[]; weight: number },
): Promise<string> => {
  const shaped = likeness(drawn, await chromium(text, font));
  const unshaped = likeness(drawn, await chromium(text, font, true));
  const ok = shaped.match > 0.95 && shaped.dw <= 2 && shaped.dh <= 2 && unshaped.match < 0.9;
  return ok ? "shaped" : JSON.stringify({ text, shaped, unshaped });
};

const faceFiles = (font: HostedFonts[string]) => ({
  weight: font.weight,
  files: font.faces.map((f) => ({ path: f.ref, unicodeRange: f.unicodeRange })),
});

describe("hosted catalogue fonts in video titles", () => {
  it("draws a family the bundle lacks from the request's faces, downloading only the subsets its text uses", async () => {
    const font = hostedFont("noto-sans-hebrew", 700);
    const text = "שלום, עולם!";
    const drawn = await render("hebrew", [title(text, "Noto Sans Hebrew:700")], {
      fonts: { "Noto Sans Hebrew:700": font },
    });
    // Hebrew letters, a space and punctuation: the hebrew and latin subsets' files (none of latin-ext, greek-ext,
    // cyrillic-ext).
    expect(downloaded.filter((r) => r.endsWith(".woff2")).sort()).toEqual([
      fontsourceFile("noto-sans-hebrew", "hebrew", 700),
      fontsourceFile("noto-sans-hebrew", "latin", 700),
    ]);
    expect(await verdict(drawn, text, faceFiles(font))).toBe("shaped");
    // Not the installed fallback's letters, nor the family's other weight.
    const fallback = await render("hebrew-fallback", [title(text)]);
    expect(likeness(drawn, fallback).match).toBeLessThan(0.8);
    const light = hostedFont("noto-sans-hebrew", 300);
    const thin = await render("hebrew-300", [title(text, "Noto Sans Hebrew:300")], {
      fonts: { "Noto Sans Hebrew:300": light },
    });
    expect(likeness(drawn, thin).match).toBeLessThan(0.8);
  });

  it("refuses to draw a family the bundle lacks without its faces, naming it", async () => {
    await expect(render("missing", [title("x", "Comic Neue:700")])).rejects.toThrow(
      /googleFont "Comic Neue:700" is not a bundled font and the request carries no faces for it/,
    );
  });
});

describe("scripts in video text, against Chromium's rendering of the same text and font", () => {
  it("shapes Arabic (joined letters, right to left, the paragraph's direction from its text)", async () => {
    const font = hostedFont("noto-sans-arabic", 400);
    const fonts = { "Noto Sans Arabic": font };
    for (const [name, text] of [
      ["arabic", "مرحبا بالعالم"],
      // A paragraph that starts right to left keeps its final "!" on the left (an LTR page would put it right).
      ["arabic-bang", "مرحبا!"],
    ] as const) {
      const drawn = await render(name, [title(text, "Noto Sans Arabic")], { fonts });
      expect(await verdict(drawn, text, faceFiles(font))).toBe("shaped");
    }
  });

  it("keeps letters joined while a title reveals letter by letter, a letter being a whole grapheme", async () => {
    const font = hostedFont("noto-sans-arabic", 400);
    const text = "مرحبا بالعالم";
    const layer = { ...title(text, "Noto Sans Arabic"), style: "letter-by-letter", animationDuration: 0.5 };
    const drawn = await render("arabic-letters", [layer], { fonts: { "Noto Sans Arabic": font } });
    expect(await verdict(drawn, text, faceFiles(font))).toBe("shaped");
  });

  it("shapes Devanagari (conjuncts, vowel signs before their consonant)", async () => {
    const font = hostedFont("noto-sans-devanagari", 400);
    const text = "नमस्ते दुनिया किताब";
    const drawn = await render("devanagari", [title(text, "Noto Sans Devanagari")], {
      fonts: { "Noto Sans Devanagari": font },
    });
    expect(await verdict(drawn, text, faceFiles(font))).toBe("shaped");
  });

  it("draws CJK in the installed fallback face, as Chromium does", async () => {
    const text = "你好世界こんにちは";
    const drawn = await render("cjk", [title(text)]);
    // The title's own face first (it has the space, not the letters), then the CJK face.
    const droid = { weight: 400, files: [{ path: FALLBACK_FONT_FILES[1]! }] };
    const same = likeness(drawn, await chromium(text, droid));
    expect(same.match, JSON.stringify(same)).toBeGreaterThan(0.95);
    expect(same.dw).toBeLessThanOrEqual(2);
  });

  it("draws a right-to-left caption in a hosted font, shaped", async () => {
    const font = hostedFont("noto-sans-arabic", 700);
    const text = "مرحبا بالعالم";
    const srt = join(dir, "arabic.srt");
    await writeFile(srt, `1\n00:00:00,000 --> 00:00:01,000\n${text}\n`);
    const drawn = await render("arabic-caption", [], {
      fonts: { "Noto Sans Arabic:700": font },
      config: {
        captionsFile: srt,
        // Black outline on black: only the letters' fill shows, as on the reference page.
        autoSubtitlesStyle: { googleFont: "Noto Sans Arabic:700", fontSize: SIZE, textColor: "#ffffff" },
      },
    });
    // Captions take every face (their words are known only when drawn).
    expect(downloaded.filter((r) => r.endsWith(".woff2"))).toHaveLength(font.faces.length);
    expect(await verdict(drawn, text, faceFiles(font))).toBe("shaped");
  });

  it("draws emoji in colour (the installed colour emoji face)", async () => {
    await render("emoji", [title("Party 🎉🍕")]);
    const frame = await frameAt(join(dir, "emoji.mp4"), 0.8, W, H);
    let coloured = 0;
    for (let i = 0; i < W * H; i++) {
      const [r, g, b] = [frame.data[i * 3]!, frame.data[i * 3 + 1]!, frame.data[i * 3 + 2]!];
      if (Math.max(r, g, b) - Math.min(r, g, b) > 100) coloured++;
    }
    expect(coloured).toBeGreaterThan(200);
  });
});
