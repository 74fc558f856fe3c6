/**
 * A tool, not a module: `node webp-decode.ts <animated.webp> <out.png>` decodes an animated WebP with sharp (libvips,
 * whose WebP loader composites each frame with libwebp's animation decoder) and writes its whole frames as an
 * animated PNG with their delays (apng.ts). animated-webp.ts runs it as the task's tool user, like ffmpeg: it decodes
 * a user's file, so it holds nothing of the renderer's (renderer/README.md, "Tools"). Failures go to stderr, one
 * line without paths, and exit 1.
 */
import { open } from "node:fs/promises";
import sharp from "sharp";
import { apngParts } from "./apng.ts";

/** Decoded frames a file may take (RGBA): 256 MiB, e.g. 180 frames of 640x480 or 45 of 1280x720. */
const MAX_FRAME_BYTES = 256 * 1024 * 1024;
/** Frames at most (WebP allows far more of tiny frames; each is a frame ffmpeg decodes per play). */
const MAX_FRAMES = 10_000;
/** A frame shown 10 ms or less is shown 100 ms, as browsers show WebP and GIF (a zero delay would never advance). */
const shownMs = (delay: number | undefined): number => (delay === undefined || delay <= 10 ? 100 : delay);

const decode = async (input: string, output: string): Promise<void> => {
  sharp.cache(false);
  sharp.concurrency(1);
  const meta = await sharp(input, { animated: true }).metadata();
  if (meta.format !== "webp") throw new Error("not a WebP file");
  const width = meta.width;
  const height = meta.pageHeight ?? meta.height;
  const pages = meta.pages ?? 1;
  if (!width || !height) throw new Error("the WebP file has no size");
  if (pages > MAX_FRAMES)
    throw new Error(`the animated WebP has ${pages} frames; at most ${MAX_FRAMES} are read`);
  if (width * height * 4 * pages > MAX_FRAME_BYTES)
    throw new Error(
      `the animated WebP's ${pages} frames of ${width}x${height} take more than ${MAX_FRAME_BYTES / 2 ** 20} MiB decoded`,
    );
  const { data } = await sharp(input, { animated: true })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const size = width * height * 4;
  if (data.length !== size * pages) throw new Error("the animated WebP decoded to an unexpected size");
  const frames = Array.from({ length: pages }, (_, i) => ({
    rgba: data.subarray(i * size, (i + 1) * size),
    delayMs: shownMs(meta.delay?.[i]),
  }));
  const file = await open(output, "w");
  try {
    for (const part of apngParts(width, height, frames)) await file.write(part);
  } finally {
    await file.close();
  }
};

const [input, output] = process.argv.slice(2);
if (!input || !output) {
  process.stderr.write("usage: webp-decode.ts <animated.webp> <out.png>\n");
  process.exit(2);
}
await decode(input, output).catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`${message.replaceAll(input, "input").replaceAll(output, "output").split("\n")[0]}\n`);
  process.exit(1);
});
