/**
 * MPEG audio frame headers (layers I-III, MPEG-1/2/2.5), decoded as ffmpeg's
 * avpriv_mpegaudio_decode_header does, including its validity checks (ff_mpa_check_header).
 */

export interface MpaHeader {
  layer: 1 | 2 | 3;
  /** 1 for MPEG-2 and 2.5 ("low sampling frequency"), else 0. */
  lsf: 0 | 1;
  sampleRate: number;
  channels: 1 | 2;
  /** Bits per second; 0 for free-format streams. */
  bitRate: number;
  /** Bytes of the whole frame, header included; 0 for free format. */
  frameSize: number;
}

const FREQS = [44100, 48000, 32000];
// ff_mpa_bitrate_tab[lsf][layer - 1][index], kbit/s.
const BITRATES = [
  [
    [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
    [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
    [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  ],
  [
    [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
    [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
    [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
  ],
];

/** Bits that stay constant across the frames of one stream (ffmpeg's MP3_MASK / SAME_HEADER_MASK). */
export const MP3_MASK = 0xfffe0ccf;

/** Decodes the 32-bit header `h`; null when it is not a valid frame header. */
export const decodeMpaHeader = (h: number): MpaHeader | null => {
  if ((h & 0xffe00000) >>> 0 !== 0xffe00000) return null;
  const layerBits = (h >>> 17) & 3;
  const bitrateIndex = (h >>> 12) & 15;
  const srIndex = (h >>> 10) & 3;
  if (layerBits === 0 || bitrateIndex === 15 || srIndex === 3) return null;
  const layer = (4 - layerBits) as 1 | 2 | 3;
  const mpeg25 = (h & (1 << 20)) === 0 ? 1 : 0;
  const lsf = (mpeg25 ? 1 : (h & (1 << 19)) === 0 ? 1 : 0) as 0 | 1;
  const sampleRate = (FREQS[srIndex] ?? 0) >> (lsf + mpeg25);
  const padding = (h >>> 9) & 1;
  const channels = ((h >>> 6) & 3) === 3 ? 1 : 2;
  const kbps = BITRATES[lsf]![layer - 1]![bitrateIndex]!;
  let frameSize = 0;
  if (kbps !== 0) {
    if (layer === 1) frameSize = (Math.floor((kbps * 12000) / sampleRate) + padding) * 4;
    else if (layer === 2) frameSize = Math.floor((kbps * 144000) / sampleRate) + padding;
    else frameSize = Math.floor((kbps * 144000) / (sampleRate << lsf)) + padding;
  }
  return { layer, lsf, sampleRate, channels, bitRate: kbps * 1000, frameSize };
};

/** Samples per frame: 384 (layer I), 1152 (II), 1152 or 576 (III, by `lsf`). */
export const samplesPerFrame = (h: MpaHeader): number =>
  h.layer === 1 ? 384 : h.layer === 2 ? 1152 : h.lsf ? 576 : 1152;
