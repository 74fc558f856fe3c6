/**
 * Facts read from a still image's first bytes, without decoding: format, display size, EXIF
 * orientation and whether the decoded picture has alpha (as ffmpeg decodes it). Shared by the Worker
 * (upload metadata) and the renderer (video stills skip an ffprobe run). Pure; no imports, so both
 * runtimes load it as is.
 */

export interface ImageHeader {
  /** ffmpeg's decoder name for the format. */
  codec: "png" | "mjpeg" | "gif" | "webp";
  /** Display size: EXIF orientations 5–8 (a quarter turn) swap the stored width and height. */
  width: number;
  height: number;
  /** EXIF orientation 1–8 (1: shown as stored). Only JPEG carries one here. */
  orientation: number;
  /**
   * Whether ffmpeg decodes the picture with an alpha channel (PNG with alpha, a palette or tRNS;
   * lossless WebP); null where only decoding would tell (GIF, extended WebP).
   */
  hasAlpha: boolean | null;
  /** More than one frame (APNG, extended WebP animation), or unknown for GIF. */
  animated: boolean | null;
}

const u8 = (b: Uint8Array, i: number) => b[i] ?? 0;
const u16be = (b: Uint8Array, i: number) => (u8(b, i) << 8) | u8(b, i + 1);
const u16le = (b: Uint8Array, i: number) => u8(b, i) | (u8(b, i + 1) << 8);
const u24le = (b: Uint8Array, i: number) => u16le(b, i) | (u8(b, i + 2) << 16);
const u32be = (b: Uint8Array, i: number) => u16be(b, i) * 0x10000 + u16be(b, i + 2);
const u32le = (b: Uint8Array, i: number) => u16le(b, i) + u16le(b, i + 2) * 0x10000;
const ascii = (b: Uint8Array, i: number, n: number) => String.fromCharCode(...b.subarray(i, i + n));

/** Orientation 5–8 turn the picture a quarter: display width is the stored height. */
export const isQuarterTurn = (orientation: number): boolean => orientation >= 5 && orientation <= 8;

/** EXIF orientation from a TIFF structure (APP1 "Exif\0\0" payload); 1 when absent or malformed. */
const tiffOrientation = (head: Uint8Array, start: number, end: number): number => {
  const order = ascii(head, start, 2);
  if (order !== "II" && order !== "MM") return 1;
  const u16 = order === "II" ? u16le : u16be;
  const u32 = order === "II" ? u32le : u32be;
  const ifd = start + u32(head, start + 4);
  if (ifd + 2 > end) return 1;
  const count = u16(head, ifd);
  for (let entry = 0; entry < count; entry++) {
    const entryAt = ifd + 2 + entry * 12;
    if (entryAt + 12 > end) return 1;
    if (u16(head, entryAt) === 0x0112) {
      const value = u16(head, entryAt + 8);
      return value >= 1 && value <= 8 ? value : 1;
    }
  }
  return 1;
};

const jpeg = (head: Uint8Array): ImageHeader | null => {
  let orientation: number | null = null;
  let i = 2;
  while (i + 9 < head.length) {
    if (u8(head, i) !== 0xff) return null;
    const marker = u8(head, i + 1);
    const length = u16be(head, i + 2);
    // The first Exif segment counts, as in browsers' decoders.
    if (marker === 0xe1 && orientation === null && ascii(head, i + 4, 6) === "Exif\0\0")
      orientation = tiffOrientation(head, i + 10, Math.min(head.length, i + 2 + length));
    // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC) carry the frame size.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      const height = u16be(head, i + 5);
      const width = u16be(head, i + 7);
      if (!width || !height) return null;
      const turn = isQuarterTurn(orientation ?? 1);
      return {
        codec: "mjpeg",
        width: turn ? height : width,
        height: turn ? width : height,
        orientation: orientation ?? 1,
        hasAlpha: false,
        animated: false,
      };
    }
    i += 2 + length;
  }
  return null;
};

const png = (head: Uint8Array): ImageHeader | null => {
  if (ascii(head, 12, 4) !== "IHDR") return null;
  const width = u32be(head, 16);
  const height = u32be(head, 20);
  const colorType = u8(head, 25);
  // Grey+alpha (4), RGBA (6) and palettes (3, decoded as pal8 with its transparency) carry alpha.
  let hasAlpha: boolean | null = colorType === 4 || colorType === 6 || colorType === 3;
  let animated: boolean | null = false;
  for (let i = 8; ; i += 12 + u32be(head, i)) {
    if (i + 8 > head.length) {
      // The chunks before the image data did not fit in the head: the size is known, the rest is not.
      if (!hasAlpha) hasAlpha = null;
      animated = null;
      break;
    }
    const type = ascii(head, i + 4, 4);
    if (type === "IDAT") break;
    if (type === "tRNS") hasAlpha = true;
    if (type === "acTL") animated = true;
  }
  if (!width || !height) return null;
  return { codec: "png", width, height, orientation: 1, hasAlpha, animated };
};

const webp = (head: Uint8Array): ImageHeader | null => {
  const chunk = ascii(head, 12, 4);
  const base = { codec: "webp" as const, orientation: 1 };
  if (chunk === "VP8X") {
    const animated = (u8(head, 20) & 0x02) !== 0;
    return { ...base, width: u24le(head, 24) + 1, height: u24le(head, 27) + 1, hasAlpha: null, animated };
  }
  if (chunk === "VP8L") {
    const bits = u32le(head, 21);
    // ffmpeg decodes every lossless WebP to ARGB.
    return {
      ...base,
      width: (bits & 0x3fff) + 1,
      height: ((bits >>> 14) & 0x3fff) + 1,
      hasAlpha: true,
      animated: false,
    };
  }
  if (chunk === "VP8 ")
    return {
      ...base,
      width: u16le(head, 26) & 0x3fff,
      height: u16le(head, 28) & 0x3fff,
      hasAlpha: false,
      animated: false,
    };
  return null;
};

/**
 * Reads a PNG, JPEG, GIF or WebP header; null for other formats or when `head` ends before the size
 * (JPEG metadata before the frame header can be long: 256 KB covers nearly every file). A PNG head
 * that ends before the image data still gives the size, with hasAlpha/animated null when unknown.
 */
export const readImageHeader = (head: Uint8Array): ImageHeader | null => {
  if (u8(head, 0) === 0x89 && ascii(head, 1, 3) === "PNG") return png(head);
  if (u8(head, 0) === 0xff && u8(head, 1) === 0xd8) return jpeg(head);
  if (ascii(head, 0, 4) === "RIFF" && ascii(head, 8, 4) === "WEBP") return webp(head);
  if (ascii(head, 0, 4) === "GIF8") {
    const width = u16le(head, 6);
    const height = u16le(head, 8);
    return width && height
      ? { codec: "gif", width, height, orientation: 1, hasAlpha: null, animated: null }
      : null;
  }
  return null;
};
