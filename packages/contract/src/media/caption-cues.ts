/**
 * The cues of a captions file counted without parsing it: each SubRip or WebVTT cue has one timing line, and
 * `-->` is what makes it one (WebVTT forbids it anywhere else; a SubRip text that contains it only counts high). So
 * the count bounds the cues a parser can find, and is taken on bytes as they stream (an upload) or all at once (the
 * renderer, before it parses), in one pass and a few bytes of state.
 */

const DASH = 0x2d;
const GREATER = 0x3e;

/** Counts `-->` in bytes pushed in order, across chunk boundaries. */
export class CueCounter {
  /** Timing lines seen so far. */
  count = 0;
  /** Dashes just before the current byte (at most 2 matter). */
  private dashes = 0;

  /** Counts `bytes`, the next part of the file; returns the count so far. */
  push(bytes: Uint8Array): number {
    let dashes = this.dashes;
    let count = this.count;
    for (const byte of bytes) {
      if (byte === DASH) dashes = dashes < 2 ? dashes + 1 : 2;
      else {
        if (byte === GREATER && dashes === 2) count++;
        dashes = 0;
      }
    }
    this.dashes = dashes;
    this.count = count;
    return count;
  }
}

/** The timing lines of a whole file. */
export const countCueTimings = (bytes: Uint8Array): number => new CueCounter().push(bytes);
