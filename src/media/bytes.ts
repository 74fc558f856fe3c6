/** Big-endian and little-endian readers over byte arrays (missing bytes read as 0; callers check lengths). */

export const u8 = (b: Uint8Array, i: number): number => b[i] ?? 0;
export const u16be = (b: Uint8Array, i: number): number => (u8(b, i) << 8) | u8(b, i + 1);
export const u16le = (b: Uint8Array, i: number): number => u8(b, i) | (u8(b, i + 1) << 8);
export const u32be = (b: Uint8Array, i: number): number => u16be(b, i) * 0x10000 + u16be(b, i + 2);
export const u32le = (b: Uint8Array, i: number): number => u16le(b, i) + u16le(b, i + 2) * 0x10000;
/** 64-bit big-endian as a BigInt (box sizes and durations may exceed 2^53 in theory). */
export const ascii = (b: Uint8Array, i: number, n: number): string =>
  String.fromCharCode(...b.subarray(i, i + n));
