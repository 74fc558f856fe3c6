/**
 * One frame of a video config at a time on its timeline, drawn by the service's renderer.
 *
 * The service has no still-frame endpoint yet (issue 33 adds one). Until then `renderFrame` makes the frame from a
 * real job through the public API: the clips the playhead is in (both, inside a transition), as a `fast` video
 * (the renderer's preview mode: ~250x250 pixels of area, at most 15 fps), without audio; the frame is then taken
 * from that short video in the browser. Moving the playhead inside the same clips costs no new job: the video is
 * kept (FRAMES_KEPT windows). When the still-frame call exists, it replaces the body of `renderFrame` and the
 * window logic; callers do not change.
 *
 * A stand-in's limits: global layers are cut to the window (one that started before it starts with it, so a fade
 * it was in the middle of restarts), and each frame preview is a job charged like any other.
 */
import { isObject, type JsonObject } from "../model/paths.ts";
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

interface Window {
  config: JsonObject;
  /** Where the window starts on the whole video's timeline (seconds). */
  offset: number;
}

/** The part of `config` that draws the frame at `time`: the clips playing then, as a fast video without audio. */
export const frameWindow = (config: JsonObject, time: number): Window => {
  const clips = Array.isArray(config.clips) ? (config.clips as JsonObject[]) : [];
  const timeline = buildTimeline(config as never);
  const playing = timeline.clips
    .map((c, i) => ({ ...c, i }))
    .filter((c) => c.start <= time && time < c.start + c.duration);
  const first = playing[0]?.i ?? Math.max(0, clips.length - 1);
  const last = playing.at(-1)?.i ?? first;
  const offset = timeline.clips[first]?.start ?? 0;
  const end = (timeline.clips[last]?.start ?? 0) + (timeline.clips[last]?.duration ?? 0);
  const globals = (Array.isArray(config.globalLayers) ? config.globalLayers : [])
    .filter(isObject)
    .flatMap((layer) => {
      const start = typeof layer.start === "number" ? layer.start : 0;
      const stop = typeof layer.stop === "number" ? layer.stop : timeline.duration;
      if (stop <= offset || start >= end) return [];
      return [{ ...layer, start: Math.max(0, start - offset), stop: Math.min(end, stop) - offset }];
    });
  const { audioTracks: _a, audioFilePath: _b, autoSubtitles: _c, autoSubtitlesStyle: _d, ...rest } = config;
  return {
    offset,
    config: {
      ...rest,
      clips: clips.slice(first, last + 1),
      ...(globals.length ? { globalLayers: globals } : {}),
      keepSourceAudio: false,
      fast: true,
    },
  };
};

const FRAMES_KEPT = 4;
const videos = new Map<string, Promise<{ blob: Blob; jobId: string }>>();

const frameOf = async (video: Blob, at: number): Promise<{ blob: Blob; width: number; height: number }> => {
  const url = URL.createObjectURL(video);
  try {
    const el = document.createElement("video");
    el.muted = true;
    el.preload = "auto";
    el.src = url;
    await new Promise((resolve, reject) => {
      el.onloadeddata = resolve;
      el.onerror = () => reject(new Error("The preview video could not be decoded"));
    });
    // Inside the last frame, not past the end.
    el.currentTime = Math.min(Math.max(0, at), Math.max(0, el.duration - 0.04));
    await new Promise((resolve) => (el.onseeked = resolve));
    const canvas = document.createElement("canvas");
    canvas.width = el.videoWidth;
    canvas.height = el.videoHeight;
    canvas.getContext("2d")!.drawImage(el, 0, 0);
    const blob = await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob((b) => (b ? resolve(b) : reject(new Error("No frame"))), "image/png"),
    );
    return { blob, width: canvas.width, height: canvas.height };
  } finally {
    URL.revokeObjectURL(url);
  }
};

/** The frame of `doc` (a video job) at `time` seconds, drawn by the service. */
export const renderFrame = async (
  doc: Doc,
  time: number,
  onProgress: (progress: JobProgress) => void = () => undefined,
  signal?: AbortSignal,
): Promise<FramePreview> => {
  const window = frameWindow(doc.config, time);
  const key = JSON.stringify(window.config);
  let video = videos.get(key);
  if (!video) {
    video = runJob({ type: "video", config: window.config }, onProgress, signal).then(async (done) => {
      const res = await fetch(done.outputUrl, { credentials: "same-origin" });
      if (!res.ok) throw new Error(`The preview video could not be downloaded (${res.status})`);
      return { blob: await res.blob(), jobId: done.job.id };
    });
    videos.set(key, video);
    video.catch(() => videos.delete(key));
    while (videos.size > FRAMES_KEPT) videos.delete(videos.keys().next().value!);
  }
  const { blob, jobId } = await video;
  const frame = await frameOf(blob, time - window.offset);
  return { url: URL.createObjectURL(frame.blob), time, width: frame.width, height: frame.height, jobId };
};
