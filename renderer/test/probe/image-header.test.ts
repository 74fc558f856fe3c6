/**
 * Still-image headers read in-process must tell the renderer what ffprobe would (size, alpha), and
 * must step aside (null / unknown) where only decoding can tell. Every case is a real file made by
 * ffmpeg and checked against ffprobe on the same file.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../../src/lib/process.ts";
import { readImageHeader } from "@media-render/contract/media/image-header";
import { probeStill } from "../../src/probe/header-facts.ts";
import { parseProbeOutput } from "../../src/probe/parse-probe.ts";
import { probeMedia } from "../../src/probe/probe-media.ts";
import { FIXTURES } from "../video/media-helpers.ts";
import { withExifOrientation } from "./exif.ts";

let dir: string;

/** ffmpeg-made stills: name → (source filter, output options). */
const STILLS: Record<string, string[]> = {
  "rgb.png": ["-f", "lavfi", "-i", "testsrc2=s=64x48", "-pix_fmt", "rgb24"],
  "rgba.png": ["-f", "lavfi", "-i", "testsrc2=s=64x48", "-pix_fmt", "rgba"],
  "gray.png": ["-f", "lavfi", "-i", "testsrc2=s=40x30", "-pix_fmt", "gray"],
  "pal8.png": ["-f", "lavfi", "-i", "testsrc2=s=40x30", "-pix_fmt", "pal8"],
  "yuv.jpg": ["-f", "lavfi", "-i", "testsrc2=s=100x60", "-pix_fmt", "yuvj420p"],
  "lossy.webp": ["-f", "lavfi", "-i", "testsrc2=s=50x40", "-c:v", "libwebp", "-lossless", "0"],
  "lossless.webp": ["-f", "lavfi", "-i", "testsrc2=s=50x40", "-c:v", "libwebp", "-lossless", "1"],
};

/** ffprobe's facts of `path`; `forced`: read with that demuxer (`-f`), as a render names it. */
const ffprobeInfo = async (path: string, forced?: string) => {
  const { stdout } = await run("ffprobe", [
    "-v",
    "error",
    "-print_format",
    "json",
    "-show_format",
    "-show_streams",
    ...(forced ? ["-f", forced] : []),
    path,
  ]);
  return parseProbeOutput(JSON.parse(stdout.toString("utf8")));
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "image-header-"));
  for (const [name, args] of Object.entries(STILLS))
    await run("ffmpeg", ["-v", "error", "-y", ...args, "-frames:v", "1", join(dir, name)]);
  await run("ffmpeg", [
    ...["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=32x32:d=0.3:r=10"],
    ...["-plays", "0", "-f", "apng", join(dir, "anim.png")],
  ]);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("still headers against ffprobe", () => {
  for (const name of Object.keys(STILLS)) {
    it(`${name}: the same facts as ffprobe, without running it`, async () => {
      const path = join(dir, name);
      const fromHeader = await probeStill(path);
      const fromProbe = await ffprobeInfo(path);
      // ffprobe picks png_pipe for a PNG by its bytes; the reader names image2, which reads it the same (a render's -f).
      expect(fromHeader).toEqual({ ...fromProbe, ffprobe: null, demuxer: fromHeader!.demuxer });
      expect(fromHeader).toEqual({ ...(await ffprobeInfo(path, fromHeader!.demuxer)), ffprobe: null });
      expect(fromHeader).toMatchObject({ hasVideo: false, duration: null, orientation: 1 });
    });
  }

  it("the 12-megapixel fixture photo", async () => {
    const h = readImageHeader(await readFile(`${FIXTURES}/img2.jpg`));
    expect(h).toEqual({
      codec: "mjpeg",
      width: 4000,
      height: 3000,
      orientation: 1,
      hasAlpha: false,
      animated: false,
    });
  });

  it("a PNG made transparent by a tRNS chunk has alpha, as ffmpeg decodes it", async () => {
    // RGB PNG + tRNS chunk inserted before IDAT (ffmpeg's encoder never writes one itself).
    const rgb = await readFile(join(dir, "rgb.png"));
    const ihdrEnd = 8 + 12 + 13;
    const trns = Buffer.from([0, 0, 0, 6, 0x74, 0x52, 0x4e, 0x53, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    const path = join(dir, "trns.png");
    await writeFile(path, Buffer.concat([rgb.subarray(0, ihdrEnd), trns, rgb.subarray(ihdrEnd)]));
    expect((await probeStill(path))?.hasAlpha).toBe(true);
    expect((await ffprobeInfo(path)).hasAlpha).toBe(true);
  });

  it("leaves animated PNGs, GIFs and unknown bytes to ffprobe", async () => {
    expect(await probeStill(join(dir, "anim.png"))).toBeNull();
    expect(readImageHeader(await readFile(join(dir, "anim.png")))?.animated).toBe(true);
    expect(readImageHeader(Buffer.from("GIF89a\x20\x00\x10\x00", "latin1"))).toMatchObject({
      width: 32,
      height: 16,
      hasAlpha: null,
    });
    expect(readImageHeader(Buffer.from("not an image at all"))).toBeNull();
    // probeMedia still answers for them, through ffprobe.
    expect(await probeMedia(join(dir, "anim.png"), { ffprobePath: "ffprobe" })).toMatchObject({
      width: 32,
      height: 32,
    });
  });

  it("asked for every fact (POST /probe), answers with ffprobe's own, format name included", async () => {
    const path = join(dir, "rgba.png");
    expect((await probeMedia(path, { ffprobePath: "ffprobe" })).ffprobe).toBeNull();
    const complete = await probeMedia(path, { ffprobePath: "ffprobe", complete: true });
    expect(complete).toEqual(await ffprobeInfo(path));
    expect(complete.ffprobe?.formatName).toBe("png_pipe");
  });

  it("a head cut before the image data still gives a PNG's size, with alpha unknown", async () => {
    const h = readImageHeader((await readFile(join(dir, "rgb.png"))).subarray(0, 40));
    expect(h).toMatchObject({ width: 64, height: 48, hasAlpha: null, animated: null });
  });
});

describe("EXIF orientation", () => {
  for (const [orientation, order] of [
    [6, "MM"],
    [8, "II"],
    [3, "II"],
  ] as const) {
    it(`orientation ${orientation} (${order}) gives the display size`, async () => {
      const jpeg = withExifOrientation(await readFile(join(dir, "yuv.jpg")), orientation, order);
      const quarter = orientation >= 5;
      expect(readImageHeader(jpeg)).toMatchObject({
        codec: "mjpeg",
        orientation,
        width: quarter ? 60 : 100,
        height: quarter ? 100 : 60,
      });
    });
  }
});
