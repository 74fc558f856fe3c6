/**
 * Parts of a speech WAV (16 kHz mono 16-bit PCM): the quietest moment near a point (a cut that falls in a pause, so
 * no word is cut in two), and a span of samples written as a WAV of its own. The file is read by offset, never
 * whole: an hour's mix is 115 MB, and a render reads only the seconds it searches and the parts it transcribes.
 */
import { open, writeFile, type FileHandle } from "node:fs/promises";

export interface PcmWav {
  sampleRate: number;
  /** Mono 16-bit samples. */
  samples: Int16Array;
}

/** A mono 16-bit PCM WAV's layout: where its samples are in the file and how many. */
interface WavLayout {
  sampleRate: number;
  /** Byte offset of the first sample. */
  dataOffset: number;
  /** Samples in the file (the data chunk's, at most what the file holds). */
  length: number;
}

/** The RIFF chunks of `head` (the file's first bytes) walked to `data`; null unless mono 16-bit PCM (pure). */
const wavLayout = (head: Uint8Array, fileSize: number): WavLayout | null => {
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const tag = (at: number) => String.fromCharCode(...head.subarray(at, at + 4));
  if (head.length < 12 || tag(0) !== "RIFF" || tag(8) !== "WAVE") return null;
  let sampleRate = 0;
  let pcm16Mono = false;
  for (let at = 12; at + 8 <= head.length;) {
    const id = tag(at);
    const size = view.getUint32(at + 4, true);
    const body = at + 8;
    if (id === "fmt " && body + 16 <= head.length) {
      pcm16Mono =
        view.getUint16(body, true) === 1 &&
        view.getUint16(body + 2, true) === 1 &&
        view.getUint16(body + 14, true) === 16;
      sampleRate = view.getUint32(body + 4, true);
    } else if (id === "data") {
      if (!pcm16Mono || sampleRate === 0) return null;
      return { sampleRate, dataOffset: body, length: Math.floor(Math.min(size, fileSize - body) / 2) };
    }
    at = body + size + (size & 1);
  }
  return null;
};

/** Reads a mono 16-bit PCM WAV held in memory (RIFF chunks walked: a LIST chunk before `data` is fine); or null. */
export const parsePcmWav = (bytes: Uint8Array): PcmWav | null => {
  const layout = wavLayout(bytes, bytes.length);
  if (!layout) return null;
  const { dataOffset, length } = layout;
  const copy = bytes.slice(dataOffset, dataOffset + length * 2);
  return { sampleRate: layout.sampleRate, samples: new Int16Array(copy.buffer, copy.byteOffset, length) };
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

/** The window whose energy a cut looks at: 200 ms, moved 50 ms at a time. */
const QUIET_WINDOW_SECONDS = 0.2;

/**
 * The sample index of the quietest moment of `samples` (the middle of its quietest 200 ms window, the first such
 * when several tie, stepping 50 ms from the start); `offset` is added (pure). Fewer samples than a window: the
 * middle of those there are.
 */
export const quietestMoment = (samples: Int16Array, sampleRate: number, offset = 0): number => {
  const win = Math.round(sampleRate * QUIET_WINDOW_SECONDS);
  if (samples.length <= win) return offset + Math.floor(samples.length / 2);
  const step = Math.round(win / 4);
  let best = 0;
  let bestEnergy = Number.POSITIVE_INFINITY;
  for (let at = 0; at + win <= samples.length; at += step) {
    let energy = 0;
    for (let i = at; i < at + win; i++) energy += samples[i]! * samples[i]!;
    if (energy < bestEnergy) {
      bestEnergy = energy;
      best = at + Math.round(win / 2);
    }
  }
  return offset + best;
};

/** A speech WAV on disk, read by offset. */
export interface WavFile {
  sampleRate: number;
  /** Samples in the file. */
  length: number;
  /** Samples `from` to `to - 1` (clamped to the file). */
  read(from: number, to: number): Promise<Int16Array>;
  /**
   * The quietest moment within `searchSeconds` either side of sample `at` (the window searched ends a quiet window
   * past it, clamped to the file): its sample index.
   */
  quietNear(at: number, searchSeconds: number): Promise<number>;
  /** Writes samples `from` to `to - 1` as a WAV file of their own at `path`. */
  writePart(from: number, to: number, path: string): Promise<void>;
  close(): Promise<void>;
}

/** Opens a mono 16-bit PCM WAV file; throws unless it is one. */
export const openWav = async (path: string): Promise<WavFile> => {
  const handle: FileHandle = await open(path, "r");
  try {
    const { size } = await handle.stat();
    const head = new Uint8Array(Math.min(size, 64 * 1024));
    await handle.read(head, 0, head.length, 0);
    const layout = wavLayout(head, size);
    if (!layout) throw new Error("the speech audio is not a mono 16-bit PCM WAV file");
    const { sampleRate, dataOffset, length } = layout;
    const read = async (from: number, to: number) => {
      const [a, b] = [Math.max(0, from), Math.min(length, to)];
      const bytes = Buffer.alloc(Math.max(0, b - a) * 2);
      if (bytes.length > 0) await handle.read(bytes, 0, bytes.length, dataOffset + a * 2);
      return new Int16Array(bytes.buffer, bytes.byteOffset, bytes.length / 2);
    };
    return {
      sampleRate,
      length,
      read,
      async quietNear(at, searchSeconds) {
        const from = Math.max(0, at - Math.round(searchSeconds * sampleRate));
        const to = at + Math.round((searchSeconds + QUIET_WINDOW_SECONDS) * sampleRate);
        return quietestMoment(await read(from, to), sampleRate, from);
      },
      async writePart(from, to, file) {
        await writeFile(file, pcmWav(sampleRate, await read(from, to)));
      },
      close: () => handle.close(),
    };
  } catch (error) {
    await handle.close();
    throw error;
  }
};
