/**
 * Splitting a long speech WAV at its quietest moments (pure apart from the file I/O at the end), so the offline
 * recogniser, which uses one core, can run on several parts at once. Cuts fall in the quietest 200 ms window near
 * each even split point, so no word is cut in two; each part's word times are shifted back by its offset.
 */
import { readFile, writeFile } from "node:fs/promises";

export interface PcmWav {
  sampleRate: number;
  /** Mono 16-bit samples. */
  samples: Int16Array;
}

/** Reads a mono 16-bit PCM WAV (RIFF chunks walked, so a LIST chunk before `data` is fine); null otherwise. */
export const parsePcmWav = (bytes: Uint8Array): PcmWav | null => {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  if (bytes.length < 12 || tag(0) !== "RIFF" || tag(8) !== "WAVE") return null;
  let sampleRate = 0;
  let pcm16Mono = false;
  for (let at = 12; at + 8 <= bytes.length;) {
    const id = tag(at);
    const size = view.getUint32(at + 4, true);
    const body = at + 8;
    if (id === "fmt ") {
      pcm16Mono =
        view.getUint16(body, true) === 1 &&
        view.getUint16(body + 2, true) === 1 &&
        view.getUint16(body + 14, true) === 16;
      sampleRate = view.getUint32(body + 4, true);
    } else if (id === "data") {
      if (!pcm16Mono || sampleRate === 0) return null;
      const end = Math.min(bytes.length, body + size);
      const copy = bytes.slice(body, body + ((end - body) & ~1));
      return { sampleRate, samples: new Int16Array(copy.buffer, copy.byteOffset, copy.byteLength / 2) };
    }
    at = body + size + (size & 1);
  }
  return null;
};

/** A mono 16-bit PCM WAV file of `samples`. */
export const pcmWav = (sampleRate: number, samples: Int16Array): Uint8Array => {
  const out = new Uint8Array(44 + samples.byteLength);
  const view = new DataView(out.buffer);
  const ascii = (at: number, s: string) => [...s].forEach((c, i) => (out[at + i] = c.charCodeAt(0)));
  ascii(0, "RIFF");
  view.setUint32(4, 36 + samples.byteLength, true);
  ascii(8, "WAVE");
  ascii(12, "fmt ");
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  ascii(36, "data");
  view.setUint32(40, samples.byteLength, true);
  out.set(new Uint8Array(samples.buffer, samples.byteOffset, samples.byteLength), 44);
  return out;
};

/**
 * Sample indexes at which to cut `samples` into `parts` parts (pure): for each even split point, the start of the
 * quietest 200 ms window within ±`searchSeconds` of it (its middle is the cut).
 */
export const quietCuts = (wav: PcmWav, parts: number, searchSeconds = 3): number[] => {
  const { samples, sampleRate } = wav;
  const win = Math.round(sampleRate * 0.2);
  const cuts: number[] = [];
  for (let k = 1; k < parts; k++) {
    const target = Math.round((samples.length * k) / parts);
    const from = Math.max(cuts.at(-1) ?? 0, target - searchSeconds * sampleRate);
    const to = Math.min(samples.length - win, target + searchSeconds * sampleRate);
    let best = target;
    let bestEnergy = Number.POSITIVE_INFINITY;
    for (let at = from; at <= to; at += Math.round(win / 4)) {
      let energy = 0;
      for (let i = at; i < at + win; i++) energy += samples[i]! * samples[i]!;
      if (energy < bestEnergy) {
        bestEnergy = energy;
        best = at + Math.round(win / 2);
      }
    }
    cuts.push(best);
  }
  return cuts;
};

/** Writes the parts of the WAV at `path` as `<path>.partN.wav`; returns each part's path and start in seconds. */
export const splitWav = async (
  path: string,
  parts: number,
): Promise<{ path: string; offset: number }[] | null> => {
  const wav = parsePcmWav(new Uint8Array(await readFile(path)));
  if (!wav) return null;
  const bounds = [0, ...quietCuts(wav, parts), wav.samples.length];
  const out: { path: string; offset: number }[] = [];
  for (let k = 0; k < parts; k++) {
    const part = `${path}.part${k}.wav`;
    await writeFile(part, pcmWav(wav.sampleRate, wav.samples.subarray(bounds[k], bounds[k + 1])));
    out.push({ path: part, offset: bounds[k]! / wav.sampleRate });
  }
  return out;
};
