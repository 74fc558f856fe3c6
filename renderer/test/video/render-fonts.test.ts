/**
 * Catalogue fonts in video: `googleFont` (or its alias `catalogFont`) on text layers and `googleFonts` on html layers draw the
 * bundled @fontsource files (the renderer's own copies), not the installed fallback. Compared on the
 * pixels of the same text drawn with and without the font. Families the bundle lacks (the hosted catalogue's, which the
 * request carries): render-scripts.test.ts.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../../src/lib/process.ts";
import { closeBrowser } from "../../src/video/raster/browser.ts";
import { renderVideo } from "../../src/video/render.ts";
import { videoConfig } from "../helpers/video-config.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "video-fonts-"));
});
afterAll(async () => {
  await closeBrowser();
  await rm(dir, { recursive: true, force: true });
});

/** One 320x120 frame of `layer` on black, as grey bytes. */
const frame = async (name: string, layer: Record<string, unknown>): Promise<Buffer> => {
  const outPath = join(dir, `${name}.mp4`);
  await renderVideo({
    jobId: `job_${name}`,
    workDir: await mkdtemp(join(dir, `${name}-`)),
    outPath,
    config: videoConfig({
      width: 320,
      height: 120,
      fps: 10,
      clips: [{ duration: 1, layers: [{ type: "fill-color", color: "#000000" }, layer] }],
    }),
  });
  const { stdout } = await run("ffmpeg", [
    ...["-v", "error", "-ss", "0.8", "-i", outPath, "-frames:v", "1"],
    ...["-f", "rawvideo", "-pix_fmt", "gray", "-"],
  ]);
  return stdout;
};

/** Share of pixels whose grey level differs by more than 64 between two frames. */
const changed = (a: Buffer, b: Buffer): number => {
  let n = 0;
  for (let i = 0; i < a.length; i++) if (Math.abs((a[i] ?? 0) - (b[i] ?? 0)) > 64) n++;
  return n / a.length;
};

const ink = (f: Buffer) => [...f].filter((v) => v > 128).length / f.length;

describe("catalogue fonts in video", () => {
  it("draws a title in its googleFont, and the same pixels under the alias catalogFont", async () => {
    const title = { type: "title", text: "Handwritten", fontSize: 40, zoomDirection: null };
    const lobster = await frame("lobster", { ...title, googleFont: "Lobster" });
    const pacifico = await frame("pacifico", { ...title, googleFont: "Pacifico" });
    const fallback = await frame("fallback", title);
    expect(ink(lobster)).toBeGreaterThan(0.01);
    expect(changed(lobster, fallback)).toBeGreaterThan(0.02);
    expect(changed(lobster, pacifico)).toBeGreaterThan(0.02);
    // The same font twice draws the same pixels, whichever name carries it.
    expect(changed(lobster, await frame("lobster-again", { ...title, catalogFont: "lobster" }))).toBe(0);
  });

  it("loads an html layer's googleFonts from the bundle (no network)", async () => {
    const html = {
      type: "html",
      html: "<div style='font:40px Pacifico, sans-serif;color:#fff;padding:20px'>Handwritten</div>",
    };
    const withFont = await frame("html-font", { ...html, googleFonts: ["Pacifico"] });
    const without = await frame("html-plain", html);
    expect(ink(withFont)).toBeGreaterThan(0.01);
    expect(changed(withFont, without)).toBeGreaterThan(0.02);
  });
});
