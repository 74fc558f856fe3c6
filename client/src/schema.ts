// Generated from client/openapi.json by `npm run client:generate` (scripts/generate-client.mjs). Do not edit.
/* eslint-disable */

export type ImageConfig = {
  width: number;
  height: number;
  backgroundColor?: ImageConfigColor;
  background?: ImageConfigColor;
  format?: "png" | "jpeg" | "jpg" | "webp";
  quality?: number;
  defaults?: {
    layer?: {
      path?: ImageConfigImageRef;
      x?: number;
      y?: number;
      position?: ImageConfigPosition;
      width?: number;
      height?: number;
      fit?: "cover" | "contain" | "fill" | "inside" | "outside";
      opacity?: number;
      rotation?: number;
      blur?: number;
      borderRadius?: number;
      text?: string;
      align?: "left" | "center" | "right";
      wrap?: boolean;
      lineHeight?: number;
      fontSize?: number;
      color?: ImageConfigColor;
      fontFamily?: string;
      fontPath?: ImageConfigFontRef;
      googleFont?: string;
      catalogFont?: string;
      backgroundColor?: ImageConfigColor;
      fill?: ImageConfigColor;
      stroke?: ImageConfigColor;
      strokeWidth?: number;
      gradient?: {
        type?: "linear" | "radial";
        colors: Array<ImageConfigColor>;
        direction?: "horizontal" | "vertical" | "diagonal";
      };
      html?: string;
      src?: string;
      css?: string;
      tailwindcss?: boolean;
      googleFonts?: Array<string>;
      wait?: number;
      enableLibraries?: boolean;
    };
    layerType?: {
      image?: {
        path?: ImageConfigImageRef;
        x?: number;
        y?: number;
        position?: ImageConfigPosition;
        width?: number;
        height?: number;
        fit?: "cover" | "contain" | "fill" | "inside" | "outside";
        opacity?: number;
        rotation?: number;
        blur?: number;
        borderRadius?: number;
      };
      text?: {
        text?: string;
        x?: number;
        y?: number;
        position?: ImageConfigPosition;
        align?: "left" | "center" | "right";
        width?: number;
        wrap?: boolean;
        lineHeight?: number;
        height?: number;
        fontSize?: number;
        color?: ImageConfigColor;
        fontFamily?: string;
        fontPath?: ImageConfigFontRef;
        googleFont?: string;
        catalogFont?: string;
        backgroundColor?: ImageConfigColor;
        opacity?: number;
        rotation?: number;
        blur?: number;
      };
      rectangle?: {
        x?: number;
        y?: number;
        position?: ImageConfigPosition;
        width?: number;
        height?: number;
        fill?: ImageConfigColor;
        stroke?: ImageConfigColor;
        strokeWidth?: number;
        opacity?: number;
        blur?: number;
        rotation?: number;
        borderRadius?: number;
      };
      circle?: {
        x?: number;
        y?: number;
        position?: ImageConfigPosition;
        width?: number;
        height?: number;
        fill?: ImageConfigColor;
        stroke?: ImageConfigColor;
        strokeWidth?: number;
        opacity?: number;
        blur?: number;
      };
      gradient?: {
        x?: number;
        y?: number;
        position?: ImageConfigPosition;
        width?: number;
        height?: number;
        gradient?: {
          type?: "linear" | "radial";
          colors: Array<ImageConfigColor>;
          direction?: "horizontal" | "vertical" | "diagonal";
        };
        opacity?: number;
        rotation?: number;
        blur?: number;
      };
      html?: {
        html?: string;
        src?: string;
        css?: string;
        tailwindcss?: boolean;
        googleFonts?: Array<string>;
        wait?: number;
        enableLibraries?: boolean;
        width?: number;
        height?: number;
        position?: ImageConfigPosition;
        x?: number;
        y?: number;
        opacity?: number;
        rotation?: number;
        blur?: number;
      };
    };
  };
  layers: Array<ImageConfigImageLayer>;
};

export type ImageConfigColor = string;

export type ImageConfigPosition = ("center" | "top" | "bottom" | "top-left" | "top-right" | "center-left" | "center-right" | "bottom-left" | "bottom-right") | (ImageConfigPositionObject);

export type ImageConfigPositionObject = {
  x: number;
  y: number;
  originX?: "left" | "center" | "right";
  originY?: "top" | "center" | "bottom";
};

export type ImageConfigImageRef = string;

export type ImageConfigVideoRef = string;

export type ImageConfigAudioRef = string;

export type ImageConfigFontRef = string;

export type ImageConfigImageLayer = ({
  type: "image";
  path: ImageConfigImageRef;
  x?: number;
  y?: number;
  position?: ImageConfigPosition;
  width?: number;
  height?: number;
  fit?: "cover" | "contain" | "fill" | "inside" | "outside";
  opacity?: number;
  rotation?: number;
  blur?: number;
  borderRadius?: number;
}) | ({
  type: "text";
  text: string;
  x?: number;
  y?: number;
  position?: ImageConfigPosition;
  align?: "left" | "center" | "right";
  width?: number;
  wrap?: boolean;
  lineHeight?: number;
  height?: number;
  fontSize?: number;
  color?: ImageConfigColor;
  fontFamily?: string;
  fontPath?: ImageConfigFontRef;
  googleFont?: string;
  catalogFont?: string;
  backgroundColor?: ImageConfigColor;
  opacity?: number;
  rotation?: number;
  blur?: number;
}) | ({
  type: "rectangle";
  x?: number;
  y?: number;
  position?: ImageConfigPosition;
  width?: number;
  height?: number;
  fill?: ImageConfigColor;
  stroke?: ImageConfigColor;
  strokeWidth?: number;
  opacity?: number;
  blur?: number;
  rotation?: number;
  borderRadius?: number;
}) | ({
  type: "circle";
  x?: number;
  y?: number;
  position?: ImageConfigPosition;
  width?: number;
  height?: number;
  fill?: ImageConfigColor;
  stroke?: ImageConfigColor;
  strokeWidth?: number;
  opacity?: number;
  blur?: number;
}) | ({
  type: "gradient";
  x?: number;
  y?: number;
  position?: ImageConfigPosition;
  width?: number;
  height?: number;
  gradient: {
    type?: "linear" | "radial";
    colors: Array<ImageConfigColor>;
    direction?: "horizontal" | "vertical" | "diagonal";
  };
  opacity?: number;
  rotation?: number;
  blur?: number;
}) | ({
  type: "html";
  html?: string;
  src?: string;
  css?: string;
  tailwindcss?: boolean;
  googleFonts?: Array<string>;
  wait?: number;
  enableLibraries?: boolean;
  width?: number;
  height?: number;
  position?: ImageConfigPosition;
  x?: number;
  y?: number;
  opacity?: number;
  rotation?: number;
  blur?: number;
});

export type VideoConfig = {
  width?: number;
  height?: number;
  fps?: number;
  format?: "mp4" | "mov" | "webm";
  fast?: boolean;
  clips: Array<VideoConfigClip>;
  defaults?: {
    duration?: number;
    transition?: (VideoConfigTransition) | (null);
    layer?: {
      path?: (VideoConfigVideoRef) | (VideoConfigAudioRef) | (VideoConfigImageRef);
      resizeMode?: ("contain" | "contain-blur" | "cover" | "stretch") | ("contain" | "contain-blur" | "cover" | "stretch");
      cutFrom?: number;
      cutTo?: number;
      width?: (number) | (number) | (number);
      height?: (number) | (number) | (number);
      left?: number;
      top?: number;
      originX?: "left" | "center" | "right";
      originY?: "top" | "center" | "bottom";
      position?: VideoConfigPosition;
      mixVolume?: (number) | (string);
      zoomDirection?: ("in" | "out" | "left" | "right" | "up" | "down") | (null);
      zoomAmount?: number;
      start?: number;
      stop?: number;
      duration?: (number) | (number);
      text?: (string) | (string) | (string);
      textColor?: VideoConfigColor;
      fontSize?: (number) | (number);
      fontPath?: VideoConfigFontRef;
      googleFont?: string;
      catalogFont?: string;
      fontFamily?: string;
      style?: "fade-in" | "word-by-word" | "letter-by-letter";
      animationDuration?: number;
      outlineColor?: VideoConfigColor;
      outlineWidth?: number;
      outlineStyle?: "outline" | "shadow" | "glow";
      backgroundColor?: VideoConfigColor;
      delay?: number;
      speed?: (number) | (number);
      background?: {
        type: "fill-color" | "linear-gradient" | "radial-gradient";
        color?: VideoConfigColor;
        colors?: Array<VideoConfigColor>;
        direction?: "horizontal" | "vertical" | "diagonal";
      };
      charSpacing?: number;
      color?: VideoConfigColor;
      colors?: Array<VideoConfigColor>;
      direction?: "horizontal" | "vertical" | "diagonal";
      html?: string;
      src?: string;
      css?: string;
      tailwindcss?: boolean;
      googleFonts?: Array<string>;
      wait?: number;
      enableLibraries?: boolean;
      animated?: boolean;
      fragmentShader?: string;
      fragmentPath?: string;
    };
    layerType?: {
      video?: {
        path?: VideoConfigVideoRef;
        resizeMode?: "contain" | "contain-blur" | "cover" | "stretch";
        cutFrom?: number;
        cutTo?: number;
        width?: number;
        height?: number;
        left?: number;
        top?: number;
        originX?: "left" | "center" | "right";
        originY?: "top" | "center" | "bottom";
        position?: VideoConfigPosition;
        mixVolume?: (number) | (string);
        zoomDirection?: ("in" | "out" | "left" | "right" | "up" | "down") | (null);
        zoomAmount?: number;
        start?: number;
        stop?: number;
      };
      audio?: {
        path?: VideoConfigAudioRef;
        cutFrom?: number;
        cutTo?: number;
        mixVolume?: (number) | (string);
        start?: number;
        stop?: number;
      };
      "detached-audio"?: {
        path?: VideoConfigAudioRef;
        cutFrom?: number;
        cutTo?: number;
        mixVolume?: (number) | (string);
        start?: number;
        stop?: number;
      };
      image?: {
        path?: VideoConfigImageRef;
        resizeMode?: "contain" | "contain-blur" | "cover" | "stretch";
        zoomDirection?: ("in" | "out" | "left" | "right" | "up" | "down") | (null);
        zoomAmount?: number;
        position?: VideoConfigPosition;
        width?: number;
        height?: number;
        start?: number;
        stop?: number;
        /** an image layer's duration has no effect (editly ignores it too): the layer lasts its clip, or start/stop */
        duration?: number;
      };
      "image-overlay"?: {
        path?: VideoConfigImageRef;
        position?: VideoConfigPosition;
        width?: number;
        height?: number;
        zoomDirection?: ("in" | "out" | "left" | "right" | "up" | "down") | (null);
        zoomAmount?: number;
        start?: number;
        stop?: number;
      };
      title?: {
        text?: string;
        textColor?: VideoConfigColor;
        fontSize?: number;
        fontPath?: VideoConfigFontRef;
        googleFont?: string;
        catalogFont?: string;
        fontFamily?: string;
        position?: VideoConfigPosition;
        style?: "fade-in" | "word-by-word" | "letter-by-letter";
        animationDuration?: number;
        zoomDirection?: ("in" | "out" | "left" | "right" | "up" | "down") | (null);
        zoomAmount?: number;
        outlineColor?: VideoConfigColor;
        outlineWidth?: number;
        outlineStyle?: "outline" | "shadow" | "glow";
        start?: number;
        stop?: number;
      };
      subtitle?: {
        text?: string;
        textColor?: VideoConfigColor;
        fontSize?: number;
        fontPath?: VideoConfigFontRef;
        googleFont?: string;
        catalogFont?: string;
        fontFamily?: string;
        position?: VideoConfigPosition;
        backgroundColor?: VideoConfigColor;
        delay?: number;
        speed?: number;
        start?: number;
        stop?: number;
      };
      "news-title"?: {
        text?: string;
        textColor?: VideoConfigColor;
        fontSize?: number;
        fontPath?: VideoConfigFontRef;
        googleFont?: string;
        catalogFont?: string;
        fontFamily?: string;
        position?: VideoConfigPosition;
        backgroundColor?: VideoConfigColor;
        delay?: number;
        speed?: number;
        start?: number;
        stop?: number;
      };
      "title-background"?: {
        text?: string;
        textColor?: VideoConfigColor;
        fontSize?: number;
        fontPath?: VideoConfigFontRef;
        googleFont?: string;
        catalogFont?: string;
        fontFamily?: string;
        position?: VideoConfigPosition;
        style?: "fade-in" | "word-by-word" | "letter-by-letter";
        animationDuration?: number;
        zoomDirection?: ("in" | "out" | "left" | "right" | "up" | "down") | (null);
        zoomAmount?: number;
        outlineColor?: VideoConfigColor;
        outlineWidth?: number;
        outlineStyle?: "outline" | "shadow" | "glow";
        start?: number;
        stop?: number;
        background?: {
          type: "fill-color" | "linear-gradient" | "radial-gradient";
          color?: VideoConfigColor;
          colors?: Array<VideoConfigColor>;
          direction?: "horizontal" | "vertical" | "diagonal";
        };
      };
      "slide-in-text"?: {
        text?: string;
        fontSize?: number;
        charSpacing?: number;
        textColor?: VideoConfigColor;
        fontPath?: VideoConfigFontRef;
        googleFont?: string;
        catalogFont?: string;
        fontFamily?: string;
        position?: VideoConfigPosition;
        start?: number;
        stop?: number;
      };
      "fill-color"?: {
        color?: VideoConfigColor;
        start?: number;
        stop?: number;
      };
      "linear-gradient"?: {
        colors?: Array<VideoConfigColor>;
        direction?: "horizontal" | "vertical" | "diagonal";
        start?: number;
        stop?: number;
      };
      "radial-gradient"?: {
        colors?: Array<VideoConfigColor>;
        start?: number;
        stop?: number;
      };
      "rainbow-colors"?: {
        start?: number;
        stop?: number;
      };
      pause?: {
        color?: VideoConfigColor;
        start?: number;
        stop?: number;
      };
      "editly-banner"?: {
        fontPath?: VideoConfigFontRef;
        googleFont?: string;
        catalogFont?: string;
        fontFamily?: string;
        start?: number;
        stop?: number;
      };
      html?: {
        html?: string;
        src?: string;
        css?: string;
        tailwindcss?: boolean;
        googleFonts?: Array<string>;
        wait?: number;
        enableLibraries?: boolean;
        width?: number;
        height?: number;
        position?: VideoConfigPosition;
        animated?: boolean;
        duration?: number;
        start?: number;
        stop?: number;
      };
      gl?: {
        fragmentShader?: string;
        fragmentPath?: string;
        speed?: number;
        start?: number;
        stop?: number;
      };
    };
  };
  audioFilePath?: VideoConfigAudioRef;
  backgroundAudioVolume?: (number) | (string);
  loopAudio?: boolean;
  keepSourceAudio?: boolean;
  clipsAudioVolume?: (number) | (string);
  outputVolume?: (number) | (string);
  audioTracks?: Array<{
    path: VideoConfigAudioRef;
    mixVolume?: (number) | (string);
    start?: number;
    cutFrom?: number;
    cutTo?: number;
  }>;
  audioNorm?: {
    enable?: boolean;
    gaussSize?: number;
    maxGain?: number;
  };
  globalLayers?: Array<VideoConfigGlobalLayer>;
  autoSubtitles?: boolean;
  autoSubtitlesStyle?: {
    animation?: "word-by-word" | "letter-by-letter";
    textColor?: VideoConfigColor;
    fontSize?: number;
    fontPath?: VideoConfigFontRef;
    googleFont?: string;
    catalogFont?: string;
    position?: VideoConfigPosition;
    outlineColor?: VideoConfigColor;
    outlineWidth?: number;
    outlineStyle?: "outline" | "shadow" | "glow";
  };
  autoSubtitlesLanguage?: string;
  /** editly's output file: the service stores the output and answers its URL; the container is "format" (mp4 unless set) */
  outPath?: string;
  /** an editly logging option with no effect here (job progress and errors come with the job) */
  enableFfmpegLog?: boolean;
  /** an editly logging option with no effect here (job progress and errors come with the job) */
  verbose?: boolean;
  /** an editly logging option with no effect here (job progress and errors come with the job) */
  logTimes?: boolean;
  /** an editly logging option with no effect here (job progress and errors come with the job) */
  keepTmp?: boolean;
  /** an editly option for its local ffmpeg: the renderer's tools and encoder settings are fixed */
  ffmpegPath?: string;
  /** an editly option for its local ffmpeg: the renderer's tools and encoder settings are fixed */
  ffprobePath?: string;
  /** an editly option for its local ffmpeg: the renderer's tools and encoder settings are fixed */
  customOutputArgs?: Array<string>;
  /** an editly option: http(s) paths are always fetched here (public addresses only) */
  allowRemoteRequests?: boolean;
};

export type VideoConfig0 = Array<VideoConfigVideoLayer>;

export type VideoConfig1 = number;

export type VideoConfigColor = string;

export type VideoConfigPosition = ("center" | "top" | "bottom" | "top-left" | "top-right" | "center-left" | "center-right" | "bottom-left" | "bottom-right") | (VideoConfigPositionObject);

export type VideoConfigPositionObject = {
  x: number;
  y: number;
  originX?: "left" | "center" | "right";
  originY?: "top" | "center" | "bottom";
};

export type VideoConfigImageRef = string;

export type VideoConfigVideoRef = string;

export type VideoConfigAudioRef = string;

export type VideoConfigFontRef = string;

export type VideoConfigTransition = {
  name?: string;
  duration?: number;
  audioOutCurve?: "tri" | "qsin" | "hsin" | "esin" | "log" | "ipar" | "qua" | "cub" | "squ" | "cbr" | "par" | "exp" | "iqsin" | "ihsin" | "dese" | "desi" | "losi" | "nofade" | "linear";
  audioInCurve?: "tri" | "qsin" | "hsin" | "esin" | "log" | "ipar" | "qua" | "cub" | "squ" | "cbr" | "par" | "exp" | "iqsin" | "ihsin" | "dese" | "desi" | "losi" | "nofade" | "linear";
  easing?: ("linear" | "easeOutExpo" | "easeInOutCubic") | (null);
  params?: {
    [key: string]: (number) | (boolean) | (string) | (Array<number>);
  };
};

export type VideoConfigClip = {
  duration?: number;
  transition?: (VideoConfigTransition) | (null);
  layers: (Array<VideoConfigVideoLayer>) | (VideoConfigVideoLayer);
};

export type VideoConfigVideoLayer = ({
  type: "video";
  path: VideoConfigVideoRef;
  resizeMode?: "contain" | "contain-blur" | "cover" | "stretch";
  cutFrom?: number;
  cutTo?: number;
  width?: number;
  height?: number;
  left?: number;
  top?: number;
  originX?: "left" | "center" | "right";
  originY?: "top" | "center" | "bottom";
  position?: VideoConfigPosition;
  mixVolume?: (number) | (string);
  zoomDirection?: ("in" | "out" | "left" | "right" | "up" | "down") | (null);
  zoomAmount?: number;
  start?: number;
  stop?: number;
}) | ({
  type: "audio";
  path: VideoConfigAudioRef;
  cutFrom?: number;
  cutTo?: number;
  mixVolume?: (number) | (string);
  start?: number;
  stop?: number;
}) | ({
  type: "detached-audio";
  path: VideoConfigAudioRef;
  cutFrom?: number;
  cutTo?: number;
  mixVolume?: (number) | (string);
  start?: number;
  stop?: number;
}) | ({
  type: "image";
  path: VideoConfigImageRef;
  resizeMode?: "contain" | "contain-blur" | "cover" | "stretch";
  zoomDirection?: ("in" | "out" | "left" | "right" | "up" | "down") | (null);
  zoomAmount?: number;
  position?: VideoConfigPosition;
  width?: number;
  height?: number;
  start?: number;
  stop?: number;
  /** an image layer's duration has no effect (editly ignores it too): the layer lasts its clip, or start/stop */
  duration?: number;
}) | ({
  type: "image-overlay";
  path: VideoConfigImageRef;
  position?: VideoConfigPosition;
  width?: number;
  height?: number;
  zoomDirection?: ("in" | "out" | "left" | "right" | "up" | "down") | (null);
  zoomAmount?: number;
  start?: number;
  stop?: number;
}) | ({
  type: "title";
  text: string;
  textColor?: VideoConfigColor;
  fontSize?: number;
  fontPath?: VideoConfigFontRef;
  googleFont?: string;
  catalogFont?: string;
  fontFamily?: string;
  position?: VideoConfigPosition;
  style?: "fade-in" | "word-by-word" | "letter-by-letter";
  animationDuration?: number;
  zoomDirection?: ("in" | "out" | "left" | "right" | "up" | "down") | (null);
  zoomAmount?: number;
  outlineColor?: VideoConfigColor;
  outlineWidth?: number;
  outlineStyle?: "outline" | "shadow" | "glow";
  start?: number;
  stop?: number;
}) | ({
  type: "subtitle";
  text: string;
  textColor?: VideoConfigColor;
  fontSize?: number;
  fontPath?: VideoConfigFontRef;
  googleFont?: string;
  catalogFont?: string;
  fontFamily?: string;
  position?: VideoConfigPosition;
  backgroundColor?: VideoConfigColor;
  delay?: number;
  speed?: number;
  start?: number;
  stop?: number;
}) | ({
  type: "news-title";
  text: string;
  textColor?: VideoConfigColor;
  fontSize?: number;
  fontPath?: VideoConfigFontRef;
  googleFont?: string;
  catalogFont?: string;
  fontFamily?: string;
  position?: VideoConfigPosition;
  backgroundColor?: VideoConfigColor;
  delay?: number;
  speed?: number;
  start?: number;
  stop?: number;
}) | ({
  type: "title-background";
  text: string;
  textColor?: VideoConfigColor;
  fontSize?: number;
  fontPath?: VideoConfigFontRef;
  googleFont?: string;
  catalogFont?: string;
  fontFamily?: string;
  position?: VideoConfigPosition;
  style?: "fade-in" | "word-by-word" | "letter-by-letter";
  animationDuration?: number;
  zoomDirection?: ("in" | "out" | "left" | "right" | "up" | "down") | (null);
  zoomAmount?: number;
  outlineColor?: VideoConfigColor;
  outlineWidth?: number;
  outlineStyle?: "outline" | "shadow" | "glow";
  start?: number;
  stop?: number;
  background?: {
    type: "fill-color" | "linear-gradient" | "radial-gradient";
    color?: VideoConfigColor;
    colors?: Array<VideoConfigColor>;
    direction?: "horizontal" | "vertical" | "diagonal";
  };
}) | ({
  type: "slide-in-text";
  text: string;
  fontSize?: number;
  charSpacing?: number;
  textColor?: VideoConfigColor;
  fontPath?: VideoConfigFontRef;
  googleFont?: string;
  catalogFont?: string;
  fontFamily?: string;
  position?: VideoConfigPosition;
  start?: number;
  stop?: number;
}) | ({
  type: "fill-color";
  color?: VideoConfigColor;
  start?: number;
  stop?: number;
}) | ({
  type: "linear-gradient";
  colors?: Array<VideoConfigColor>;
  direction?: "horizontal" | "vertical" | "diagonal";
  start?: number;
  stop?: number;
}) | ({
  type: "radial-gradient";
  colors?: Array<VideoConfigColor>;
  start?: number;
  stop?: number;
}) | ({
  type: "rainbow-colors";
  start?: number;
  stop?: number;
}) | ({
  type: "pause";
  color?: VideoConfigColor;
  start?: number;
  stop?: number;
}) | ({
  type: "editly-banner";
  fontPath?: VideoConfigFontRef;
  googleFont?: string;
  catalogFont?: string;
  fontFamily?: string;
  start?: number;
  stop?: number;
}) | ({
  type: "html";
  html?: string;
  src?: string;
  css?: string;
  tailwindcss?: boolean;
  googleFonts?: Array<string>;
  wait?: number;
  enableLibraries?: boolean;
  width?: number;
  height?: number;
  position?: VideoConfigPosition;
  animated?: boolean;
  duration?: number;
  start?: number;
  stop?: number;
}) | ({
  type: "gl";
  fragmentShader?: string;
  fragmentPath?: string;
  speed?: number;
  start?: number;
  stop?: number;
});

export type VideoConfigGlobalLayer = ({
  type: "image";
  path: VideoConfigImageRef;
  resizeMode?: "contain" | "contain-blur" | "cover" | "stretch";
  zoomDirection?: ("in" | "out" | "left" | "right" | "up" | "down") | (null);
  zoomAmount?: number;
  position?: VideoConfigPosition;
  width?: number;
  height?: number;
  start?: number;
  stop?: number;
  /** an image layer's duration has no effect (editly ignores it too): the layer lasts its clip, or start/stop */
  duration?: number;
}) | ({
  type: "image-overlay";
  path: VideoConfigImageRef;
  position?: VideoConfigPosition;
  width?: number;
  height?: number;
  zoomDirection?: ("in" | "out" | "left" | "right" | "up" | "down") | (null);
  zoomAmount?: number;
  start?: number;
  stop?: number;
}) | ({
  type: "title";
  text: string;
  textColor?: VideoConfigColor;
  fontSize?: number;
  fontPath?: VideoConfigFontRef;
  googleFont?: string;
  catalogFont?: string;
  fontFamily?: string;
  position?: VideoConfigPosition;
  style?: "fade-in" | "word-by-word" | "letter-by-letter";
  animationDuration?: number;
  zoomDirection?: ("in" | "out" | "left" | "right" | "up" | "down") | (null);
  zoomAmount?: number;
  outlineColor?: VideoConfigColor;
  outlineWidth?: number;
  outlineStyle?: "outline" | "shadow" | "glow";
  start?: number;
  stop?: number;
}) | ({
  type: "subtitle";
  text: string;
  textColor?: VideoConfigColor;
  fontSize?: number;
  fontPath?: VideoConfigFontRef;
  googleFont?: string;
  catalogFont?: string;
  fontFamily?: string;
  position?: VideoConfigPosition;
  backgroundColor?: VideoConfigColor;
  delay?: number;
  speed?: number;
  start?: number;
  stop?: number;
}) | ({
  type: "news-title";
  text: string;
  textColor?: VideoConfigColor;
  fontSize?: number;
  fontPath?: VideoConfigFontRef;
  googleFont?: string;
  catalogFont?: string;
  fontFamily?: string;
  position?: VideoConfigPosition;
  backgroundColor?: VideoConfigColor;
  delay?: number;
  speed?: number;
  start?: number;
  stop?: number;
}) | ({
  type: "title-background";
  text: string;
  textColor?: VideoConfigColor;
  fontSize?: number;
  fontPath?: VideoConfigFontRef;
  googleFont?: string;
  catalogFont?: string;
  fontFamily?: string;
  position?: VideoConfigPosition;
  style?: "fade-in" | "word-by-word" | "letter-by-letter";
  animationDuration?: number;
  zoomDirection?: ("in" | "out" | "left" | "right" | "up" | "down") | (null);
  zoomAmount?: number;
  outlineColor?: VideoConfigColor;
  outlineWidth?: number;
  outlineStyle?: "outline" | "shadow" | "glow";
  start?: number;
  stop?: number;
  background?: {
    type: "fill-color" | "linear-gradient" | "radial-gradient";
    color?: VideoConfigColor;
    colors?: Array<VideoConfigColor>;
    direction?: "horizontal" | "vertical" | "diagonal";
  };
}) | ({
  type: "slide-in-text";
  text: string;
  fontSize?: number;
  charSpacing?: number;
  textColor?: VideoConfigColor;
  fontPath?: VideoConfigFontRef;
  googleFont?: string;
  catalogFont?: string;
  fontFamily?: string;
  position?: VideoConfigPosition;
  start?: number;
  stop?: number;
}) | ({
  type: "fill-color";
  color?: VideoConfigColor;
  start?: number;
  stop?: number;
}) | ({
  type: "linear-gradient";
  colors?: Array<VideoConfigColor>;
  direction?: "horizontal" | "vertical" | "diagonal";
  start?: number;
  stop?: number;
}) | ({
  type: "radial-gradient";
  colors?: Array<VideoConfigColor>;
  start?: number;
  stop?: number;
}) | ({
  type: "rainbow-colors";
  start?: number;
  stop?: number;
}) | ({
  type: "pause";
  color?: VideoConfigColor;
  start?: number;
  stop?: number;
}) | ({
  type: "editly-banner";
  fontPath?: VideoConfigFontRef;
  googleFont?: string;
  catalogFont?: string;
  fontFamily?: string;
  start?: number;
  stop?: number;
}) | ({
  type: "html";
  html?: string;
  src?: string;
  css?: string;
  tailwindcss?: boolean;
  googleFonts?: Array<string>;
  wait?: number;
  enableLibraries?: boolean;
  width?: number;
  height?: number;
  position?: VideoConfigPosition;
  animated?: boolean;
  duration?: number;
  start?: number;
  stop?: number;
}) | ({
  type: "gl";
  fragmentShader?: string;
  fragmentPath?: string;
  speed?: number;
  start?: number;
  stop?: number;
});

export interface Operations {
  /** Liveness */
  "GET /health": {
    path: {};
    query: {};
    body: never;
    status: 200;
  };
  /** Create a render job */
  "POST /api/v1/jobs": {
    path: {};
    query: {};
    body: ({
      type: "image";
      config: ImageConfig;
    }) | ({
      type: "video";
      config: VideoConfig;
    });
    status: 201;
  };
  /** List your jobs */
  "GET /api/v1/jobs": {
    path: {};
    query: { page?: string | number; limit?: string | number; status?: string | number; type?: string | number; sortBy?: string | number; search?: string | number; sortOrder?: string | number };
    body: never;
    status: 200;
  };
  /** Validate a job without creating it */
  "POST /api/v1/jobs/validate": {
    path: {};
    query: {};
    body: ({
      type: "image";
      config: ImageConfig;
    }) | ({
      type: "video";
      config: VideoConfig;
    });
    status: 200;
  };
  /** Job counts and tokens used */
  "GET /api/v1/jobs/stats": {
    path: {};
    query: {};
    body: never;
    status: 200;
  };
  /** Completed and failed jobs per UTC day, last 30 days */
  "GET /api/v1/jobs/stats/last-30-days": {
    path: {};
    query: {};
    body: never;
    status: 200;
  };
  /** Read a job */
  "GET /api/v1/jobs/{jobId}": {
    path: { jobId: string };
    query: {};
    body: never;
    status: 200;
  };
  /** Cancel a pending job */
  "DELETE /api/v1/jobs/{jobId}": {
    path: { jobId: string };
    query: {};
    body: never;
    status: 200;
  };
  /** Follow a job's progress (Server-Sent Events) */
  "GET /api/v1/jobs/{jobId}/events": {
    path: { jobId: string };
    query: {};
    body: never;
    status: 200;
  };
  /** Upload a file */
  "POST /api/v1/files/upload": {
    path: {};
    query: {};
    body: FormData;
    status: 201;
  };
  /** Check a file without storing it */
  "POST /api/v1/files/validate": {
    path: {};
    query: {};
    body: FormData;
    status: 200;
  };
  /** List your files */
  "GET /api/v1/files": {
    path: {};
    query: { page?: string | number; per_page?: string | number; category?: string | number };
    body: never;
    status: 200;
  };
  /** Read a file's record */
  "GET /api/v1/files/{fileId}": {
    path: { fileId: string };
    query: {};
    body: never;
    status: 200;
  };
  /** Delete a file */
  "DELETE /api/v1/files/{fileId}": {
    path: { fileId: string };
    query: {};
    body: never;
    status: 200;
  };
  /** Read a file's media metadata */
  "GET /api/v1/files/{fileId}/metadata": {
    path: { fileId: string };
    query: {};
    body: never;
    status: 200;
  };
  /** Download a file's bytes */
  "GET /api/v1/files/{fileId}/download": {
    path: { fileId: string };
    query: {};
    body: never;
    status: 200;
  };
  /** Download a file's bytes */
  "HEAD /api/v1/files/{fileId}/download": {
    path: { fileId: string };
    query: {};
    body: never;
    status: 200;
  };
  /** Create a signed download link */
  "POST /api/v1/files/{fileId}/link": {
    path: { fileId: string };
    query: {};
    body: {
      expiresIn?: number;
    };
    status: 201;
  };
  /** Measure one video file's duration */
  "POST /api/v1/tools/video/duration": {
    path: {};
    query: {};
    body: ({
      path: string;
    }) | ({
      url: string;
    });
    status: 200;
  };
  /** Measure many video files' durations */
  "POST /api/v1/tools/video/duration/bulk": {
    path: {};
    query: {};
    body: {
      files: Array<(string) | (({
        path: string;
      }) | ({
        url: string;
      }))>;
    };
    status: 200;
  };
  /** Measure one audio file's duration */
  "POST /api/v1/tools/audio/duration": {
    path: {};
    query: {};
    body: ({
      path: string;
    }) | ({
      url: string;
    });
    status: 200;
  };
  /** Measure many audio files' durations */
  "POST /api/v1/tools/audio/duration/bulk": {
    path: {};
    query: {};
    body: {
      files: Array<(string) | (({
        path: string;
      }) | ({
        url: string;
      }))>;
    };
    status: 200;
  };
  /** List the config schemas */
  "GET /api/v1/schemas": {
    path: {};
    query: {};
    body: never;
    status: 200;
  };
  /** The JSON Schema of the image or video config */
  "GET /api/v1/schemas/{name}": {
    path: { name: string };
    query: {};
    body: never;
    status: 200;
  };
  /** The renderer callback's health */
  "GET /api/v1/webhooks/health": {
    path: {};
    query: {};
    body: never;
    status: 200;
  };
  /** Sign up: e-mails a 6-digit code */
  "POST /api/v1/auth/register": {
    path: {};
    query: {};
    body: {
      email: string;
      name?: string;
      consent: {
        termsAccepted: true;
        termsVersion: "2026-10-12";
        marketingAccepted: boolean;
      };
      hcaptchaToken?: string;
    };
    status: 202;
  };
  /** Sign in: e-mails a 6-digit code */
  "POST /api/v1/auth/login": {
    path: {};
    query: {};
    body: {
      email: string;
      hcaptchaToken?: string;
    };
    status: 202;
  };
  /** Exchange the e-mailed code for a session */
  "POST /api/v1/auth/verify": {
    path: {};
    query: {};
    body: {
      email: string;
      token: string;
    };
    status: 200;
  };
  /** End this session */
  "POST /api/v1/auth/logout": {
    path: {};
    query: {};
    body: never;
    status: 200;
  };
  /** What a sign-in page needs: terms version, captcha site key, the local outbox */
  "GET /api/v1/auth/options": {
    path: {};
    query: {};
    body: never;
    status: 200;
  };
  /** Sign in a browser: exchange the e-mailed code for the session cookie */
  "POST /api/v1/auth/session": {
    path: {};
    query: {};
    body: {
      email: string;
      token: string;
    };
    status: 200;
  };
  /** The browser's session: the account and the CSRF token */
  "GET /api/v1/auth/session": {
    path: {};
    query: {};
    body: never;
    status: 200;
  };
  /** Sign a browser out: the session is revoked and the cookie dropped */
  "DELETE /api/v1/auth/session": {
    path: {};
    query: {};
    body: never;
    status: 200;
  };
  /** Read your account */
  "GET /api/v1/account": {
    path: {};
    query: {};
    body: never;
    status: 200;
  };
  /** Change your name, e-mail (confirmed by a code) or marketing consent */
  "PATCH /api/v1/account": {
    path: {};
    query: {};
    body: {
      name?: (string) | (null);
      email?: string;
    };
    status: 200;
  };
  /** Confirm a new e-mail address with its code */
  "POST /api/v1/account/email/verify": {
    path: {};
    query: {};
    body: {
      token: string;
    };
    status: 200;
  };
  /** List your API keys */
  "GET /api/v1/api-keys": {
    path: {};
    query: {};
    body: never;
    status: 200;
  };
  /** Create an API key */
  "POST /api/v1/api-keys": {
    path: {};
    query: {};
    body: {
      name: string;
      expiresAt?: (string) | (null);
      permissions: Array<{
        resource: "media" | "jobs";
        action: "read" | "full";
      }>;
      scopes?: Array<"renders:create" | "renders:read" | "operations:read" | "operations:cancel" | "templates:read" | "templates:write" | "templates:bulk">;
    };
    status: 201;
  };
  /** Revoke an API key */
  "DELETE /api/v1/api-keys/{id}": {
    path: { id: string };
    query: {};
    body: never;
    status: 200;
  };
  /** The plans and their prices */
  "GET /api/v1/billing/plans": {
    path: {};
    query: {};
    body: never;
    status: 200;
  };
  /** Your plan, balance and this period's usage */
  "GET /api/v1/billing/usage": {
    path: {};
    query: {};
    body: never;
    status: 200;
  };
  /** Your token ledger, newest first */
  "GET /api/v1/billing/ledger": {
    path: {};
    query: { page?: string | number; limit?: string | number };
    body: never;
    status: 200;
  };
  /** Change plan */
  "POST /api/v1/billing/plan": {
    path: {};
    query: {};
    body: {
      planId: string;
    };
    status: 200;
  };
  /** Buy prepaid tokens */
  "POST /api/v1/billing/checkout": {
    path: {};
    query: {};
    body: {
      tokens: number;
    };
    status: 201;
  };
  /** Read a payment */
  "GET /api/v1/billing/payments/{id}": {
    path: { id: string };
    query: {};
    body: never;
    status: 200;
  };
  /** Where checkout sends the browser back */
  "GET /api/v1/billing/return": {
    path: {};
    query: {};
    body: never;
    status: 200;
  };
  /** List your webhook endpoints (scope renders:create) */
  "GET /api/v2/webhooks": {
    path: {};
    query: {};
    body: never;
    status: 200;
  };
  /** Create a webhook endpoint (scope renders:create) */
  "POST /api/v2/webhooks": {
    path: {};
    query: {};
    body: {
      name: string;
      url: string;
      eventTypes: Array<"render.started" | "render.completed" | "render.failed" | "render.cancelled" | "batch.completed">;
      active?: boolean;
    };
    status: 201;
  };
  /** Update or disable an endpoint (scope renders:create) */
  "PATCH /api/v2/webhooks/{id}": {
    path: { id: string };
    query: {};
    body: {
      name?: string;
      url?: string;
      eventTypes?: Array<"render.started" | "render.completed" | "render.failed" | "render.cancelled" | "batch.completed">;
      active?: boolean;
    };
    status: 200;
  };
  /** Delete an endpoint (scope renders:create) */
  "DELETE /api/v2/webhooks/{id}": {
    path: { id: string };
    query: {};
    body: never;
    status: 200;
  };
  /** Queue a signed test event (scope renders:create) */
  "POST /api/v2/webhooks/{id}/test": {
    path: { id: string };
    query: {};
    body: {
      eventType?: "webhook.test" | "render.started" | "render.completed" | "render.failed" | "render.cancelled" | "batch.completed";
      data?: {
        [key: string]: {
          [key: string]: unknown;
        };
      };
    };
    status: 202;
  };
  /** Rotate the signing secret (scope renders:create) */
  "POST /api/v2/webhooks/{id}/rotate-secret": {
    path: { id: string };
    query: {};
    body: {
      graceSeconds?: number;
    };
    status: 200;
  };
  /** List an endpoint's deliveries, without bodies (scope operations:read) */
  "GET /api/v2/webhooks/{id}/deliveries": {
    path: { id: string };
    query: { status?: string | number; limit?: string | number };
    body: never;
    status: 200;
  };
  /** One delivery with its attempts (scope operations:read) */
  "GET /api/v2/webhooks/{id}/deliveries/{deliveryId}": {
    path: { id: string; deliveryId: string };
    query: {};
    body: never;
    status: 200;
  };
  /** Replay a dead-lettered delivery (scope operations:cancel) */
  "POST /api/v2/webhooks/{id}/deliveries/{deliveryId}/replay": {
    path: { id: string; deliveryId: string };
    query: {};
    body: never;
    status: 200;
  };
  /** List your templates */
  "GET /api/v2/templates": {
    path: {};
    query: {};
    body: never;
    status: 200;
  };
  /** Create a template */
  "POST /api/v2/templates": {
    path: {};
    query: {};
    body: {
      name: string;
      type: "image" | "video";
      config: {
        [key: string]: {
          [key: string]: unknown;
        };
      };
      variables?: Array<{
        name: string;
        type: "string" | "number" | "colour" | "file";
        required?: boolean;
        default?: (string) | (number);
      }>;
    };
    status: 201;
  };
  /** Read a template */
  "GET /api/v2/templates/{id}": {
    path: { id: string };
    query: {};
    body: never;
    status: 200;
  };
  /** Replace a template */
  "PUT /api/v2/templates/{id}": {
    path: { id: string };
    query: {};
    body: {
      name: string;
      type: "image" | "video";
      config: {
        [key: string]: {
          [key: string]: unknown;
        };
      };
      variables?: Array<{
        name: string;
        type: "string" | "number" | "colour" | "file";
        required?: boolean;
        default?: (string) | (number);
      }>;
    };
    status: 200;
  };
  /** Delete a template */
  "DELETE /api/v2/templates/{id}": {
    path: { id: string };
    query: {};
    body: never;
    status: 200;
  };
  /** Submit a batch of rows */
  "POST /api/v2/templates/{id}/batches": {
    path: { id: string };
    query: { mode?: string | number; nameColumn?: string | number };
    body: {
      rows: Array<{
        [key: string]: {
          [key: string]: unknown;
        };
      }>;
      mode?: "valid-only" | "all-or-nothing";
      nameColumn?: string;
    };
    status: 201;
  };
  /** Read a batch */
  "GET /api/v2/batches/{id}": {
    path: { id: string };
    query: {};
    body: never;
    status: 200;
  };
  /** Cancel a batch */
  "DELETE /api/v2/batches/{id}": {
    path: { id: string };
    query: {};
    body: never;
    status: 200;
  };
  /** Download a finished batch's outputs as one ZIP */
  "GET /api/v2/batches/{id}/output": {
    path: { id: string };
    query: {};
    body: never;
    status: 200;
  };
  /** The batch's manifest: row, job, file, status */
  "GET /api/v2/batches/{id}/manifest": {
    path: { id: string };
    query: { format?: string | number };
    body: never;
    status: 200;
  };
}
