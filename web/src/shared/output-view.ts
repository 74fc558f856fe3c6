/**
 * How the console and the builder show a job's output: a picture (an image job's, a video job's still or GIF) in an
 * `<img>`, anything else (a video, an audio-only file) in a player. By the format's kind (the contract's
 * output-formats.ts), not the job's type: a video job's still is a PNG or JPEG, its GIF no video a player plays.
 */
import { isPictureFormat } from "@media-render/contract/output-formats";

export const showsAsPicture = (job: { type: string; outputFormat: string }): boolean =>
  job.type === "IMAGE" || isPictureFormat(job.outputFormat);
