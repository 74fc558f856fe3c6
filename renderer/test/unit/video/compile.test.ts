import { describe, expect, it } from "vitest";
import { buildTimeline } from "@media-render/contract/timeline";
import { captionMixGraph } from "../../../src/video/captions/captions.ts";
import { compileGraph } from "../../../src/video/compile.ts";
import { videoSpec } from "../../../src/video/config.ts";
import { keyedLayers, isRaster } from "../../../src/video/layers/index.ts";
import { STDIN_PATH, type MediaInfo, type RasterAsset, type VideoFormat } from "../../../src/video/types.ts";
import { videoConfig } from "../../helpers/video-config.ts";

const PNG: MediaInfo = {
  width: 200,
  height: 100,
  duration: 0,
  hasVideo: true,
  hasAudio: false,
  hasAlpha: true,
  rotation: 0,
  videoCodec: "png",
  orientation: 1,
  demuxer: "png_pipe",
};

const graphFor = (format: VideoFormat): string => {
  const spec = videoSpec(
    videoConfig({
      width: 320,
      height: 180,
      fps: 25,
      clips: [
        {
          duration: 1,
          layers: [
            { type: "fill-color", color: "#336699" },
            { type: "image-overlay", path: "/in/logo.png", width: 0.3 },
          ],
        },
      ],
    }),
    format,
  );
  const timeline = buildTimeline(spec);
  return compileGraph({
    spec,
    timeline,
    jobId: "job",
    media: new Map([["/in/logo.png", PNG]]),
    rasters: new Map(),
  }).filterGraph;
};

describe("compileGraph layer compositing", () => {
  it("keeps an opaque mp4 canvas in yuv420p under overlays (no per-frame yuva420p round trip)", () => {
    const overlays = graphFor("mp4").match(/overlay=[^[;]*/g) ?? [];
    expect(overlays.length).toBeGreaterThan(0);
    for (const o of overlays) expect(o).toContain("format=yuv420");
  });

  it("lets webm overlays negotiate alpha (the canvas may be transparent)", () => {
    expect(graphFor("webm")).toMatch(/overlay=[^;]*format=auto/);
  });
});

describe("compileGraph inputs", () => {
  it("opens a still drawn by several layers once, and the graph reads it from every chain", () => {
    const spec = videoSpec(
      videoConfig({
        width: 320,
        height: 180,
        fps: 25,
        clips: [
          {
            duration: 1,
            layers: [
              { type: "fill-color", color: "#336699" },
              { type: "image-overlay", path: "/in/logo.png", width: 0.3, position: "top-left" },
              { type: "image-overlay", path: "/in/logo.png", width: 0.2, position: "bottom-right" },
            ],
          },
        ],
      }),
    );
    const timeline = buildTimeline(spec);
    const graph = compileGraph({
      spec,
      timeline,
      jobId: "job",
      media: new Map([["/in/logo.png", PNG]]),
      rasters: new Map(),
    });
    expect(graph.inputs).toEqual([["-f", "png_pipe", "-protocol_whitelist", "file", "-i", "/in/logo.png"]]);
    expect(graph.filterGraph.match(/\[0:v\]/g)).toHaveLength(2);
  });
});

/** What probing finds in the HEVC fixture (34.91 s, 600x338). */
const CLIP: MediaInfo = {
  width: 600,
  height: 338,
  duration: 34.91,
  hasVideo: true,
  hasAudio: false,
  hasAlpha: false,
  rotation: 0,
  videoCodec: "hevc",
  orientation: 1,
  demuxer: "mov",
};

const graphOf = (config: Record<string, unknown>, format?: VideoFormat) => {
  const spec = videoSpec(videoConfig(config), format);
  return compileGraph({
    spec,
    timeline: buildTimeline(spec),
    jobId: "job",
    media: new Map([["/in/clip.mp4", CLIP]]),
    rasters: new Map(),
  });
};

describe("compileGraph: cases generated configs found (test/generated-configs.test.ts)", () => {
  it("keeps a contain-blur copy large enough for its blur in a tiny or narrow box", () => {
    const graph = graphOf({
      width: 6,
      height: 85,
      clips: [{ duration: 1, layers: [{ type: "video", path: "/in/clip.mp4" }] }],
    });
    const [, w, h, radius] = /scale=(\d+):(\d+),boxblur=(\d+):2/.exec(graph.filterGraph)!.map(Number);
    // boxblur's chroma planes are half the copy: its radius must fit a quarter of the smaller side.
    expect(Math.min(w!, h!)).toBeGreaterThanOrEqual(4 * radius!);
  });

  it("hands a webm's Opus encoder frames of 960 samples, with or without sound", () => {
    const silent = graphOf(
      { width: 48, height: 48, fps: 5, clips: [{ duration: 1, layers: [{ type: "rainbow-colors" }] }] },
      "webm",
    );
    expect(silent.filterGraph).toMatch(/asetnsamples=n=960:p=0\[aout\]$/);
    expect(
      graphOf({ width: 48, height: 48, clips: [{ duration: 1, layers: [{ type: "pause" }] }] }).filterGraph,
    ).not.toMatch(/asetnsamples/);
  });

  it("draws nothing for a video cut that starts at or past its file's end (no stream that never yields a frame)", () => {
    const past = graphOf({
      width: 64,
      height: 64,
      clips: [{ duration: 1, layers: [{ type: "video", path: "/in/clip.mp4", cutFrom: 58 }] }],
    });
    expect(past.inputs).toEqual([]);
    const inside = graphOf({
      width: 64,
      height: 64,
      clips: [{ duration: 1, layers: [{ type: "video", path: "/in/clip.mp4", cutFrom: 34 }] }],
    });
    expect(inside.inputs[0]).toContain("/in/clip.mp4");
  });
});

describe("captionMixGraph: the mix a captioned job transcribes", () => {
  it("runs without the graph's pipes, and every input it reads is still its own (a gl layer's pipe came first)", () => {
    const WAV: MediaInfo = {
      ...{ ...CLIP, width: 0, height: 0, duration: 4.6, hasVideo: false, hasAudio: true, demuxer: "wav" },
    };
    const spec = videoSpec(
      videoConfig({
        width: 36,
        height: 92,
        fps: 4,
        audioFilePath: "/in/voice.wav",
        autoSubtitles: true,
        clips: [{ duration: 1, layers: [{ type: "gl", fragmentShader: "void main() {}" }] }],
      }),
    );
    const mix = captionMixGraph(spec, buildTimeline(spec), "job", new Map([["/in/voice.wav", WAV]]))!;
    expect(mix.inputs.map((args) => args.at(-1))).toEqual(["/in/voice.wav"]);
    expect([...mix.filterGraph.matchAll(/\[(\d+):a\]/g)].map((m) => m[1])).toEqual(["0"]);
  });
});

describe("compileGraph inputs, each read as what it is", () => {
  const media = (demuxer: string, extra: Partial<MediaInfo> = {}): MediaInfo => ({
    ...{ width: 64, height: 36, duration: 4, hasVideo: true, hasAudio: true, hasAlpha: false },
    ...{ rotation: 0, videoCodec: "h264", orientation: 1, demuxer, ...extra },
  });
  const MEDIA = new Map<string, MediaInfo>([
    ["/in/clip.mp4", media("mov")],
    ["/in/photo.jpg", media("image2", { duration: 0, hasAudio: false, videoCodec: "mjpeg" })],
    ["/in/voice.ogg", media("ogg", { width: 0, height: 0, hasVideo: false, videoCodec: null })],
    ["/in/song.mp3", media("mp3", { width: 0, height: 0, hasVideo: false, videoCodec: null })],
  ]);

  it("names every input's demuxer (a file's from its probe) and lets it open its own file or pipe, nothing else", () => {
    const spec = videoSpec(
      videoConfig({
        width: 320,
        height: 180,
        fps: 25,
        keepSourceAudio: true,
        clips: [
          {
            duration: 2,
            transition: { name: "fade", duration: 0.5 },
            layers: [
              { type: "video", path: "/in/clip.mp4" },
              { type: "image-overlay", path: "/in/photo.jpg", width: 0.3 },
              { type: "audio", path: "/in/voice.ogg" },
              { type: "title", text: "on the sheet" },
              { type: "html", html: "<p>animated</p>", animated: true, duration: 1 },
            ],
          },
          {
            duration: 2,
            layers: [{ type: "gl", fragmentShader: "void main() { gl_FragColor = vec4(1.0); }" }],
          },
        ],
        audioTracks: [{ path: "/in/voice.ogg", start: 1 }],
        audioFilePath: "/in/song.mp3",
      }),
    );
    const rasters = new Map<string, RasterAsset>();
    for (const k of keyedLayers(spec).filter((k) => isRaster(k.layer))) {
      const frame = { x: 0, y: 0, width: 32, height: 16 };
      rasters.set(
        k.key,
        k.layer.type === "html"
          ? {
              frames: [{ ...frame, path: "/w/html-00000.png" }],
              times: [0],
              sequencePattern: "/w/html-%05d.png",
            }
          : { frames: [{ ...frame, path: STDIN_PATH }], times: [0] },
      );
    }
    const graph = compileGraph({
      spec,
      timeline: buildTimeline(spec),
      jobId: "job",
      media: MEDIA,
      rasters,
      glLayers: { layerWriter: () => async () => {} },
    });
    const read = graph.inputs.map((args) => {
      const at = (flag: string) => args[args.lastIndexOf(flag) + 1];
      return { path: args.at(-1), f: at("-f"), protocols: at("-protocol_whitelist") };
    });
    expect(read).toEqual(
      expect.arrayContaining([
        { path: "/in/clip.mp4", f: "mov", protocols: "file" },
        { path: "/in/photo.jpg", f: "image2", protocols: "file" },
        { path: "/in/voice.ogg", f: "ogg", protocols: "file" },
        { path: "/in/song.mp3", f: "mp3", protocols: "file" },
        { path: STDIN_PATH, f: "png_pipe", protocols: "pipe" },
        { path: "/w/html-%05d.png", f: "image2", protocols: "file" },
        { path: "pipe:3", f: "rawvideo", protocols: "pipe" },
      ]),
    );
    for (const args of graph.inputs) {
      // One -f and one whitelist each, given before its -i (ffmpeg's input options precede it).
      expect(
        args.filter((a) => a === "-f"),
        args.join(" "),
      ).toHaveLength(1);
      expect(
        args.filter((a) => a === "-protocol_whitelist"),
        args.join(" "),
      ).toHaveLength(1);
      expect(args.at(-2)).toBe("-i");
      const protocols = args[args.indexOf("-protocol_whitelist") + 1];
      expect(protocols).toBe(args.at(-1)!.startsWith("pipe:") ? "pipe" : "file");
    }
  });
});
