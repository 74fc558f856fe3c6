/**
 * Duration of a PCM WAV file as ffprobe reports it (wavdec.c): sample count = data bytes x 8 /
 * (channels x bits per sample), in the stream time base 1/sample rate. Compressed WAV payloads go to ffprobe.
 */
import type { ByteSource } from "./byte-source.ts";
import { ascii, u16le, u32le } from "./bytes.ts";
import { ticksToUs } from "@media-render/contract/media/rescale";

const PCM = 1;
const IEEE_FLOAT = 3;
const EXTENSIBLE = 0xfffe;

/** Duration in microseconds, or null. */
export const wavDurationUs = async (src: ByteSource): Promise<number | null> => {
  const bytes = await src.read(0, 64 * 1024);
  if (ascii(bytes, 0, 4) !== "RIFF" || ascii(bytes, 8, 4) !== "WAVE") return null;
  let fmt: { format: number; channels: number; rate: number; bits: number } | null = null;
  for (let at = 12; at + 8 <= bytes.byteLength;) {
    const id = ascii(bytes, at, 4);
    const size = u32le(bytes, at + 4);
    if (id === "fmt ") {
      let format = u16le(bytes, at + 8);
      if (format === EXTENSIBLE && size >= 40) format = u16le(bytes, at + 8 + 24); // SubFormat GUID's first word
      fmt = {
        format,
        channels: u16le(bytes, at + 10),
        rate: u32le(bytes, at + 12),
        bits: u16le(bytes, at + 22),
      };
    }
    if (id === "data") {
      if (!fmt || (fmt.format !== PCM && fmt.format !== IEEE_FLOAT)) return null;
      if (!fmt.channels || !fmt.bits || !fmt.rate || fmt.bits % 8) return null;
      // A size past the end of the file (streamed WAV) makes ffmpeg estimate instead: leave it to ffprobe.
      if (at + 8 + size > src.size) return null;
      const samples = Math.floor((size * 8) / (fmt.channels * fmt.bits));
      return ticksToUs(samples, fmt.rate);
    }
    at += 8 + size + (size & 1);
  }
  return null;
};
