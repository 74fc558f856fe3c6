/**
 * editly's example edit specs (mifi/editly examples/*.json5), every one that needs no JavaScript function,
 * restated here: the same options, structure and values, with our own texts and media (`m` names the file a
 * path stands for, so validation tests pass storage paths and render tests local fixtures). The transitions
 * example walks the 67 gl-transitions names of 1.43, which is our own list.
 */
import { GL_TRANSITIONS_1_43 } from "../../src/config/transitions.ts";

/** The media an example needs, by role. */
export interface ExampleMedia {
  /** A video (editly's lofoten, changi, palawan, ... clips). */
  video: string;
  /** A second video (editly's dancer1.webm, IMG_1884.MOV, ...). */
  video2: string;
  photo: string;
  /** A picture with transparency (png or svg). */
  overlay: string;
  music: string;
  voice: string;
  font: string;
  shader: string;
}

type Config = Record<string, unknown>;

/** The function-free examples, by editly's file name (without .json5). */
export const editlyExamples = (m: ExampleMedia): Record<string, Config> => {
  const banner = (text: string) => ({ type: "title-background", text });
  const font = { layer: { fontPath: m.font } };
  return {
    alpha: {
      outPath: "./alpha.mp4",
      clips: [
        {
          duration: 2,
          layers: [
            { type: "video", path: m.video, cutFrom: 0.4, cutTo: 2 },
            { type: "video", path: m.video2, resizeMode: "contain", cutFrom: 0, cutTo: 6 },
          ],
        },
        {
          layers: [
            { type: "video", path: m.video, cutFrom: 0.4, cutTo: 2 },
            { type: "video", path: m.video2, resizeMode: "contain" },
          ],
        },
      ],
    },
    "audio-transition": {
      outPath: "./audio-transition.mp4",
      keepSourceAudio: true,
      defaults: { duration: 3, transition: { duration: 1, name: "directional" }, ...font },
      clips: [
        { layers: [banner("one"), { type: "audio", path: m.voice }] },
        { transition: { duration: 0.2 }, layers: [banner("two"), { type: "audio", path: m.music }] },
        { transition: { duration: 0 }, layers: [banner("three"), { type: "audio", path: m.voice }] },
        {
          transition: { audioInCurve: "exp", audioOutCurve: "exp" },
          layers: [banner("four"), { type: "audio", path: m.music }],
        },
        { transition: { name: "dummy" }, layers: [banner("five"), { type: "audio", path: m.voice }] },
        { transition: { duration: 2 }, layers: [banner("six"), { type: "audio", path: m.music }] },
        {
          duration: 1,
          transition: { duration: 2 },
          layers: [banner("seven"), { type: "audio", path: m.music }],
        },
        {
          duration: 1,
          transition: { duration: 2 },
          layers: [banner("eight"), { type: "audio", path: m.music }],
        },
        { layers: [banner("end"), { type: "audio", path: m.music }] },
      ],
    },
    "audio-volume": {
      outPath: "./audio-volume.mp4",
      width: 200,
      height: 200,
      clips: [{ duration: 2, layers: [banner("volume")] }],
      audioTracks: [{ path: m.music, cutFrom: 18 }],
      outputVolume: "-10dB",
    },
    audio1: {
      outPath: "./audio1.mp4",
      keepSourceAudio: true,
      defaults: { transition: null, ...font },
      clips: [
        { duration: 0.5, layers: [{ type: "video", path: m.video, cutFrom: 0.4, cutTo: 2 }] },
        { layers: [banner("test"), { type: "audio", path: m.music, cutFrom: 2, cutTo: 5 }] },
        {
          layers: [
            { type: "video", path: m.video, cutFrom: 0, cutTo: 2, mixVolume: 0 },
            { type: "audio", path: m.music, mixVolume: 0.1 },
          ],
        },
        {
          duration: 2,
          layers: [
            { type: "video", path: m.video, cutFrom: 0.4, cutTo: 2 },
            { type: "audio", path: m.music, cutFrom: 2, cutTo: 3, mixVolume: 0.5 },
          ],
        },
        { duration: 1.8, layers: [{ type: "video", path: m.video, cutFrom: 1, cutTo: 2 }] },
      ],
    },
    audio2: {
      outPath: "./audio2.mp4",
      width: 200,
      height: 200,
      defaults: font,
      clips: [
        { layers: [{ type: "video", path: m.video, cutFrom: 1, cutTo: 2 }] },
        { duration: 15, layers: { type: "title-background", text: "tracks" } },
      ],
      audioNorm: { enable: true, gaussSize: 3, maxGain: 100 },
      clipsAudioVolume: 50,
      audioTracks: [
        { path: m.music, cutFrom: 18 },
        { path: m.voice, mixVolume: 10, cutFrom: 1, cutTo: 2, start: 2 },
        { path: m.voice, mixVolume: 50, cutTo: 7, start: 5 },
      ],
    },
    audio3: {
      outPath: "./audio3.mp4",
      width: 200,
      height: 200,
      defaults: font,
      clips: [
        {
          layers: [
            { type: "video", path: m.video, cutTo: 2 },
            { type: "title", text: "audio" },
          ],
        },
        {
          duration: 3,
          layers: [
            banner("voice in 1 s"),
            { type: "detached-audio", path: m.voice, mixVolume: 50, cutFrom: 2, start: 1 },
          ],
        },
        { duration: 1, layers: [banner("voice goes on")] },
        { duration: 3, layers: [banner("and on")] },
        {
          duration: 2,
          layers: [banner("sound"), { type: "detached-audio", path: m.music, mixVolume: 10, cutFrom: 0.5 }],
        },
      ],
      audioNorm: { enable: true, gaussSize: 3, maxGain: 100 },
      audioTracks: [{ path: m.music, cutFrom: 18 }],
    },
    audioLoop: {
      outPath: "./audioLoop.mp4",
      width: 200,
      height: 200,
      audioFilePath: m.music,
      loopAudio: true,
      defaults: font,
      clips: [{ duration: 10, layers: [banner("loop")] }],
    },
    commonFeatures: {
      width: 720,
      height: 1280,
      fps: 30,
      outPath: "./commonFeatures.mp4",
      audioFilePath: m.music,
      defaults: { transition: { name: "random" }, ...font },
      clips: [
        {
          duration: 3,
          transition: { name: "directional-left" },
          layers: [
            {
              type: "title-background",
              text: "One\ntwo",
              background: { type: "linear-gradient", colors: ["#02aab0", "#00cdac"] },
            },
          ],
        },
        {
          duration: 4,
          transition: { name: "dreamyzoom" },
          layers: [{ type: "title-background", text: "radial", background: { type: "radial-gradient" } }],
        },
        {
          duration: 3,
          transition: { name: "directional-right" },
          layers: [{ type: "rainbow-colors" }, { type: "title", text: "colours" }],
        },
        { duration: 3, layers: [{ type: "pause" }, { type: "title", text: "pause" }] },
        {
          duration: 3,
          transition: { name: "fadegrayscale" },
          layers: [{ type: "title-background", text: "ramp", background: { type: "linear-gradient" } }],
        },
        {
          duration: 2.5,
          transition: { name: "directionalWarp" },
          layers: [{ type: "image", path: m.photo, zoomDirection: "out" }],
        },
        {
          duration: 3,
          transition: { name: "dreamyzoom" },
          layers: [
            { type: "image", path: m.photo, duration: 2.5, zoomDirection: "in" },
            { type: "subtitle", text: "a long line under the picture" },
            { type: "title", position: "top", text: "on top" },
          ],
        },
        {
          duration: 3,
          transition: { name: "colorphase" },
          layers: [
            { type: "image", path: m.photo, zoomDirection: "out" },
            { type: "subtitle", text: "sub" },
          ],
        },
        {
          duration: 2.5,
          transition: { name: "simplezoom" },
          layers: [{ type: "image", path: m.photo, zoomDirection: "in" }],
        },
        {
          duration: 1.5,
          transition: { name: "crosszoom", duration: 0.3 },
          layers: [
            { type: "video", path: m.video, cutTo: 58 },
            { type: "title", text: "video" },
          ],
        },
        {
          duration: 3,
          transition: { name: "fade" },
          layers: [{ type: "video", path: m.video, cutFrom: 58 }],
        },
        { transition: { name: "fade" }, layers: [{ type: "video", path: m.video2, cutTo: 2.5 }] },
        { duration: 1.5, layers: [{ type: "video", path: m.video, cutFrom: 3, cutTo: 30 }] },
        {
          duration: 3,
          transition: { name: "crosszoom" },
          layers: [
            { type: "gl", fragmentPath: m.shader },
            { type: "title", text: "shaders" },
          ],
        },
        { duration: 3, layers: [{ type: "gl", fragmentPath: m.shader }] },
        { duration: 3, layers: [{ type: "gl", fragmentPath: m.shader }] },
        { duration: 3, layers: [{ type: "gl", fragmentPath: m.shader, speed: 5 }] },
        {
          duration: 3,
          layers: [
            { type: "image", path: m.photo },
            { type: "news-title", text: "NEWS" },
            { type: "subtitle", text: "below the news", backgroundColor: "rgba(0,0,0,0.5)" },
          ],
        },
        {
          duration: 3,
          layers: [
            { type: "rainbow-colors" },
            {
              type: "video",
              path: m.video,
              resizeMode: "contain",
              width: 0.4,
              height: 0.4,
              top: 0.05,
              left: 0.95,
              originY: "top",
              originX: "right",
            },
            { type: "title", position: "bottom", text: "inset" },
          ],
        },
        { duration: 3, layers: [{ type: "editly-banner" }] },
      ],
    },
    "contain-blur": {
      width: 3000,
      height: 2000,
      fps: 15,
      outPath: "./contain-blur.mp4",
      defaults: { transition: null },
      clips: [
        { duration: 0.3, layers: [{ type: "image", path: m.photo, zoomDirection: null }] },
        { duration: 0.5, layers: [{ type: "video", path: m.video2, cutFrom: 0, cutTo: 2 }] },
      ],
    },
    customOutputArgs: {
      outPath: "./customOutputArgs.webp",
      clips: [{ duration: 2, layers: [banner("args")] }],
      customOutputArgs: ["-compression_level", "5", "-qscale", "60", "-vcodec", "libwebp"],
    },
    gl: {
      outPath: "./gl.mp4",
      clips: [
        { transition: null, duration: 3, layers: [{ type: "gl", fragmentPath: m.shader }] },
        { duration: 3, layers: [{ type: "gl", fragmentPath: m.shader }] },
        { duration: 3, layers: [{ type: "gl", fragmentPath: m.shader, speed: 1 }] },
        { duration: 3, layers: [{ type: "gl", fragmentPath: m.shader }] },
        { duration: 3, layers: [{ type: "gl", fragmentPath: m.shader, speed: 5 }] },
      ],
    },
    gradients: {
      outPath: "./gradients.mp4",
      defaults: { transition: { name: "linearblur", duration: 0.1 } },
      clips: [
        { duration: 1, layers: [{ type: "linear-gradient", colors: ["#02aab0", "#00cdac"] }] },
        { duration: 1, layers: [{ type: "radial-gradient", colors: ["#b002aa", "#ac00cd"] }] },
        { duration: 1, layers: [{ type: "linear-gradient" }] },
        { duration: 1, layers: [{ type: "radial-gradient" }] },
      ],
    },
    image: {
      width: 600,
      height: 300,
      outPath: "./image.mp4",
      defaults: { transition: null, duration: 0.2 },
      clips: [
        { layers: [{ type: "image", path: m.photo }] },
        { layers: [{ type: "image", path: m.overlay }] },
        {
          layers: [
            { type: "fill-color", color: "white" },
            { type: "image", path: m.photo, resizeMode: "contain" },
          ],
        },
        {
          layers: [
            { type: "fill-color", color: "white" },
            { type: "image", path: m.overlay, resizeMode: "contain" },
          ],
        },
        { layers: [{ type: "image", path: m.photo, resizeMode: "cover" }] },
        { layers: [{ type: "image", path: m.overlay, resizeMode: "cover" }] },
        { layers: [{ type: "image", path: m.photo, resizeMode: "stretch" }] },
        { layers: [{ type: "image", path: m.overlay, resizeMode: "stretch" }] },
      ],
    },
    imageOverlay: {
      outPath: "./imageOverlay.mp4",
      clips: [
        {
          layers: [
            { type: "video", path: m.video, cutTo: 2 },
            {
              type: "image-overlay",
              path: m.overlay,
              width: 0.2,
              position: { x: 0.95, y: 0.03, originX: "right" },
            },
            { type: "image-overlay", path: m.overlay, stop: 0.5, zoomDirection: "in" },
            { type: "image-overlay", path: m.overlay, position: "top", start: 0.7, stop: 1.5, width: 0.2 },
            {
              type: "image-overlay",
              path: m.overlay,
              position: "bottom",
              start: 0.7,
              stop: 1.5,
              height: 0.2,
            },
          ],
        },
      ],
    },
    kenBurns: {
      outPath: "./kenBurns.mp4",
      defaults: { transition: { name: "fade" } },
      clips: [
        { duration: 3, layers: [{ type: "image", path: m.photo, zoomDirection: "out" }] },
        { duration: 3, layers: [{ type: "image", path: m.photo, zoomDirection: "in" }] },
        { duration: 3, layers: [{ type: "image", path: m.photo, zoomDirection: null }] },
      ],
    },
    mosaic: {
      width: 500,
      height: 500,
      outPath: "./mosaic.mp4",
      defaults: { transition: { duration: 0 }, ...font, layerType: { video: { width: 0.4, height: 0.4 } } },
      clips: [
        {
          duration: 2,
          layers: [
            {
              type: "video",
              path: m.video,
              cutFrom: 0,
              cutTo: 2,
              resizeMode: "cover",
              top: 0.5,
              left: 0.5,
              originY: "center",
              originX: "center",
            },
            { type: "video", path: m.video, cutFrom: 0, cutTo: 2, resizeMode: "contain" },
            {
              type: "video",
              path: m.video,
              cutFrom: 0,
              cutTo: 2,
              resizeMode: "contain-blur",
              left: 1,
              originX: "right",
            },
            {
              type: "video",
              path: m.video2,
              cutFrom: 0,
              cutTo: 2,
              resizeMode: "contain-blur",
              left: 1,
              top: 1,
              originX: "right",
              originY: "bottom",
            },
            {
              type: "video",
              path: m.video,
              cutFrom: 0,
              cutTo: 2,
              resizeMode: "stretch",
              top: 1,
              originY: "bottom",
            },
          ],
        },
      ],
    },
    newsTitle: {
      width: 900,
      height: 1600,
      outPath: "./newsTitle.mp4",
      defaults: font,
      clips: [
        {
          duration: 10,
          layers: [
            { type: "image", path: m.photo },
            { type: "news-title", text: "NEWS" },
            { type: "subtitle", text: "a long line", backgroundColor: "rgba(0,0,0,0.5)" },
          ],
        },
      ],
    },
    ph: {
      width: 240,
      height: 240,
      fps: 14,
      outPath: "./ph.gif",
      defaults: { transition: { duration: 0.4 }, ...font },
      clips: [
        {
          duration: 1,
          transition: { name: "directionalWarp" },
          layers: [
            { type: "image", path: m.photo, zoomDirection: "out" },
            { type: "title", text: "HELLO" },
          ],
        },
        {
          duration: 1.5,
          transition: { name: "dreamyzoom" },
          layers: [
            { type: "image", path: m.photo, duration: 2.5, zoomDirection: "in" },
            { type: "title", position: "bottom", text: "below" },
          ],
        },
        {
          duration: 2,
          layers: [
            { type: "image", path: m.photo },
            { type: "news-title", text: "HELLO" },
            { type: "subtitle", text: "small print", backgroundColor: "rgba(0,0,0,0.5)" },
          ],
        },
      ],
    },
    pip: {
      outPath: "./pip.mp4",
      width: 1280,
      height: 720,
      fps: 30,
      defaults: font,
      clips: [
        {
          duration: 4,
          layers: [
            { type: "rainbow-colors" },
            {
              type: "video",
              path: m.video,
              resizeMode: "cover",
              width: 0.3,
              height: 0.4,
              top: 0.05,
              left: 0.95,
              originY: "top",
              originX: "right",
            },
            {
              type: "video",
              path: m.video,
              resizeMode: "cover",
              width: 0.4,
              height: 0.2,
              top: 0.05,
              left: 0.05,
              originY: "top",
              originX: "left",
            },
            { type: "title", position: "bottom", text: "inset" },
          ],
        },
      ],
    },
    position: {
      outPath: "./position.mp4",
      defaults: { layerType: { "image-overlay": { width: 0.1 } } },
      clips: [
        {
          layers: [
            { type: "rainbow-colors" },
            ...[
              "top",
              "center",
              "bottom",
              "top-left",
              "top-right",
              "center-left",
              "center-right",
              "bottom-left",
              "bottom-right",
            ].map((position) => ({ type: "image-overlay", path: m.overlay, position })),
            {
              type: "image-overlay",
              path: m.overlay,
              width: 0.06,
              position: { originX: "center", originY: "center", x: 0.75, y: 0.75 },
            },
          ],
        },
      ],
    },
    remote: {
      outPath: "./remote.mp4",
      allowRemoteRequests: true,
      audioFilePath: m.music,
      clips: [
        { layers: [{ type: "image", path: m.photo }] },
        { layers: [{ type: "image", path: m.photo }] },
        { layers: [{ type: "image", path: m.photo }] },
      ],
    },
    single: {
      outPath: "./single.mp4",
      keepSourceAudio: true,
      clips: [{ layers: [{ type: "video", path: m.video, cutFrom: 0, cutTo: 2 }] }],
    },
    slideInText: {
      outPath: "./slideInText.mp4",
      defaults: font,
      clips: [
        {
          duration: 3,
          layers: [
            { type: "image", path: m.photo },
            {
              type: "slide-in-text",
              text: "sliding",
              textColor: "#fff",
              position: { x: 0.04, y: 0.93, originY: "bottom", originX: "left" },
              fontSize: 0.05,
            },
          ],
        },
      ],
    },
    smartFit: {
      outPath: "./smartFit.mp4",
      defaults: { transition: null, layer: { backgroundColor: "white" } },
      clips: [
        { layers: [{ type: "video", path: m.video, cutFrom: 0.4, cutTo: 2 }] },
        { layers: [{ type: "video", path: m.video, cutFrom: 0.4, cutTo: 2, resizeMode: "contain" }] },
        { layers: [{ type: "video", path: m.video, cutFrom: 0.4, cutTo: 2, resizeMode: "stretch" }] },
      ],
    },
    speedTest: {
      outPath: "./speedTest.mp4",
      defaults: { transition: null, ...font },
      clips: [
        {
          duration: 2,
          layers: [{ type: "title-background", text: "speed", background: { type: "radial-gradient" } }],
        },
        {
          duration: 2,
          layers: [
            { type: "video", path: m.video, cutFrom: 0, cutTo: 2 },
            { type: "title", text: "1x" },
          ],
        },
        {
          duration: 1,
          layers: [
            { type: "video", path: m.video, cutFrom: 0, cutTo: 4 },
            { type: "title", text: "4x" },
          ],
        },
        {
          duration: 2,
          layers: [
            { type: "video", path: m.video, cutFrom: 0, cutTo: 1 },
            { type: "title", text: "½x" },
          ],
        },
      ],
    },
    subtitle: {
      outPath: "./subtitle.mp4",
      defaults: { ...font, layerType: { "fill-color": { color: "#00aa00" } } },
      clips: [
        {
          duration: 2,
          layers: [
            { type: "rainbow-colors" },
            { type: "subtitle", text: "a long subtitle that wraps" },
            { type: "title", position: "top", text: "subtitles" },
          ],
        },
        {
          duration: 2,
          layers: [
            { type: "fill-color" },
            {
              type: "title",
              position: { x: 0, y: 1, originY: "bottom" },
              text: "placed",
              zoomDirection: null,
            },
          ],
        },
      ],
    },
    timeoutTest: {
      outPath: "./timeoutTest.mp4",
      clips: [
        {
          duration: 1.5,
          transition: { name: "crosszoom", duration: 0.3 },
          layers: [{ type: "video", path: m.video, cutTo: 58 }],
        },
        { duration: 3, transition: { name: "fade" }, layers: [{ type: "video", path: m.video, cutFrom: 0 }] },
      ],
    },
    transitionEasing: {
      fast: true,
      outPath: "./transitionEasing.mp4",
      defaults: { duration: 2 },
      clips: [
        {
          transition: { name: "directional", duration: 0.5 },
          layers: [{ type: "video", path: m.video, cutTo: 2 }],
        },
        {
          transition: { name: "directional", duration: 0.5, params: { direction: [1, 0] } },
          layers: [{ type: "video", path: m.video2, cutTo: 2 }],
        },
        {
          transition: { name: "directional", duration: 0.5, easing: null },
          layers: [{ type: "video", path: m.video2, cutTo: 2 }],
        },
        { layers: [{ type: "pause" }] },
      ],
    },
    transitions: {
      fast: true,
      outPath: "./transitions.mp4",
      width: 1024,
      height: 576,
      defaults: { duration: 3, transition: { duration: 1 } },
      clips: [
        ...GL_TRANSITIONS_1_43.map((name, i) => ({
          layers: [{ type: "title-background", text: GL_TRANSITIONS_1_43[i - 1] ?? "Transitions" }],
          transition: { name },
        })),
        { layers: [{ type: "title-background", text: "wipeUp" }], transition: { duration: 0 } },
      ],
    },
    transparentGradient: {
      outPath: "./transparentGradient.mp4",
      clips: [
        {
          duration: 0.1,
          layers: [
            { type: "fill-color", color: "green" },
            { type: "linear-gradient", colors: ["#ffffffff", "#ffffff00"] },
          ],
        },
      ],
    },
    videos: {
      width: 600,
      height: 800,
      outPath: "./videos.mp4",
      defaults: { transition: { duration: 0 }, ...font },
      clips: [
        {
          duration: 2,
          layers: [{ type: "title-background", text: "fits", background: { type: "radial-gradient" } }],
        },
        ...["contain", "contain-blur", "contain-blur", "stretch", "cover"].map((resizeMode, i) => ({
          layers: [
            { type: "video", path: i === 2 ? m.video2 : m.video, cutFrom: 0, cutTo: 2, resizeMode },
            { type: "title", text: resizeMode },
          ],
        })),
      ],
    },
    videos2: {
      outPath: "./video2.mp4",
      defaults: { transition: { name: "linearblur" }, ...font },
      clips: [
        {
          layers: [
            { type: "video", path: m.video, cutFrom: 0, cutTo: 2 },
            { type: "title", text: "one" },
          ],
        },
        { layers: [{ type: "video", path: m.video2, cutFrom: 0, cutTo: 2 }] },
      ],
    },
    vignette: {
      outPath: "./vignette.mp4",
      clips: [
        {
          layers: [
            { type: "video", path: m.video, cutTo: 2 },
            { type: "image", path: m.overlay, resizeMode: "stretch", zoomDirection: null },
          ],
        },
      ],
    },
    visibleFromUntil: {
      outPath: "./visibleFromUntil.mp4",
      defaults: font,
      clips: [
        {
          duration: 2,
          layers: [
            { type: "video", path: m.video, cutFrom: 0.4, cutTo: 2 },
            {
              type: "video",
              path: m.video2,
              resizeMode: "contain",
              cutFrom: 0,
              cutTo: 6,
              start: 0.5,
              stop: 1,
            },
          ],
        },
        {
          duration: 2,
          layers: [
            { type: "video", path: m.video, cutFrom: 0.5, cutTo: 3.5 },
            { type: "news-title", text: "Hi", start: 0.5, stop: 1 },
          ],
        },
        {
          layers: [
            { type: "video", path: m.video, cutFrom: 0, cutTo: 4 },
            { type: "video", path: m.video2, cutFrom: 0, cutTo: 1, start: 1, stop: 2 },
          ],
        },
      ],
    },
  };
};

/** The editly options each example carries that change nothing here (validation's IGNORED_PROPERTY warnings). */
export const EXPECTED_WARNINGS: Record<string, string[]> = {
  commonFeatures: ["config.outPath", "config.clips[6].layers[0].duration"],
  customOutputArgs: ["config.outPath", "config.customOutputArgs"],
  ph: ["config.outPath", "config.clips[1].layers[0].duration"],
  remote: ["config.outPath", "config.allowRemoteRequests"],
};
