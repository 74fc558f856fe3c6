/**
 * What an ISO-BMFF file (mp4, m4a, mov, 3gp) holds, read from its tracks rather than its `ftyp` brand:
 * ffmpeg and most tools write the generic `isom` brand for audio-only files too, so the brand alone
 * calls an `.m4a` a video. The handler of each `trak` (`mdia/hdlr`: `vide`, `soun`) decides.
 * Pure; the Worker feeds it the `moov` it captured while the upload streamed (ingest.ts).
 */
import { boxAt } from "./mp4-header.ts";

export interface IsoTracks {
  video: boolean;
  audio: boolean;
}

const type = (b: Uint8Array, i: number) => String.fromCharCode(...b.subarray(i, i + 4));

const childrenOf = (bytes: Uint8Array, start: number, end: number) => {
  const out = [];
  for (let box = boxAt(bytes, start, end); box && box.end <= end; box = boxAt(bytes, box.end, end))
    out.push(box);
  return out;
};

/** Track kinds of a `moov` payload: each `trak`'s `mdia/hdlr` handler type (QuickTime's `mhlr` too). */
export const moovTracks = (moov: Uint8Array): IsoTracks => {
  const tracks = { video: false, audio: false };
  for (const trak of childrenOf(moov, 0, moov.length).filter((x) => x.type === "trak")) {
    const mdia = childrenOf(moov, trak.start, trak.end).find((x) => x.type === "mdia");
    const hdlr = mdia && childrenOf(moov, mdia.start, mdia.end).find((x) => x.type === "hdlr");
    // hdlr: version/flags (4), pre_defined or QuickTime component type (4), handler type (4).
    const handler = hdlr ? type(moov, hdlr.start + 8) : "";
    if (handler === "vide") tracks.video = true;
    if (handler === "soun") tracks.audio = true;
  }
  return tracks;
};

/** Largest `moov` kept for classification; a bigger one is a long video's (only video has such tables). */
export const MAX_CLASSIFY_MOOV_BYTES = 8 * 1024 * 1024;

/**
 * Follows the top-level boxes of a stream chunk by chunk and keeps the `moov` payload wherever it lies
 * (before `mdat` in a fast-start file, after it as ffmpeg writes by default).
 */
export class MoovTap {
  #next = 0;
  #pending = new Uint8Array(0);
  #pendingAt = 0;
  #moov: Uint8Array | null = null;
  #moovAt = -1;
  #filled = 0;
  #done = false;
  /** True once the top-level walk met something it cannot follow (then `moov()` is null). */
  lost = false;

  /** Feeds the bytes at `offset` (chunks in order, without gaps). */
  push(chunk: Uint8Array, offset: number): void {
    if (this.#done || this.lost) return;
    const end = offset + chunk.length;
    if (this.#moov) this.#copyMoov(chunk, offset);
    while (!this.#done && !this.lost && !this.#moov && this.#next < end) {
      // Gather the box header (8 or 16 bytes), which may straddle chunks.
      if (this.#pending.length === 0) {
        this.#pendingAt = this.#next;
        if (this.#next < offset) {
          this.lost = true;
          return;
        }
      }
      const from = this.#pendingAt + this.#pending.length - offset;
      const take = chunk.subarray(from, Math.min(chunk.length, from + 16 - this.#pending.length));
      const head = new Uint8Array(this.#pending.length + take.length);
      head.set(this.#pending);
      head.set(take, this.#pending.length);
      const box = boxAt(head, 0, Number.MAX_SAFE_INTEGER);
      const needs = head.length >= 8 && new DataView(head.buffer).getUint32(0) === 1 ? 16 : 8;
      if (head.length < needs || !box) {
        if (head.length >= 16) this.lost = true;
        this.#pending = head;
        return;
      }
      this.#pending = new Uint8Array(0);
      const headerLen = box.start;
      if (box.type === "moov") {
        const length = box.end - box.start;
        if (length > MAX_CLASSIFY_MOOV_BYTES || box.end === Number.MAX_SAFE_INTEGER) {
          this.lost = true;
          return;
        }
        this.#moov = new Uint8Array(length);
        this.#moovAt = this.#pendingAt + headerLen;
        this.#copyMoov(chunk, offset);
        return;
      }
      if (box.end === Number.MAX_SAFE_INTEGER) {
        this.#done = true; // a size-0 box runs to the end of the file
        return;
      }
      this.#next = this.#pendingAt + box.end;
    }
  }

  #copyMoov(chunk: Uint8Array, offset: number): void {
    const moov = this.#moov!;
    const from = Math.max(this.#moovAt, offset);
    const to = Math.min(this.#moovAt + moov.length, offset + chunk.length);
    if (to <= from) return;
    moov.set(chunk.subarray(from - offset, to - offset), from - this.#moovAt);
    this.#filled += to - from;
    if (this.#filled === moov.length) this.#done = true;
  }

  /** The whole `moov` payload, once it has streamed past; null before, or when it was not found. */
  moov(): Uint8Array | null {
    return this.#moov && this.#filled === this.#moov.length ? this.#moov : null;
  }
}

/** ISO-BMFF brands that mean audio-only MPEG-4. */
const AUDIO_BRANDS = new Set(["M4A ", "M4B ", "M4P ", "F4A "]);

/**
 * The kind of an ISO-BMFF file from its first bytes (`ftyp`) and, when known, its tracks: any video track
 * makes a video (QuickTime for a `qt  ` brand, else MP4), sound alone makes audio (`m4a`); unknown tracks
 * fall back to the brand (`M4A ` and kin: audio).
 */
export const isoKind = (head: Uint8Array, tracks: IsoTracks | null): "m4a" | "mov" | "mp4" => {
  const brand = type(head, 8);
  const qt = brand.startsWith("qt");
  if (tracks?.video) return qt ? "mov" : "mp4";
  if (tracks?.audio) return "m4a";
  return AUDIO_BRANDS.has(brand) ? "m4a" : qt ? "mov" : "mp4";
};

/** The tracks of an ISO-BMFF file whose `moov` lies inside `bytes` (a fast-start file's head), else null. */
export const isoTracksIn = (bytes: Uint8Array): IsoTracks | null => {
  const tap = new MoovTap();
  tap.push(bytes, 0);
  const moov = tap.moov();
  return moov ? moovTracks(moov) : null;
};
