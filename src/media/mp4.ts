/**
 * Duration of an ISO-BMFF file (mp4, m4a, mov, 3gp) as ffprobe reports it.
 *
 * ffmpeg's mov demuxer sets the format duration from the movie header: `mvhd.duration` rescaled from
 * `mvhd.timescale` to microseconds (mov.c, mov_read_mvhd). The movie duration already includes the tracks'
 * edit lists (it is the presentation length), and the stream durations never override it
 * (update_stream_timings only fills a format duration that is still unset). Fragmented files (an `mvex`
 * box) take their length from the fragments instead, so those go to ffprobe.
 */
import type { ByteSource } from "./byte-source.ts";
import { boxAt, MAX_MOOV_BYTES, moovDurationUs } from "@media-render/contract/media/mp4-header";

/** Walks the top-level boxes to `moov` (before or after `mdat`) and returns the duration in microseconds. */
export const mp4DurationUs = async (src: ByteSource): Promise<number | null> => {
  for (let at = 0; at + 8 <= src.size;) {
    const head = await src.read(at, 16);
    const box = boxAt(head, 0, src.size - at);
    if (!box) return null;
    if (box.type === "moov") {
      const length = box.end - box.start;
      if (length > MAX_MOOV_BYTES || at + box.end > src.size) return null;
      return moovDurationUs(await src.read(at + box.start, length));
    }
    at += box.end;
  }
  return null;
};
