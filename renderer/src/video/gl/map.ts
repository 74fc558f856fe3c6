/**
 * The 256x256 map of the transitions that read one (luma, displacement): a spiral of rising values, smooth
 * enough to displace, varied enough to wipe by. One copy, sent to whichever draws the transition: the WebGL
 * page (in its document) or the native helper (on its fd 3).
 */
export const MAP_SIZE = 256;

/** rgba bytes, top row first; grey (r = g = b), opaque. */
export const SPIRAL_MAP: Buffer = (() => {
  const map = Buffer.alloc(MAP_SIZE * MAP_SIZE * 4);
  for (let y = 0; y < MAP_SIZE; y++)
    for (let x = 0; x < MAP_SIZE; x++) {
      const dx = x / MAP_SIZE - 0.5;
      const dy = y / MAP_SIZE - 0.5;
      const level = ((Math.atan2(dy, dx) / (2 * Math.PI) + 0.5) * 0.5 + Math.hypot(dx, dy) * 1.2) % 1;
      // Truncated like a Uint8Array stores a number (the page's map was made that way).
      const grey = Math.trunc(level * 255);
      map.set([grey, grey, grey, 255], (y * MAP_SIZE + x) * 4);
    }
  return map;
})();
