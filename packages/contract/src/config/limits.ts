/**
 * Every numeric limit and documented default of the render config grammar, in one place. The schemas
 * enforce the limits; docs/security-and-limits.md publishes them; the renderers read the defaults from here instead of
 * hard-coding their own. Sizes are in pixels, times in seconds, lengths in characters unless named *_BYTES.
 */

/** Image canvas: width and height in pixels (integers). */
export const IMAGE_MIN_SIZE = 1;
export const IMAGE_MAX_SIZE = 4096;
/** Layers per image job. */
export const IMAGE_MIN_LAYERS = 1;
export const IMAGE_MAX_LAYERS = 50;
/** JPEG/WebP quality. */
export const IMAGE_MIN_QUALITY = 1;
export const IMAGE_MAX_QUALITY = 100;
/** Largest font size of an image text layer (no published cap; one canvas height is plenty). */
export const IMAGE_MAX_FONT_SIZE = 4096;

/**
 * Video frame size. Any integer in range is accepted (JsonCut's 1..4096); the renderer rounds each side down
 * to an even number, never below 2 (x264/yuv420p need even sizes, so 1 renders as 2), see `evenDimension` in
 * packages/contract/src/geometry.ts.
 */
export const VIDEO_MIN_SIZE = 1;
export const VIDEO_MAX_SIZE = 4096;
/**
 * Frames per second: JsonCut's 1..120. The render deadline grows with the pixel rate
 * (packages/contract/src/deadline.ts), so 120 fps gets twice the wall time of 60; tokens are per output second.
 */
export const VIDEO_MIN_FPS = 1;
export const VIDEO_MAX_FPS = 120;
export const VIDEO_MIN_CLIPS = 1;
export const VIDEO_MAX_CLIPS = 100;
export const VIDEO_MIN_LAYERS_PER_CLIP = 1;
export const VIDEO_MAX_LAYERS_PER_CLIP = 20;
/** Layers in `globalLayers` (not published anywhere; same cap as a clip). */
export const VIDEO_MAX_GLOBAL_LAYERS = 20;
/** Entries of `audioTracks` (not published anywhere). */
export const VIDEO_MAX_AUDIO_TRACKS = 20;
/**
 * Total output length after transition overlaps, on a paid plan: an hour (a long video renders as a window of the
 * timeline per renderer, windows.ts). The grammar allows this much; the free plan allows VIDEO_MAX_DURATION_FREE.
 */
export const VIDEO_MAX_DURATION = 3600;
/** Total output length on the free plan (checked at creation, where the plan is known). */
export const VIDEO_MAX_DURATION_FREE = 300;
/** Shortest clip (own `duration` or `defaults.duration`). */
export const VIDEO_MIN_CLIP_DURATION = 0.1;
/** Font size of title, subtitle, news-title and title-background layers (px). */
export const VIDEO_MIN_FONT_SIZE = 8;
export const VIDEO_MAX_FONT_SIZE = 500;
/**
 * dynaudnorm settings of `audioNorm`: JsonCut's lower bounds, ffmpeg's upper ones (editly passes the values
 * straight to ffmpeg; its examples use maxGain 100). The renderer raises what ffmpeg would refuse: gaussSize
 * to odd and at least 3, maxGain to at least 1 (ffmpeg's dynaudnorm takes g 3..301 odd, m 1..100).
 */
export const AUDIO_NORM_MIN_GAUSS_SIZE = 1;
export const AUDIO_NORM_MAX_GAUSS_SIZE = 301;
export const AUDIO_NORM_MIN_MAX_GAIN = 0;
export const AUDIO_NORM_MAX_MAX_GAIN = 100;
/**
 * The largest volume (`mixVolume`, `clipsAudioVolume`, `outputVolume`, `backgroundAudioVolume`) a config may ask
 * for: 1000, or +60 dB. editly sets no bound and neither do ffmpeg's volume filter and amix's weights; this one
 * only keeps a value sane (editly's examples reach 50).
 */
export const MAX_VOLUME = 1000;
export const MAX_VOLUME_DB = 60;

/** HTML layers (image and video jobs). */
export const HTML_MAX_LAYERS_PER_JOB = 5;
export const HTML_MAX_BYTES = 100 * 1024;
export const CSS_MAX_BYTES = 50 * 1024;
export const HTML_SRC_MAX_LENGTH = 2048;
export const HTML_MAX_WAIT = 5;
export const HTML_MAX_ANIMATED_DURATION = 30;
export const HTML_MAX_GOOGLE_FONTS = 10;

/** Gradient colour stops. */
export const GRADIENT_MIN_COLORS = 2;
export const GRADIENT_MAX_COLORS = 16;
/** Text of one layer. */
export const MAX_TEXT_LENGTH = 10_000;
/** Any file reference (storage path or URL). */
export const MAX_FILE_REFERENCE_LENGTH = 2048;

/**
 * Sanity bounds where the reference publishes none: wide enough for any real config, narrow enough that
 * no value can make a renderer allocate or loop without end.
 */
export const MAX_PX = 100_000;
export const MAX_ROTATION = 360;
export const MAX_BLUR = 1000;
export const MAX_STROKE_WIDTH = 1000;
export const MAX_LINE_HEIGHT = 10;
/** Any time value (cuts, windows, offsets) in seconds: one day. */
export const MAX_SECONDS = 86_400;
export const MAX_OUTLINE_WIDTH = 100;
/** Title word/letter reveal, seconds. */
export const MAX_ANIMATION_DURATION = 3600;
/** Speed factor of subtitle/news-title animations. */
export const MAX_ANIMATION_SPEED = 100;
/** Keyframes of one animatable property (issue 45 §1): a curve is a handful; 100 bounds the graph's expressions. */
export const MAX_KEYFRAMES = 100;
/** Largest `scale` of a video layer (1 = as laid out): 10x a layer's box is past any frame. */
export const MAX_LAYER_SCALE = 10;
/**
 * A video layer's `speed`: a quarter to four times as fast. Its sound keeps its pitch through ffmpeg's `atempo`,
 * whose steps are best within 0.5-2x, so at most two of them.
 */
export const MIN_VIDEO_SPEED = 0.25;
export const MAX_VIDEO_SPEED = 4;

/** Defaults the renderers apply when a property is absent (the schemas leave absent values absent). */
export const IMAGE_DEFAULTS = {
  format: "png",
  quality: 90,
  fontSize: 24,
  color: "#000000",
  lineHeight: 1.2,
  align: "left",
  fit: "fill",
  rectangleSize: 100,
  circleSize: 50,
  gradientType: "linear",
  gradientDirection: "diagonal",
} as const;

export const VIDEO_DEFAULTS = {
  width: 1280,
  height: 720,
  fps: 25,
  format: "mp4",
  /** Clip length when neither the clip, a video layer's cut nor `defaults.duration` gives one. */
  clipDuration: 4,
  /** A transition object without `duration`. No transition at all unless one is configured. */
  transitionDuration: 0.5,
  /** A transition object without `name` (editly picks `random`; we prefer deterministic output). */
  transitionName: "fade",
  audioCurve: "tri",
  /** Ken Burns strength of image/video layers with a `zoomDirection`. */
  zoomAmount: 0.1,
  htmlAnimatedDuration: 5,
  audioNormGaussSize: 5,
  audioNormMaxGain: 30,
} as const;

/**
 * GL work of one video job, in pixels drawn by software GL: every frame of each `gl` layer (over its clip, or the
 * whole video when global) and of each transition that may be drawn by its GLSL, times the frame's width x height
 * (packages/contract/src/deadline.ts `renderWork`). The render's deadline allows GL_NANOSECONDS_PER_PIXEL for each (the
 * native helper's `cube` ~50 ns at 1280x720, `fade` ~22, a gl layer's draw and read-back on the page ~40-60;
 * docs/benchmarks.md, "Drawn transitions"), so past VIDEO_MAX_GL_PIXELS (3000 s of it) a job could never finish within the
 * longest render: validation refuses it (GL_WORK_TOO_LARGE). 50e9 pixels is ~54,000 frames at 1280x720 (a 300 s,
 * 25 fps video with 7 full-length gl layers), ~24,100 at 1920x1080, ~2,980 at 4096x4096.
 */
export const GL_NANOSECONDS_PER_PIXEL = 60;
export const VIDEO_MAX_GL_PIXELS = 50e9;

/**
 * GIF output (`format: "gif"`, outputs.ts): the frame is scaled down (aspect kept) until its longer side fits
 * GIF_MAX_SIDE, fps is capped at GIF_MAX_FPS (GIF counts frame delays in hundredths of a second: 20 fps is 5
 * exactly), and a GIF lasts at most GIF_MAX_DURATION seconds (one 256-colour palette per video, every frame kept).
 */
export const GIF_MAX_SIDE = 640;
export const GIF_MAX_FPS = 20;
export const GIF_MAX_DURATION = 60;
/** Thumbnails (`thumbnails`, outputs.ts): at most this many frames a job, each 16-1280 px wide (default 160). */
export const THUMBNAILS_MAX_COUNT = 100;
export const THUMBNAIL_MIN_WIDTH = 16;
export const THUMBNAIL_MAX_WIDTH = 1280;
export const THUMBNAIL_DEFAULT_WIDTH = 160;
/** The sprite sheet's columns (rows follow from the count). */
export const SPRITE_COLUMNS = 10;
/**
 * The sprite sheet's pixels at most: the largest image the service renders (IMAGE_MAX_SIZE squared, 16.8 million).
 * Without it 100 thumbnails 1280 px wide of a 1280x4096 video made a 12800x40960 sheet (524 million pixels, about
 * 2 GB decoded) for one token.
 */
export const SPRITE_MAX_PIXELS = IMAGE_MAX_SIZE * IMAGE_MAX_SIZE;
/** A `speech` layer's or track's text (characters): about five minutes of speech at the default rate. */
export const SPEECH_MAX_TEXT_LENGTH = 5000;
/**
 * All the speech text of one job together (its speech layers and speech tracks), in characters: about ten minutes of
 * speech at the default rate, twice the longest video. Without it 2,000 speech layers (100 clips of 20) of 5,000
 * characters each, ten million characters, were one job.
 */
export const SPEECH_MAX_JOB_CHARACTERS = 10_000;
/** `speech.rate`: a multiple of the voice's normal speed. */
export const SPEECH_MIN_RATE = 0.5;
export const SPEECH_MAX_RATE = 2;
/**
 * A captions file (`captionsFile`, SubRip or WebVTT): at most CAPTIONS_FILE_MAX_BYTES, and at most
 * CAPTIONS_FILE_MAX_CUES timing lines (`-->`, media/caption-cues.ts), each a cue drawn as a text box. Checked at upload
 * (src/files/ingest.ts, which stops reading there) and by the renderer before it reads the file; 2,000 cues is a
 * feature film's subtitles, 1 MiB twenty times what they take.
 */
export const CAPTIONS_FILE_MAX_BYTES = 1024 * 1024;
export const CAPTIONS_FILE_MAX_CUES = 2000;
/** autoSubtitlesStyle.wordsPerLine and maxLines at most. */
export const CAPTION_MAX_WORDS_PER_LINE = 20;
export const CAPTION_MAX_LINES = 4;
/** autoSubtitlesStyle.maxCharsPerLine bounds (characters, spaces included). */
export const CAPTION_MIN_CHARS_PER_LINE = 4;
export const CAPTION_MAX_CHARS_PER_LINE = 80;
/** autoSubtitlesStyle.preset values (issue 45): how the spoken words are drawn (renderer/src/video/captions/presets.ts). */
export const CAPTION_PRESETS = ["karaoke", "pop", "box", "one-word"] as const;
/** `ducking`: how far the music goes down under speech (dB), and its attack and release (seconds). */
export const DUCKING_MAX_DB = 60;
export const DUCKING_MAX_SECONDS = 5;
export const DUCKING_DEFAULTS = { amount: 12, attack: 0.15, release: 0.4 } as const;
