/** Pixel size of an image read from its header bytes (PNG, JPEG, GIF, WebP); no decoding. */

export interface Size {
  width: number;
  height: number;
}

const u16be = (b: Uint8Array, i: number) => ((b[i] ?? 0) << 8) | (b[i + 1] ?? 0);
const u16le = (b: Uint8Array, i: number) => (b[i] ?? 0) | ((b[i + 1] ?? 0) << 8);
const u24le = (b: Uint8Array, i: number) => u16le(b, i) | ((b[i + 2] ?? 0) << 16);
const u32be = (b: Uint8Array, i: number) => ((u16be(b, i) << 16) >>> 0) + u16be(b, i + 2);

const jpegSize = (b: Uint8Array): Size | null => {
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1] ?? 0;
    // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC) carry the frame size.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: u16be(b, i + 5), width: u16be(b, i + 7) };
    }
    i += 2 + u16be(b, i + 2);
  }
  return null;
};

/** `head` must hold the first bytes of the file; JPEG needs enough to reach the SOF marker (64 KB is plenty). */
export const imageSize = (mimeType: string, b: Uint8Array): Size | null => {
  switch (mimeType) {
    case "image/png":
      return { width: u32be(b, 16), height: u32be(b, 20) };
    case "image/gif":
      return { width: u16le(b, 6), height: u16le(b, 8) };
    case "image/jpeg":
      return jpegSize(b);
    case "image/webp": {
      const chunk = String.fromCharCode(...b.subarray(12, 16));
      if (chunk === "VP8X") return { width: u24le(b, 24) + 1, height: u24le(b, 27) + 1 };
      if (chunk === "VP8L") {
        const bits = (b[21] ?? 0) | ((b[22] ?? 0) << 8) | ((b[23] ?? 0) << 16) | ((b[24] ?? 0) << 24);
        return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
      }
      if (chunk === "VP8 ") return { width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff };
      return null;
    }
    default:
      return null;
  }
};
