/** Test helper: a copy of a JPEG with an EXIF APP1 segment carrying only an orientation tag. */

/** Inserts APP1 "Exif" with IFD0 = { Orientation (0x0112) = orientation } right after SOI. */
export const withExifOrientation = (
  jpeg: Uint8Array,
  orientation: number,
  order: "II" | "MM" = "MM",
): Buffer => {
  const tiff = new DataView(new ArrayBuffer(8 + 2 + 12 + 4));
  const le = order === "II";
  tiff.setUint16(0, le ? 0x4949 : 0x4d4d);
  tiff.setUint16(2, 42, le);
  tiff.setUint32(4, 8, le); // IFD0 right after the header
  tiff.setUint16(8, 1, le); // one entry
  tiff.setUint16(10, 0x0112, le); // Orientation
  tiff.setUint16(12, 3, le); // SHORT
  tiff.setUint32(14, 1, le); // one value
  tiff.setUint16(18, orientation, le);
  const payload = Buffer.concat([Buffer.from("Exif\0\0", "latin1"), Buffer.from(tiff.buffer)]);
  const header = Buffer.from([0xff, 0xe1, 0, 0]);
  header.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([Buffer.from(jpeg.subarray(0, 2)), header, payload, Buffer.from(jpeg.subarray(2))]);
};
