/**
 * Pixel rules both renderers share. x264 and yuv420p need even frame sizes; every even size the renderer
 * derives (the frame, a layer's box, a preview) goes through {@link evenDimension}.
 */

/** A side rounded down to an even number of pixels, never below 2 (docs/config-grammar.md's "rounded down"). */
export const evenDimension = (n: number): number => Math.max(2, Math.floor(n / 2) * 2);
