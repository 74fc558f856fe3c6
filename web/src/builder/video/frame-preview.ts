/**
 * One frame of a video config at a time on its timeline, drawn by the service's renderer: a `still` job
 * (docs/outputs.md), the frame exactly as the video shows it at that time, in the renderer's preview mode (`fast`:
 * about 250x250 pixels of area), so a playhead move costs one small image job. The last FRAMES_KEPT frames are kept:
 * going back to a frame already drawn costs nothing.
 *
 * What the frame leaves out: the audio (nothing to see, and speech or music would only cost time) and captions
 * transcribed by autoSubtitles (a transcription per frame would be slow and charged); captions from a file stay, drawn
 * in their `autoSubtitlesStyle` (a preset such as karaoke shows the frame's state of it). The outputs a still cannot
 * have (another format, alpha, posters, thumbnails, a preview range) are dropped.
 */
import type { JsonObject } from "../model/paths.ts";
import type { Doc } from "../model/store.ts";
import { runJob, type JobProgress } from "../jobs/run-job.ts";
import { buildTimeline } from "../service-code.ts";

export interface FramePreview {
  /** An object URL of the frame (PNG). */
  url: string;
  /** Seconds on the video's timeline. */
  time: number;
  width: number;
  height: number;
  /** The job that drew it. */
  jobId: string;
}

/** What a frame does not draw (audio, transcribed captions) or a still cannot have (other outputs). */
const LEFT_OUT = [
  ...["audioTracks", "audioFilePath", "autoSubtitles", "autoSubtitlesStyle", "ducking"],
  ...["format", "outPath", "alpha", "gif", "poster", "thumbnails", "preview", "still"],
];

/** The config of the still job that draws `config`'s frame at `time` (clamped inside the video). */
export const stillConfig = (config: JsonObject, time: number): JsonObject => {
  const duration = buildTimeline(config as never).duration;
  const at = Math.max(0, Math.min(time, duration - 0.05));
  const rest = { ...config };
  for (const key of LEFT_OUT)
    if (key !== "autoSubtitlesStyle" || config.captionsFile === undefined) delete rest[key];
  return { ...rest, keepSourceAudio: false, fast: true, still: { time: Math.round(at * 1000) / 1000 } };
};

const FRAMES_KEPT = 8;
const frames = new Map<string, Promise<{ blob: Blob; jobId: string }>>();

/** The frame of `doc` (a video job) at `time` seconds, drawn by the service. */
export const renderFrame = async (
  doc: Doc,
  time: number,
  onProgress: (progress: JobProgress) => void = () => undefined,
  signal?: AbortSignal,
): Promise<FramePreview> => {
  const config = stillConfig(doc.config, time);
  const key = JSON.stringify(config);
  let frame = frames.get(key);
  if (!frame) {
    frame = runJob({ type: "video", config }, onProgress, signal).then(async (done) => {
      const res = await fetch(done.outputUrl, { credentials: "same-origin" });
      if (!res.ok) throw new Error(`The frame could not be downloaded (${res.status})`);
      return { blob: await res.blob(), jobId: done.job.id };
    });
    frames.set(key, frame);
    frame.catch(() => frames.delete(key));
    while (frames.size > FRAMES_KEPT) frames.delete(frames.keys().next().value!);
  }
  const { blob, jobId } = await frame;
  const bitmap = await createImageBitmap(blob);
  const { width, height } = bitmap;
  bitmap.close();
  return { url: URL.createObjectURL(blob), time, width, height, jobId };
};
