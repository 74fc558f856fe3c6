/**
 * Mono 16-bit PCM WAV (pure): read the samples out of a RIFF file, trim silence, and write them back, so a
 * voice can be assembled word by word with exact sample positions.
 */

export interface Pcm {
  sampleRate: number;
  samples: Int16Array;
}

/**
 * The samples of a mono s16 WAV. The `data` chunk may state a size larger than the file (a WAV written to a
 * pipe does not know its length): the rest of the file is then the data.
 */
export const readWav = (bytes: Uint8Array): Pcm => {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  if (bytes.length < 12 || tag(0) !== "RIFF" || tag(8) !== "WAVE") throw new Error("not a WAV file");
  let sampleRate = 0;
  for (let at = 12; at + 8 <= bytes.length;) {
    const size = view.getUint32(at + 4, true);
    if (tag(at) === "fmt ") {
      const channels = view.getUint16(at + 10, true);
      const bits = view.getUint16(at + 22, true);
      if (channels !== 1 || bits !== 16) throw new Error("the voice did not write mono 16-bit audio");
      sampleRate = view.getUint32(at + 12, true);
    } else if (tag(at) === "data") {
      const end = Math.min(bytes.length, at + 8 + size);
      const data = bytes.slice(at + 8, at + 8 + Math.floor((end - at - 8) / 2) * 2);
      return { sampleRate, samples: new Int16Array(data.buffer, data.byteOffset, data.length / 2) };
    }
    at += 8 + size + (size % 2);
  }
  throw new Error("the WAV file has no data");
};

/** The sample range that is not silence (|s| above `threshold`), or null when all of it is. */
export const voicedRange = (samples: Int16Array, threshold = 300): [number, number] | null => {
  let first = 0;
  while (first < samples.length && Math.abs(samples[first]!) <= threshold) first++;
  if (first === samples.length) return null;
  let last = samples.length - 1;
  while (last > first && Math.abs(samples[last]!) <= threshold) last--;
  return [first, last + 1];
};

/** A mono s16 WAV file of `samples`. */
export const wavBytes = (samples: Int16Array, sampleRate: number): Uint8Array => {
  const out = new Uint8Array(44 + samples.length * 2);
  const view = new DataView(out.buffer);
  const ascii = (at: number, s: string) => [...s].forEach((c, i) => (out[at + i] = c.charCodeAt(0)));
  ascii(0, "RIFF");
  view.setUint32(4, 36 + samples.length * 2, true);
  ascii(8, "WAVE");
  ascii(12, "fmt ");
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  ascii(36, "data");
  view.setUint32(40, samples.length * 2, true);
  out.set(new Uint8Array(samples.buffer, samples.byteOffset, samples.length * 2), 44);
  return out;
};
