/**
 * `image` (full frame or box, resizeMode, Ken Burns on by default) and `image-overlay`
 * (sized by width or height, positioned, optional zoom). The still is decoded and resized ONCE;
 * per frame there is only zoompan or a frame copy.
 */
import type { GraphContext, LayerVideo, LayerWindow } from "../graph-context.ts";
import { placeBox } from "../position.ts";
import type { Layer, LayerOf, MediaInfo } from "../types.ts";
import { evenDimension } from "@media-render/contract/geometry";
import { isKeyframed, type Keyframe } from "@media-render/contract/keyframes";
import { isPictureDemuxer } from "../../probe/demuxers.ts";
import { clamp, ffNumber } from "../values.ts";
import { isPan, panCrop, zoomAmount, zoomDirection, zoompanFilter, type ZoomDirection } from "./ken-burns.ts";
import { playSegment } from "./playback.ts";
import { resizeInto, type ResizeMode } from "./resize.ts";
import { laidOut } from "./sizes.ts";

/**
 * An image-overlay's `width`/`height` as fractions of the frame: JsonCut takes either a fraction (up to 1) or
 * pixels of the configured frame (above 1), so a preview scales pixel sizes like every other size.
 */
export const overlayFractions = (layer: Layer, frameWidth: number, frameHeight: number): Layer => {
  if (layer.type !== "image-overlay") return layer;
  const fraction = (value: number, side: number) => (value > 1 ? value / side : value);
  // Keyframed sizes (issue 45 §1) are read value by value: each may be a fraction or pixels.
  const each = (value: number | Keyframe[] | undefined, side: number): number | Keyframe[] | undefined =>
    value === undefined
      ? undefined
      : isKeyframed(value)
        ? value.map((k) => ({ ...k, value: fraction(k.value, side) }))
        : fraction(value, side);
  return { ...layer, width: each(layer.width, frameWidth), height: each(layer.height, frameHeight) };
};

/**
 * Oversampling of stills under zoompan, which draws the zooms in and out (pans are crops: panCrop in
 * ken-burns.ts). zoompan's per-frame bicubic resize is most of a Ken Burns layer's cost (~19 M
 * instructions per 720p frame at 1.5, ~11 M at 1); lower values move further from an exact zoom (720p
 * photo, median PSNR-Y against zoompan at 3x in yuv444p: 23.2 dB at 1, 24.2 at 1.25, 25.3 at 1.5, 27.8 at 2).
 */
export const OVERSAMPLE = 1.5;

/**
 * Filters that show a still the way its EXIF orientation (1–8) says: 2–4 flip or turn it half, 5–8
 * turn it a quarter (5 and 7 mirrored). The input is opened with -noautorotate so this is the only turn.
 */
export const orientationFilter = (orientation: number): string => {
  const filters = [
    "",
    "",
    "hflip",
    "hflip,vflip",
    "vflip",
    "transpose=0",
    "transpose=1",
    "transpose=3",
    "transpose=2",
  ];
  return filters[orientation] ?? "";
};

/**
 * `-lowres n` for a JPEG at least 2^n times the size it is drawn at: the decoder then skips the
 * detail the resize would throw away (a 12-megapixel photo decodes in ~60 % of the time at n = 1).
 */
export const jpegLowres = (info: MediaInfo, w: number, h: number): string[] => {
  if (info.videoCodec !== "mjpeg") return [];
  let lowres = 0;
  while (
    lowres < 3 &&
    Math.floor(info.width / 2 ** (lowres + 1)) >= w &&
    Math.floor(info.height / 2 ** (lowres + 1)) >= h
  )
    lowres++;
  return lowres ? ["-lowres", String(lowres)] : [];
};

const still = (
  ctx: GraphContext,
  layer: LayerOf<"image" | "image-overlay">,
  win: LayerWindow,
  box: { w: number; h: number; x: number; y: number },
  mode: ResizeMode,
  zoomFallback: ZoomDirection | null,
): LayerVideo | null => {
  const path = layer.path;
  const info = ctx.mediaInfo(path);
  if (!info) return null;
  const dir = zoomDirection(layer.zoomDirection, zoomFallback);
  const amount = zoomAmount(layer.zoomAmount);
  const frameTime = "frameTime" in layer ? layer.frameTime : undefined;
  const moving = isAnimated(info);
  if (moving && frameTime === undefined) return animated(ctx, layer, win, box, mode, { dir, amount }, info);
  // A frame past the end of the file: nothing to show (like a video layer's cut there).
  if (moving && frameTime !== undefined && frameTime >= info.duration) return null;
  const frame = moving && frameTime !== undefined ? frameOf(info, frameTime, ctx.spec.fps) : null;
  const pan = isPan(dir) ? panCrop(dir, amount, win.frames, box.w, box.h, win.skip) : null;
  const need =
    pan ?? (dir ? { w: evenDimension(box.w * OVERSAMPLE), h: evenDimension(box.h * OVERSAMPLE) } : box);
  // ffmpeg turns a JPEG by its EXIF rotation but ignores the mirrored orientations: the graph does all.
  const turn = info.orientation !== 1 ? ["-noautorotate"] : [];
  const input = ctx.stillInput(info.demuxer, path, [
    ...turn,
    ...(frame?.options ?? jpegLowres(info, need.w, need.h)),
  ]);
  const alpha = info.hasAlpha || mode === "contain";
  const fmt = alpha ? "yuva420p" : "yuv420p";
  const label = ctx.label("img");
  const resized = resizeInto(
    ctx,
    `${input}:v`,
    frame?.pre ?? orientationFilter(info.orientation),
    mode,
    need.w,
    need.h,
    info,
  );
  const motion = pan
    ? `loop=loop=${win.drawn - 1}:size=1,${pan.crop}`
    : dir
      ? `${zoompanFilter(dir, amount, win.frames, box.w, box.h, ctx.spec.fps, win)},format=${fmt}`
      : `loop=loop=${win.drawn - 1}:size=1`;
  ctx.chain(`[${resized}]format=${fmt},${motion},${ctx.retimeLayer(win)}[${label}]`);
  const full = box.w === ctx.spec.width && box.h === ctx.spec.height && box.x === 0 && box.y === 0;
  return { label, x: box.x, y: box.y, w: box.w, h: box.h, coversFrame: full && !alpha };
};

/**
 * A moving picture: an animated GIF, PNG or WebP (made an animated PNG on download, animated-webp.ts), or a video
 * (by its storage path): frames that last, a length.
 */
export const isAnimated = (info: MediaInfo): boolean => info.hasVideo && info.duration > 0;

/**
 * The one frame of a moving picture that `frameTime` names, as input options and the filters before the resize: of
 * a video, the first frame a video layer cut from `seconds` draws (an exact seek there, its frames on the render's
 * grid); of an animated picture, the frame it draws at the layer's frame nearest `seconds` (read from its start:
 * ffmpeg's exact seek would drop the frame on screen at `seconds`), its last frame where rounding passes its end.
 */
export const frameOf = (
  info: MediaInfo,
  seconds: number,
  fps: number,
): { options: string[]; pre: string } => {
  if (!isPictureDemuxer(info.demuxer))
    return { options: ["-ss", ffNumber(seconds)], pre: `fps=${fps}:start_time=0,trim=end_frame=1` };
  const k = Math.round(seconds * fps);
  return {
    options: [],
    pre: `fps=${fps}:start_time=0,tpad=stop_mode=clone:stop=-1,trim=start_frame=${k}:end_frame=${k + 1}`,
  };
};

/**
 * An animated picture plays from the layer's start at its own frame timing (each frame for its delay), looping
 * unless `loop` is false (then its last frame holds), resized once per frame of the file (playback.ts).
 */
const animated = (
  ctx: GraphContext,
  layer: LayerOf<"image" | "image-overlay">,
  win: LayerWindow,
  box: { w: number; h: number; x: number; y: number },
  mode: ResizeMode,
  zoom: { dir: ZoomDirection | null; amount: number },
  info: MediaInfo,
): LayerVideo => {
  const seg = { cutFrom: 0, length: info.duration, speed: 1, loop: layer.loop ?? true };
  const alpha = info.hasAlpha || mode === "contain";
  const played = playSegment(
    ctx,
    {
      path: layer.path,
      info,
      seg,
      decoder: [],
      seek: !isPictureDemuxer(info.demuxer),
      box,
      mode,
      zoom,
      fmt: alpha ? "yuva420p" : "yuv420p",
      prefix: "img",
    },
    win,
  );
  const full = box.w === ctx.spec.width && box.h === ctx.spec.height && box.x === 0 && box.y === 0;
  return { label: played.label, x: box.x, y: box.y, w: box.w, h: box.h, coversFrame: full && !alpha };
};

/** `image`: JC default resizeMode cover, Ken Burns `in` unless zoomDirection is null. */
export const image = (layer: LayerOf<"image">, win: LayerWindow, ctx: GraphContext): LayerVideo | null => {
  const { width: W, height: H } = ctx.spec;
  // A keyframed size is laid out at the largest it reaches; layers/motion.ts resizes it along its keyframes.
  const w = evenDimension(clamp(laidOut(layer.width ?? 1), 0.01, 1) * W);
  const h = evenDimension(clamp(laidOut(layer.height ?? 1), 0.01, 1) * H);
  const { x, y } = w === W && h === H ? { x: 0, y: 0 } : placeBox(layer, W, H, w, h);
  return still(ctx, layer, win, { w, h, x, y }, layer.resizeMode ?? "cover", "in");
};

/** `image-overlay`: width (or height) as a fraction of the frame, aspect kept, centred by default. */
export const imageOverlay = (
  layer: LayerOf<"image-overlay">,
  win: LayerWindow,
  ctx: GraphContext,
): LayerVideo | null => {
  const { width: W, height: H } = ctx.spec;
  const info = ctx.mediaInfo(layer.path);
  if (!info) return null;
  const aspect = info.width / Math.max(1, info.height);
  const fw = layer.width === undefined ? undefined : laidOut(layer.width);
  const fh = layer.height === undefined ? undefined : laidOut(layer.height);
  const w = evenDimension(fw !== undefined ? fw * W : fh !== undefined ? fh * H * aspect : W);
  const h = evenDimension(w / aspect);
  const { x, y } = placeBox(layer, W, H, w, h);
  return still(ctx, layer, win, { w, h, x, y }, "stretch", null);
};
