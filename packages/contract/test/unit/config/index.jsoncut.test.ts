/**
 * JsonCut's published JSON Schemas (jsoncut/jsoncut-mcp-server, schemas/image-schema.json and
 * schemas/video-schema.json) as the reference for what a JsonCut client may send. The facts below are what
 * those schemas allow, written down here in our own words: every property of every object they describe, every
 * value of every list they enumerate, and every numeric bound they state. Each must pass our validation, except
 * the few differences listed in DIFFERENCES, which must be refused with the message docs/compatibility.md's JsonCut section
 * explains.
 */
import { describe, expect, it } from "vitest";
import { validateJobConfig } from "../../../src/config/index.ts";

/** What JsonCut allows for one property: a value it accepts, and the values or bounds it states. */
interface Fact {
  sample: unknown;
  values?: readonly unknown[];
  min?: number;
  max?: number;
}
type Facts = Record<string, Fact>;

const PRESETS = [
  "center",
  "top",
  "bottom",
  "top-left",
  "top-right",
  "center-left",
  "center-right",
  "bottom-left",
  "bottom-right",
];
const ORIGIN_OBJECT = { x: 0.5, y: 0.5, originX: "center", originY: "center" };
const position: Fact = { sample: "center", values: [...PRESETS, ORIGIN_OBJECT, { x: 0, y: 1 }] };
const ZOOM = ["in", "out", "left", "right", null];
const zoom: Facts = {
  zoomDirection: { sample: "in", values: ZOOM },
  zoomAmount: { sample: 0.1, min: 0, max: 1 },
};
const hex: Fact = { sample: "#ffffff" };
const FONT_FILE = "/font/2024-01-15/u/brand.ttf";
const videoFonts: Facts = {
  fontPath: { sample: FONT_FILE },
  googleFont: { sample: "Montserrat:600" },
};
const PHOTO = "/image/2024-01-15/u/photo.jpg";
const CLIP = "/video/2024-01-15/u/clip.mp4";
const SOUND = "/audio/2024-01-15/u/sound.mp3";

/** Image schema: the canvas. */
const IMAGE_TOP: Facts = {
  width: { sample: 800, min: 1, max: 4096 },
  height: { sample: 600, min: 1, max: 4096 },
  backgroundColor: { sample: "#101010" },
  format: { sample: "png", values: ["png", "jpeg", "webp"] },
  quality: { sample: 90, min: 1, max: 100 },
};

/** Image schema: each layer type, its required properties, then every property it lists. */
const IMAGE_LAYERS: Record<string, { base: Record<string, unknown>; facts: Facts }> = {
  image: {
    base: { path: PHOTO },
    facts: {
      path: { sample: "https://images.example.com/photo-123.jpg" },
      x: { sample: 10 },
      y: { sample: 10 },
      width: { sample: 200 },
      height: { sample: 100 },
      position,
      fit: { sample: "cover", values: ["cover", "contain", "fill", "inside", "outside"] },
      opacity: { sample: 0.5, min: 0, max: 1 },
      rotation: { sample: 15 },
      blur: { sample: 2 },
      borderRadius: { sample: 8 },
    },
  },
  text: {
    base: { text: "Hi" },
    facts: {
      text: { sample: "Hello" },
      x: { sample: 10 },
      y: { sample: 10 },
      width: { sample: 300 },
      position,
      fontSize: { sample: 24 },
      fontFamily: { sample: "Arial" },
      fontPath: { sample: FONT_FILE },
      googleFont: { sample: "Roboto:600" },
      color: { sample: "#000000" },
      align: { sample: "left", values: ["left", "center", "right"] },
      wrap: { sample: false },
      lineHeight: { sample: 1.5 },
      backgroundColor: { sample: "#ffff00" },
      opacity: { sample: 1, min: 0, max: 1 },
      rotation: { sample: -10 },
      blur: { sample: 1 },
    },
  },
  rectangle: {
    base: { x: 0, y: 0, width: 10, height: 10 },
    facts: {
      fill: { sample: "#3b82f6" },
      stroke: { sample: "#1e40af" },
      strokeWidth: { sample: 2 },
      opacity: { sample: 1, min: 0, max: 1 },
      rotation: { sample: 45 },
      blur: { sample: 3 },
      borderRadius: { sample: 6 },
    },
  },
  circle: {
    base: { x: 0, y: 0, width: 10, height: 10 },
    facts: {
      fill: { sample: "#ef4444" },
      stroke: { sample: "#ffffff" },
      strokeWidth: { sample: 3 },
      opacity: { sample: 1, min: 0, max: 1 },
      blur: { sample: 3 },
    },
  },
  gradient: {
    base: { x: 0, y: 0, width: 10, height: 10, gradient: { type: "linear", colors: ["#000", "#fff"] } },
    facts: {
      gradient: {
        sample: { type: "radial", colors: ["#667eea", "#764ba2"] },
        values: [
          ...["linear", "radial"].map((type) => ({ type, colors: ["#667eea", "#764ba2"] })),
          ...["horizontal", "vertical", "diagonal"].map((direction) => ({
            type: "linear",
            colors: ["#667eea", "#764ba2"],
            direction,
          })),
        ],
      },
      opacity: { sample: 1, min: 0, max: 1 },
      rotation: { sample: 90 },
      blur: { sample: 4 },
    },
  },
};

/** Video schema: the top level (clips aside). */
const VIDEO_TOP: Facts = {
  width: { sample: 1280, min: 1, max: 4096 },
  height: { sample: 720, min: 1, max: 4096 },
  fps: { sample: 25, values: [24, 25, 30, 50, 60, 120], min: 1, max: 120 },
  format: { sample: "mp4", values: ["mp4", "mov"] },
  fast: { sample: true },
  audioFilePath: { sample: SOUND },
  loopAudio: { sample: true },
  outputVolume: { sample: 0.8, min: 0, max: 1 },
  keepSourceAudio: { sample: true },
  clipsAudioVolume: { sample: 0.5, min: 0, max: 1 },
  audioTracks: {
    sample: [{ path: SOUND }],
    values: [
      [{ path: "https://cdn.example.com/a/track.mp3", mixVolume: 0, start: 0, cutFrom: 0 }],
      [{ path: SOUND, mixVolume: 1, start: 2, cutFrom: 1, cutTo: 3 }],
    ],
  },
  audioNorm: {
    sample: { enable: true },
    values: [
      { enable: false, gaussSize: 1, maxGain: 0 },
      { enable: true, gaussSize: 10, maxGain: 50 },
      { enable: true, gaussSize: 5, maxGain: 30 },
    ],
  },
  defaults: {
    sample: { duration: 3 },
    values: [
      { duration: 0.1 },
      { transition: { name: "fade", duration: 0 } },
      { layer: { fontPath: FONT_FILE } },
      { layer: { googleFont: "Roboto:600" } },
      { layerType: { title: { fontSize: 64, textColor: "#ffffff" }, subtitle: { fontSize: 32 } } },
    ],
  },
};

/** The 67 transition names JsonCut enumerates. */
const TRANSITIONS = [
  "fade",
  "fadecolor",
  "fadegrayscale",
  "wipeLeft",
  "wipeRight",
  "wipeUp",
  "wipeDown",
  "directionalwipe",
  "directionalwarp",
  "Directional",
  "circle",
  "circleopen",
  "CircleCrop",
  "hexagonalize",
  "kaleidoscope",
  "pinwheel",
  "GridFlip",
  "randomsquares",
  "Mosaic",
  "BowTieHorizontal",
  "BowTieVertical",
  "cube",
  "SimpleZoom",
  "CrossZoom",
  "DreamyZoom",
  "ZoomInCircles",
  "rotate_scale_fade",
  "Bounce",
  "GlitchDisplace",
  "GlitchMemories",
  "crosshatch",
  "windowblinds",
  "windowslice",
  "pixelize",
  "displacement",
  "crosswarp",
  "Swirl",
  "LinearBlur",
  "WaterDrop",
  "ripple",
  "luminance_melt",
  "wind",
  "undulatingBurnOut",
  "burn",
  "Dreamy",
  "ColourDistance",
  "colorphase",
  "multiply_blend",
  "CrazyParametricFun",
  "polar_function",
  "perlin",
  "angular",
  "squeeze",
  "swap",
  "morph",
  "ButterflyWaveScrawler",
  "DoomScreenTransition",
  "InvertedPageCurl",
  "PolkaDotsCurtain",
  "Radial",
  "StereoViewer",
  "cannabisleaf",
  "doorway",
  "flyeye",
  "heart",
  "luma",
  "squareswire",
];

/** Video schema: a clip's own properties (layers aside). */
const CLIP_FACTS: Facts = {
  duration: { sample: 2, min: 0.1 },
  transition: {
    sample: { name: "fade", duration: 1 },
    values: [
      ...TRANSITIONS.map((name) => ({ name, duration: 0.5 })),
      { name: "fade", duration: 0 },
      ...["tri", "exp", "linear"].flatMap((curve) => [
        { name: "fade", duration: 1, audioOutCurve: curve },
        { name: "fade", duration: 1, audioInCurve: curve },
      ]),
    ],
  },
};

const audioCut: Facts = {
  mixVolume: { sample: 0.8, min: 0, max: 1 },
  cutFrom: { sample: 1, min: 0 },
  cutTo: { sample: 3, min: 0 },
};

/** Video schema: each clip layer type, its required properties, then every property it lists. */
const VIDEO_LAYERS: Record<string, { base: Record<string, unknown>; facts: Facts }> = {
  video: {
    base: { path: CLIP },
    facts: {
      path: { sample: "https://cdn.example.com/v/clip.mp4" },
      resizeMode: { sample: "cover", values: ["contain", "contain-blur", "cover", "stretch"] },
      ...audioCut,
      width: { sample: 0.5, min: 0, max: 1 },
      height: { sample: 0.5, min: 0, max: 1 },
      position,
      ...zoom,
    },
  },
  image: {
    base: { path: PHOTO },
    facts: {
      path: { sample: "https://picsum.example.com/1920/1080.jpg" },
      resizeMode: { sample: "cover", values: ["contain", "cover", "stretch"] },
      position,
      width: { sample: 0.5, min: 0, max: 1 },
      height: { sample: 0.5, min: 0, max: 1 },
      ...zoom,
    },
  },
  "image-overlay": {
    base: { path: PHOTO },
    facts: {
      position,
      // "Relative (0-1) or absolute pixels".
      width: { sample: 0.2, values: [0.15, 1, 200, 1280] },
      height: { sample: 0.1, values: [0.08, 1, 120, 720] },
      start: { sample: 0.5, min: 0 },
      stop: { sample: 1.5, min: 0 },
      ...zoom,
    },
  },
  title: {
    base: { text: "Title" },
    facts: {
      text: { sample: "Welcome" },
      style: { sample: "fade-in", values: ["fade-in", "word-by-word", "letter-by-letter"] },
      textColor: hex,
      fontSize: { sample: 64, min: 8, max: 500 },
      ...videoFonts,
      position,
      ...zoom,
    },
  },
  subtitle: {
    base: { text: "Subtitle" },
    facts: {
      textColor: hex,
      fontSize: { sample: 32, min: 8, max: 500 },
      ...videoFonts,
      position: { sample: "bottom", values: ["top", "bottom", "center", ORIGIN_OBJECT] },
    },
  },
  "news-title": {
    base: { text: "BREAKING" },
    facts: { textColor: hex, backgroundColor: { sample: "#d02a42" }, ...videoFonts, position },
  },
  "title-background": {
    base: { text: "Chapter 1" },
    facts: {
      textColor: hex,
      fontSize: { sample: 72, min: 8, max: 500 },
      ...videoFonts,
      position,
      background: {
        sample: { type: "fill-color", color: "#1a1a2e" },
        values: [
          { type: "fill-color", color: "#1a1a2e" },
          { type: "linear-gradient", colors: ["#667eea", "#764ba2"] },
          { type: "radial-gradient", colors: ["#667eea", "#764ba2"] },
          ...["horizontal", "vertical", "diagonal"].map((direction) => ({
            type: "linear-gradient",
            colors: ["#667eea", "#764ba2"],
            direction,
          })),
        ],
      },
    },
  },
  "slide-in-text": {
    base: { text: "SLIDE IN" },
    facts: { fontSize: { sample: 0.1, min: 0, max: 1 }, textColor: hex, ...videoFonts, position },
  },
  audio: { base: { path: SOUND }, facts: audioCut },
  "detached-audio": { base: { path: SOUND }, facts: { start: { sample: 1, min: 0 }, ...audioCut } },
  "fill-color": {
    base: { color: "#1a1a2e" },
    facts: { color: { sample: "#1a1a2e", values: ["#1a1a2e", "#1a1a2e80"] } },
  },
  "linear-gradient": {
    base: { colors: ["#667eea", "#764ba2"] },
    facts: {
      colors: { sample: ["#667eea", "#764ba2"] },
      direction: { sample: "vertical", values: ["horizontal", "vertical", "diagonal"] },
    },
  },
  "radial-gradient": { base: { colors: ["#667eea", "#764ba2"] }, facts: {} },
  "rainbow-colors": { base: {}, facts: {} },
  pause: { base: {}, facts: {} },
};

/**
 * Values JsonCut's schemas allow that we refuse on purpose (docs/compatibility.md, "JsonCut compatibility"), by where and value,
 * with the message that says why.
 */
const DIFFERENCES: Record<string, string> = {
  // A size of 0 draws nothing: sizes must be above 0.
  "video layer video.width=0": "must be greater than 0",
  "video layer video.height=0": "must be greater than 0",
  "video layer image.width=0": "must be greater than 0",
  "video layer image.height=0": "must be greater than 0",
  "video layer slide-in-text.fontSize=0": "must be greater than 0",
  // A cut or window that ends at 0 s is empty.
  "video layer video.cutTo=0": "must be greater than 0",
  "video layer audio.cutTo=0": "must be greater than 0",
  "video layer detached-audio.cutTo=0": "must be greater than 0",
  "video layer image-overlay.stop=0": "must be greater than 0",
};

const minimalVideo = (layers: unknown[], extra: Record<string, unknown> = {}) => ({
  clips: [{ duration: 2, layers }],
  ...extra,
});
const minimalImage = (layers: unknown[], extra: Record<string, unknown> = {}) => ({
  width: 100,
  height: 100,
  layers,
  ...extra,
});

/** One case per sample, listed value and stated bound of each fact. */
const cases = (where: string, facts: Facts) => {
  return Object.entries(facts).flatMap(([key, fact]) => {
    const values = [fact.sample, ...(fact.values ?? [])];
    if (fact.min !== undefined) values.push(fact.min);
    if (fact.max !== undefined) values.push(fact.max);
    return values.map((value) => ({ name: `${where}.${key}=${JSON.stringify(value)}`, key, value }));
  });
};

/** Validation's errors for a config, as `field: message` ([] when it is accepted). */
const answer = (type: "image" | "video", config: unknown): string[] => {
  const result = validateJobConfig(type, config);
  return result.valid ? [] : result.errors.map((e) => `${e.field}: ${e.message}`);
};

/** What the case must get: no error, or the documented refusal of DIFFERENCES. */
const expected = (name: string) =>
  DIFFERENCES[name] === undefined ? [] : [expect.stringContaining(DIFFERENCES[name])];

describe("JsonCut's image schema, property by property", () => {
  it.each(cases("image", IMAGE_TOP))("accepts $name", ({ key, value }) => {
    const config = { ...minimalImage([{ type: "circle" }]), [key]: value };
    expect(answer("image", config)).toEqual(expected(`image.${key}=${JSON.stringify(value)}`));
  });

  it("accepts defaults for every layer type JsonCut names", () => {
    const layerType = Object.fromEntries(Object.keys(IMAGE_LAYERS).map((t) => [t, { opacity: 0.5 }]));
    const config = {
      ...minimalImage([{ type: "circle" }]),
      defaults: { layer: { opacity: 0.9 }, layerType },
    };
    expect(answer("image", config)).toEqual([]);
  });

  for (const [type, { base, facts }] of Object.entries(IMAGE_LAYERS)) {
    it.each(cases(`image layer ${type}`, facts))("accepts $name", ({ name, key, value }) => {
      expect(answer("image", minimalImage([{ type, ...base, [key]: value }]))).toEqual(expected(name));
    });
  }
});

describe("JsonCut's video schema, property by property", () => {
  it.each(cases("video", VIDEO_TOP))("accepts $name", ({ key, value }) => {
    const config = { ...minimalVideo([{ type: "pause" }]), [key]: value };
    expect(answer("video", config)).toEqual(expected(`video.${key}=${JSON.stringify(value)}`));
  });

  it.each(cases("clip", CLIP_FACTS))("accepts $name", ({ name, key, value }) => {
    const clip = { layers: [{ type: "pause" }], [key]: value };
    expect(answer("video", { clips: [clip, { layers: [{ type: "pause" }] }] })).toEqual(expected(name));
  });

  for (const [type, { base, facts }] of Object.entries(VIDEO_LAYERS)) {
    it(`accepts a ${type} layer with only its required properties`, () => {
      expect(answer("video", minimalVideo([{ type, ...base }]))).toEqual([]);
    });
    it.each(cases(`video layer ${type}`, facts))("accepts $name", ({ name, key, value }) => {
      expect(answer("video", minimalVideo([{ type, ...base, [key]: value }]))).toEqual(expected(name));
    });
  }

  it("lists every difference it refuses among the cases above", () => {
    const all = [
      ...Object.entries(VIDEO_LAYERS).flatMap(([t, { facts }]) => cases(`video layer ${t}`, facts)),
    ].map((c) => c.name);
    for (const name of Object.keys(DIFFERENCES)) expect(all, name).toContain(name);
  });
});

describe("JsonCut's wire names reach the grammar's view", () => {
  it("reads googleFont everywhere JsonCut sends it, and catalogFont as its alias", () => {
    const result = validateJobConfig("video", {
      defaults: { layer: { googleFont: "Roboto:700" }, layerType: { subtitle: { catalogFont: "Lato" } } },
      clips: [{ layers: [{ type: "title", text: "a", catalogFont: "Montserrat:800" }] }],
      autoSubtitles: true,
      autoSubtitlesStyle: { catalogFont: "Open Sans:400" },
    });
    if (!result.valid) throw new Error(JSON.stringify(result.errors));
    const config = result.config as unknown as {
      defaults: { layer: object; layerType: { subtitle: object } };
      clips: { layers: object[] }[];
      autoSubtitlesStyle: object;
    };
    expect(config.defaults.layer).toEqual({ googleFont: "Roboto:700" });
    expect(config.defaults.layerType.subtitle).toEqual({ googleFont: "Lato" });
    expect(config.clips[0]!.layers[0]).toEqual({ type: "title", text: "a", googleFont: "Montserrat:800" });
    expect(config.autoSubtitlesStyle).toEqual({ googleFont: "Open Sans:400" });
  });

  it("normalises the audio curve linear to tri", () => {
    const result = validateJobConfig("video", {
      clips: [
        { layers: [{ type: "pause" }], transition: { audioInCurve: "linear", audioOutCurve: "exp" } },
        { layers: [{ type: "pause" }] },
      ],
    });
    if (!result.valid || result.type !== "video") throw new Error(JSON.stringify(result));
    expect(result.config.clips[0]!.transition).toEqual({ audioInCurve: "tri", audioOutCurve: "exp" });
  });
});
