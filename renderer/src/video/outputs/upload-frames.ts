/**
 * The job's poster and thumbnails, written from the finished output (frames.ts) and stored at the request's
 * upload URLs (`output.poster`, `output.thumbnails`), before the video itself, so a completed job has them all.
 */
import { basename } from "node:path";
import type { RenderVideoRequest } from "@media-render/contract/wire";
import type { Identity } from "../../lib/run-as.ts";
import { uploadFile, uploadText } from "../delivery.ts";
import { writeFrames, type RenderedVideo } from "./frames.ts";

/** Writes and uploads the frames `job` asks for (nothing when its request has no frame URLs). */
export const deliverFrames = async (
  job: RenderVideoRequest,
  video: RenderedVideo,
  options: {
    ffmpegPath: string;
    workDir: string;
    signal?: AbortSignal;
    onSpawn?: (pid: number) => void;
    user?: Identity | null;
  },
): Promise<void> => {
  const urls = job.output;
  const config = {
    poster: urls.poster ? job.config.poster : undefined,
    thumbnails: urls.thumbnails ? job.config.thumbnails : undefined,
  };
  const spriteUrl = urls.thumbnails?.sprite;
  const spriteName = spriteUrl ? basename(new URL(spriteUrl).pathname) : undefined;
  const files = await writeFrames(config, video, { ...options, spriteName });
  const uploads: Promise<unknown>[] = [];
  if (files.poster && urls.poster)
    uploads.push(uploadFile(urls.poster, files.poster.path, files.poster.ext, options.signal));
  const thumbs = files.thumbnails;
  if (thumbs && urls.thumbnails) {
    // The Worker signed one URL per frame it expects; a shorter video than planned writes fewer.
    thumbs.frames.forEach((frame, i) => {
      const url = urls.thumbnails!.frames[i];
      if (url) uploads.push(uploadFile(url, frame.path, thumbs.ext, options.signal));
    });
    if (thumbs.sprite && spriteUrl) {
      uploads.push(uploadFile(spriteUrl, thumbs.sprite.path, thumbs.ext, options.signal));
      if (urls.thumbnails.vtt)
        uploads.push(uploadText(urls.thumbnails.vtt, thumbs.sprite.vtt, "vtt", options.signal));
    }
  }
  await Promise.all(uploads);
};
