/** Test helper: a copy of a JPEG with an EXIF APP1 segment carrying only an orientation tag. */

/** Inserts APP1 "Exif" with IFD0 = { Orientation (0x0112) = orientation } right after SOI. */
export function withExifOrientation(
  jpeg: Uint8Array,
  orientation: number,
  order: "II" | "MM" = "MM",
): Buffer {
  const le = order === "II";
  const tiff = Buffer.alloc(8 + 2 + 12 + 4);
  tiff.write(order, 0, "latin1");
  if (le) {
    tiff.writeUInt16LE(42, 2);
    tiff.writeUInt32LE(8, 4);
    tiff.writeUInt16LE(1, 8);
    tiff.writeUInt16LE(0x0112, 10);
    tiff.writeUInt16LE(3, 12);
    tiff.writeUInt32LE(1, 14);
    tiff.writeUInt16LE(orientation, 18);
  } else {
    tiff.writeUInt16BE(42, 2);
    tiff.writeUInt32BE(8, 4);
    tiff.writeUInt16BE(1, 8);
    tiff.writeUInt16BE(0x0112, 10);
    tiff.writeUInt16BE(3, 12);
    tiff.writeUInt32BE(1, 14);
    tiff.writeUInt16BE(orientation, 18);
  }
  const payload = Buffer.concat([Buffer.from("Exif\0\0", "latin1"), tiff]);
  const header = Buffer.from([0xff, 0xe1, 0, 0]);
  header.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([Buffer.from(jpeg.subarray(0, 2)), header, payload, Buffer.from(jpeg.subarray(2))]);
}
