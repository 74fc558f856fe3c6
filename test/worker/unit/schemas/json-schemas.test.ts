/**
 * The served JSON Schemas must agree with validateJobConfig: a third-party validator (ajv) run on the
 * generated documents accepts what the service accepts and refuses what it refuses, for every rule
 * JSON Schema can state.
 */
import Ajv from "ajv";
import { describe, expect, it } from "vitest";
import { validateJobConfig } from "@media-render/contract/config";
import { configJsonSchema } from "../../../../src/schemas/json-schemas.ts";
import {
  FONT,
  imageConfig,
  imageLayers,
  videoConfig,
  videoLayers,
} from "../../../../packages/contract/test/helpers/examples.ts";

const ajv = new Ajv({ allErrors: true, strict: true, strictTypes: false, strictTuples: false });
const validators = {
  image: ajv.compile(configJsonSchema("image")),
  video: ajv.compile(configJsonSchema("video")),
};

const clip = (layers: unknown[], extra: Record<string, unknown> = {}) => ({ duration: 2, layers, ...extra });
const text = (extra: Record<string, unknown> = {}) => ({ type: "text", text: "a", ...extra });

const valid: [string, "image" | "video", unknown][] = [
  ["every image layer", "image", imageConfig()],
  ...Object.entries(imageLayers).map(([name, layer]): [string, "image", unknown] => [
    `image ${name}`,
    "image",
    imageConfig([layer]),
  ]),
  [
    "image defaults",
    "image",
    imageConfig([text()], { defaults: { layer: { opacity: 0.5 }, layerType: { text: { color: "red" } } } }),
  ],
  ["smallest video", "video", { clips: [{ layers: [{ type: "pause" }] }] }],
  ...Object.entries(videoLayers).map(([name, layer]): [string, "video", unknown] => [
    `video ${name}`,
    "video",
    videoConfig([clip([layer])]),
  ]),
  [
    "video top level",
    "video",
    videoConfig(undefined, {
      defaults: { duration: 3, transition: null, layerType: { title: { fontSize: 60 } } },
      audioTracks: [{ path: "/a.mp3", start: 1 }],
      audioNorm: { enable: true },
      globalLayers: [videoLayers.title],
    }),
  ],
  [
    "editly volumes",
    "video",
    videoConfig(undefined, {
      outputVolume: "-10dB",
      clipsAudioVolume: 2,
      audioTracks: [{ path: "/a.mp3", mixVolume: "3 dB" }],
    }),
  ],
  ["editly single layer object", "video", { clips: [{ layers: { type: "fill-color", color: "red" } }] }],
  [
    "keyframed opacity, rotation, scale, position and mixVolume",
    "video",
    videoConfig([
      clip([
        {
          type: "title",
          text: "a",
          opacity: [
            { time: 0, value: 0, easing: "cubic-bezier(0.2, -0.5, 0.8, 1.5)" },
            { time: 1, value: 1, easing: "step" },
          ],
          rotation: 30,
          scale: [{ time: 0, value: 2, easing: "ease-in-out" }],
          position: { x: [{ time: 0.5, value: 0.25 }], y: 0.5 },
        },
        {
          type: "audio",
          path: "/a.mp3",
          mixVolume: [
            { time: 0, value: 0 },
            { time: 1, value: 2 },
          ],
        },
      ]),
    ]),
  ],
  ["googleFont", "image", imageConfig([text({ googleFont: "Roboto" })])],
  ["catalogFont, googleFont's alias", "image", imageConfig([text({ catalogFont: "Roboto" })])],
  ["fitted image text", "image", imageConfig([text({ width: 300, minFontSize: 10, maxFontSize: 64 })])],
  [
    "fitted video titles",
    "video",
    videoConfig([
      clip(
        ["title", "subtitle", "news-title", "title-background"].map((type) => ({
          type,
          text: "a",
          minFontSize: 8,
          maxFontSize: 500,
        })),
      ),
    ]),
  ],
  ["fps 120 at 1 px", "video", videoConfig(undefined, { fps: 120, width: 1, height: 1 })],
  [
    "video speed and loop, animated overlay, a frame of a video",
    "video",
    videoConfig([
      clip([
        { type: "video", path: "/v.mp4", speed: 0.25, loop: true },
        { type: "image-overlay", path: "/a.webp", loop: false },
        { type: "image", path: "/v.mp4", frameTime: 0 },
      ]),
      clip([{ type: "video", path: "/v.mp4", speed: 4, loop: false }]),
    ]),
  ],
  [
    "audio curve linear",
    "video",
    videoConfig([clip([{ type: "pause" }], { transition: { audioInCurve: "linear" } })]),
  ],
  [
    "editly's volumes, banner and ignored options",
    "video",
    videoConfig([clip([{ type: "image", path: "/i.jpg", duration: 2 }]), clip([{ type: "editly-banner" }])], {
      outPath: "./out.mp4",
      customOutputArgs: ["-crf", "18"],
      verbose: true,
      clipsAudioVolume: "50",
      backgroundAudioVolume: 2,
      audioNorm: { enable: true, gaussSize: 3, maxGain: 100 },
      audioTracks: [{ path: "/a.mp3", mixVolume: 50 }],
    }),
  ],
  [
    "image-overlay in pixels",
    "video",
    videoConfig([clip([{ type: "image-overlay", path: "/o.png", width: 200, height: 0.1 }])]),
  ],
  ...["crosszoom", "directionalWarp", "DIRECTIONAL-LEFT", "coord-from-in", "luminance_melt"].map(
    (name): [string, "video", unknown] => [
      `transition ${name}`,
      "video",
      videoConfig([clip([{ type: "pause" }], { transition: { name } }), clip([{ type: "pause" }])]),
    ],
  ),
];

const invalid: [string, "image" | "video", unknown][] = [
  ["canvas too small", "image", imageConfig(undefined, { width: 0 })],
  ["fractional canvas", "image", imageConfig(undefined, { height: 10.5 })],
  ["no layers", "image", imageConfig([])],
  ["51 layers", "image", imageConfig(Array.from({ length: 51 }, () => ({ type: "circle" })))],
  ["unknown top-level key", "image", imageConfig(undefined, { colour: "red" })],
  ["unknown layer key", "image", imageConfig([text({ fontsize: 3 })])],
  ["unknown layer type", "image", imageConfig([{ type: "svg" }])],
  ["missing text", "image", imageConfig([{ type: "text" }])],
  ["bad position name", "image", imageConfig([{ type: "circle", position: "middle" }])],
  ["position out of range", "image", imageConfig([{ type: "circle", position: { x: 1.5, y: 0 } }])],
  ["bad colour", "image", imageConfig([{ type: "rectangle", fill: "red; x: y" }])],
  ["quality 0", "image", imageConfig(undefined, { quality: 0 })],
  ["fontPath with catalogFont", "image", imageConfig([text({ fontPath: FONT, catalogFont: "Roboto" })])],
  ["fontPath with googleFont", "image", imageConfig([text({ fontPath: FONT, googleFont: "Roboto" })])],
  ["googleFont with its alias", "image", imageConfig([text({ googleFont: "Lato", catalogFont: "Roboto" })])],
  ["catalogFont weight 750", "image", imageConfig([text({ catalogFont: "Roboto:750" })])],
  ["googleFont weight 750", "image", imageConfig([text({ googleFont: "Roboto:750" })])],
  ["html and src", "image", imageConfig([{ type: "html", html: "x", src: "https://example.com" }])],
  ["html without content", "image", imageConfig([{ type: "html" }])],
  ["allowJavaScript", "image", imageConfig([{ type: "html", html: "x", allowJavaScript: true }])],
  ["http src", "image", imageConfig([{ type: "html", src: "http://example.com" }])],
  ["file without extension", "image", imageConfig([{ type: "image", path: "https://example.com/photo" }])],
  ["protocol-relative file", "image", imageConfig([{ type: "image", path: "//example.com/a.png" }])],
  ["gradient with one colour", "image", imageConfig([{ type: "gradient", gradient: { colors: ["red"] } }])],
  ["fps 121", "video", videoConfig(undefined, { fps: 121 })],
  [
    "opacity keyframe above 1",
    "video",
    videoConfig([clip([{ type: "pause", opacity: [{ time: 0, value: 1.5 }] }])]),
  ],
  ["keyframe without a time", "video", videoConfig([clip([{ type: "pause", scale: [{ value: 1 }] }])])],
  [
    "unknown easing",
    "video",
    videoConfig([clip([{ type: "pause", rotation: [{ time: 0, value: 1, easing: "bounce" }] }])]),
  ],
  ["no keyframes", "video", videoConfig([clip([{ type: "pause", opacity: [] }])])],
  ["width 0", "video", videoConfig(undefined, { width: 0 })],
  ["no clips", "video", videoConfig([])],
  [
    "101 clips",
    "video",
    videoConfig(Array.from({ length: 101 }, () => clip([{ type: "pause" }], { duration: 0.1 }))),
  ],
  ["21 layers", "video", videoConfig([clip(Array.from({ length: 21 }, () => ({ type: "pause" })))])],
  ["clip of 0.05 s", "video", videoConfig([clip([{ type: "pause" }], { duration: 0.05 })])],
  ["title font 7 px", "video", videoConfig([clip([{ type: "title", text: "a", fontSize: 7 }])])],
  ["fitted image text from 0 px", "image", imageConfig([text({ width: 9, minFontSize: 0, maxFontSize: 9 })])],
  [
    "fitted image text up to 4097 px",
    "image",
    imageConfig([text({ width: 9, minFontSize: 9, maxFontSize: 4097 })]),
  ],
  [
    "fitted title from 7 px",
    "video",
    videoConfig([clip([{ type: "title", text: "a", minFontSize: 7, maxFontSize: 20 }])]),
  ],
  [
    "fitted subtitle up to 501 px",
    "video",
    videoConfig([clip([{ type: "subtitle", text: "a", minFontSize: 8, maxFontSize: 501 }])]),
  ],
  [
    "minFontSize on a slide-in-text",
    "video",
    videoConfig([clip([{ type: "slide-in-text", text: "a", minFontSize: 8, maxFontSize: 20 }])]),
  ],
  [
    "unknown transition",
    "video",
    videoConfig([clip([{ type: "pause" }], { transition: { name: "Fader" } })]),
  ],
  [
    "audio curve lin",
    "video",
    videoConfig([clip([{ type: "pause" }], { transition: { audioInCurve: "lin" } })]),
  ],
  ["outPath not a string", "video", videoConfig(undefined, { outPath: 3 })],
  [
    "video in globalLayers",
    "video",
    videoConfig(undefined, { globalLayers: [{ type: "video", path: "/v.mp4" }] }),
  ],
  ["text layer in a clip", "video", videoConfig([clip([text()])])],
  ["mp3 as video", "video", videoConfig([clip([{ type: "video", path: "https://example.com/a.mp3" }])])],
  [
    "animated duration 31",
    "video",
    videoConfig([clip([{ type: "html", html: "x", animated: true, duration: 31 }])]),
  ],
  ["volume 1001", "video", videoConfig(undefined, { outputVolume: 1001 })],
  ["speed 0.2", "video", videoConfig([clip([{ type: "video", path: "/v.mp4", speed: 0.2 }])])],
  ["speed 4.5", "video", videoConfig([clip([{ type: "video", path: "/v.mp4", speed: 4.5 }])])],
  ["loop as text", "video", videoConfig([clip([{ type: "video", path: "/v.mp4", loop: "yes" }])])],
  ["negative frameTime", "video", videoConfig([clip([{ type: "image", path: "/v.mp4", frameTime: -1 }])])],
  [
    "frameTime on a video layer",
    "video",
    videoConfig([clip([{ type: "video", path: "/v.mp4", frameTime: 1 }])]),
  ],
  ["volume in bels", "video", videoConfig(undefined, { outputVolume: "-1B" })],
];

describe("the video schema documents playback", () => {
  it("describes speed, loop and frameTime where they apply", () => {
    const schema = JSON.stringify(configJsonSchema("video"));
    for (const phrase of [
      "Plays the cut this many times as fast (0.25-4)",
      "Repeats the cut (at its speed) for as long as the layer lasts",
      "An animated GIF or WebP plays at its own frame timing",
      "Draws one frame of a moving picture as a still",
    ])
      expect(schema).toContain(phrase);
  });
});

describe("served JSON Schema agrees with validateJobConfig", () => {
  it.each(valid)("both accept: %s", (_, type, config) => {
    expect(validateJobConfig(type, config).valid).toBe(true);
    expect(validators[type](config), JSON.stringify(validators[type].errors)).toBe(true);
  });

  it.each(invalid)("both refuse: %s", (_, type, config) => {
    expect(validateJobConfig(type, config).valid).toBe(false);
    expect(validators[type](config)).toBe(false);
  });
});
