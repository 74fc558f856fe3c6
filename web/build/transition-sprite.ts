/**
 * `virtual:transition-sprite`: the URL of the transitions' thumbnails, one picture. The picture is the contact sheet
 * the renderer's tests draw from every gl-transitions shader at its midpoint (renderer/test/video/
 * transitions-contact-sheet.png, GL_SHEET below), made small once at build time: ffmpeg (a prerequisite of the
 * service) turns the 1.1 MB PNG into a ~140 KB WebP at half size. Without ffmpeg the PNG itself is served (same
 * cells, the page scales them by CSS).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Plugin } from "vite";

const SHEET = fileURLToPath(
  new URL("../../renderer/test/video/transitions-contact-sheet.png", import.meta.url),
);
const ID = "virtual:transition-sprite";

const smaller = (): { name: string; source: Uint8Array } => {
  // A file, not a pipe: the WebP muxer seeks back to write the RIFF size.
  const dir = mkdtempSync(join(tmpdir(), "transition-sprite-"));
  try {
    const out = join(dir, "transitions.webp");
    execFileSync("ffmpeg", ["-v", "error", "-i", SHEET, "-vf", "scale=iw/2:-1", "-quality", "80", out], {
      stdio: "ignore",
    });
    return { name: "transitions.webp", source: readFileSync(out) };
  } catch {
    console.warn("[web] ffmpeg unavailable: serving the transitions' contact sheet as it is (1.1 MB PNG)");
    return { name: "transitions.png", source: readFileSync(SHEET) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

export const transitionSprite = (): Plugin => ({
  name: "transition-sprite",
  resolveId: (id) => (id === ID ? `\0${ID}` : null),
  load(id) {
    if (id !== `\0${ID}`) return null;
    this.addWatchFile(SHEET);
    const ref = this.emitFile({ type: "asset", ...smaller() });
    return `export default import.meta.ROLLUP_FILE_URL_${ref};`;
  },
});
