import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildTimeline } from "@media-render/contract/timeline";
import { captionMixGraph } from "../../../src/video/captions/captions.ts";
import { compileGraph, pipesLast, type RenderWindow } from "../../../src/video/compile.ts";
import { videoSpec } from "../../../src/video/spec.ts";
import { keyedLayers, isRaster } from "../../../src/video/layers/index.ts";
import { STDIN_PATH, type MediaInfo, type RasterAsset, type VideoFormat } from "../../../src/video/types.ts";
import { specOf } from "../../helpers/graph-spec.ts";
import { compileStack, LAYER_MEDIA, layerStack } from "../../helpers/layer-arbitrary.ts";
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

const MEDIA = new Map(Object.entries(LAYER_MEDIA));
const compiled = (raw: Record<string, unknown>, format?: VideoFormat, window?: RenderWindow) => {
  const spec = specOf(raw, format);
  return compileGraph({
    spec,
    timeline: buildTimeline(spec),
    jobId: "job",
    media: MEDIA,
    rasters: new Map(),
    window,
  });
};
/** The graph's chains (one per line, or several on a line separated by `;`). */
const chains = (graph: { filterGraph: string }) => graph.filterGraph.split(/;\n?/);
const oneClip = (...layers: Record<string, unknown>[]) => ({ clips: [{ duration: 1, layers }] });

describe("compileGraph: a clip's layers over their base", () => {
  it("takes the first opaque layer covering the whole clip as the clip's base, and overlays the rest on it", () => {
    const graph = compiled(
      oneClip(
        { type: "fill-color", color: "#336699" },
        { type: "image-overlay", path: "/in/logo.png", width: 0.25 },
      ),
    );
    expect(chains(graph)).toEqual([
      "color=c=0x336699:s=320x180:r=25,trim=end_frame=1,format=yuv420p,loop=loop=24:size=1,settb=1/25,setpts=N+0[fill0]",
      "[0:v]scale=80:40,setsar=1[rs2]",
      "[rs2]format=yuva420p,loop=loop=24:size=1,settb=1/25,setpts=N+0[img1]",
      "[fill0][img1]overlay=x=120:y=70:eof_action=pass:format=yuv420[ov3]",
      "[ov3]format=yuv420p,setsar=1,settb=1/25,setpts=N+0[clip4]",
      "[clip4]format=yuv420p,trim=end_frame=25[vout]",
      "anullsrc=r=48000:cl=stereo,atrim=0:1[aout]",
    ]);
  });

  it("lays a translucent first layer over black, and in a webm over transparent black with alpha kept", () => {
    const mp4 = chains(compiled(oneClip({ type: "fill-color", color: "#33669980" })));
    expect(mp4.slice(1, 3)).toEqual([
      "color=c=black:s=320x180:r=25,format=yuv420p,trim=end_frame=25,settb=1/25,setpts=N+0[base1]",
      "[base1][fill0]overlay=x=0:y=0:eof_action=pass:format=yuv420[ov2]",
    ]);
    // A layer starting late cannot be the base either.
    const webm = chains(compiled(oneClip({ type: "fill-color", color: "#336699", start: 0.2 }), "webm"));
    expect(webm.slice(1)).toEqual([
      "color=c=black@0:s=320x180:r=25,format=yuva420p,trim=end_frame=25,settb=1/25,setpts=N+0[base1]",
      "[base1][fill0]overlay=x=0:y=0:eof_action=pass:format=auto[ov2]",
      "[ov2]format=yuva420p,setsar=1,settb=1/25,setpts=N+0[clip3]",
      "[clip3]format=yuva420p,trim=end_frame=25[vout]",
      "anullsrc=r=48000:cl=stereo,atrim=0:1,asetnsamples=n=960:p=0[aout]",
    ]);
  });

  it("draws a clip with nothing to see black, and plays its detached audio on the whole video's timeline", () => {
    const graph = compiled(oneClip({ type: "detached-audio", path: "/in/song.mp3", start: 0.5 }));
    expect(graph.inputs).toEqual([
      ["-ss", "0", "-t", "3", "-f", "mp3", "-protocol_whitelist", "file", "-i", "/in/song.mp3"],
    ]);
    expect(chains(graph)[0]).toBe(
      "color=c=black:s=320x180:r=25,format=yuv420p,trim=end_frame=25,settb=1/25,setpts=N+0[empty0]",
    );
    expect(chains(graph).at(-2)).toMatch(/^\[0:a\]asetpts=PTS-STARTPTS,.*adelay=500:all=1\[trk2\]$/);
    expect(chains(graph).at(-1)).toMatch(/apad,atrim=0:1,asetpts=PTS-STARTPTS\[aout\]$/);
  });
});

describe("compileGraph: joining clips", () => {
  const colour = (color: string, transition?: Record<string, unknown>) => ({
    duration: 1,
    ...(transition ? { transition } : {}),
    layers: [{ type: "pause", color }],
  });

  it("concatenates clips without a transition and crossfades with xfade at the next clip's start", () => {
    const graph = compiled({
      clips: [colour("black"), colour("red", { name: "circleopen", duration: 0.2 }), colour("blue")],
    });
    expect(graph.transitions).toEqual(["circleopen"]);
    expect(chains(graph).slice(6)).toEqual([
      "[clip1][clip3]concat=n=2:v=1:a=0,settb=1/25[join6]",
      "[join6][clip5]xfade=transition=circleopen:duration=0.2:offset=1.8[join7]",
      "[join7]format=yuv420p,trim=end_frame=70[vout]",
      "anullsrc=r=48000:cl=stereo,atrim=0:2.8[aout]",
    ]);
  });

  it("mixes a fade with the cheap mixers in an mp4, and with xfade in a webm (alpha)", () => {
    const clips = [colour("black", { name: "fade", duration: 0.2 }), colour("red")];
    expect(compiled({ clips }).filterGraph).not.toContain("xfade");
    expect(compiled({ clips }).filterGraph).toContain("fade=t=in:s=0:n=5:alpha=1");
    expect(compiled({ clips }, "webm").filterGraph).toContain(
      "[clip1][clip3]xfade=transition=fade:duration=0.2:offset=0.8[join4]",
    );
  });
});

describe("compileGraph: global layers and windows", () => {
  const config = {
    clips: [
      { duration: 1, layers: [{ type: "pause" }] },
      { duration: 1, layers: [{ type: "pause", color: "red" }] },
    ],
    globalLayers: [{ type: "image-overlay", path: "/in/logo.png", width: 0.2, start: 0.5 }],
  };

  it("lays global layers over the joined clips in timeline frames", () => {
    const all = chains(compiled(config));
    expect(all.filter((c) => c.includes("overlay="))).toEqual([
      "[join4][img5]overlay=x=128:y=74:eof_action=pass:format=yuv420[ov7]",
    ]);
    expect(all.find((c) => c.includes("[img5]"))).toContain(
      "loop=loop=36:size=1,settb=1/25,setpts=N+13[img5]",
    );
  });

  it("composes only the clips a window reaches, from its first frame, and cuts the frames out without sound", () => {
    const graph = compiled(config, undefined, { start: 30, end: 40 });
    expect(chains(graph)).toEqual([
      "color=c=0xff0000:s=320x180:r=25,trim=end_frame=1,format=yuv420p,loop=loop=9:size=1,settb=1/25,setpts=N+5[fill0]",
      "[fill0]format=yuv420p,setsar=1,settb=1/25,setpts=N+0[clip1]",
      "[clip1]settb=1/25,setpts=N+30[timed2]",
      "[0:v]scale=64:32,setsar=1[rs4]",
      "[rs4]format=yuva420p,loop=loop=9:size=1,settb=1/25,setpts=N+30[img3]",
      "[timed2][img3]overlay=x=128:y=74:eof_action=pass:format=yuv420[ov5]",
      "[ov5]format=yuv420p,trim=end_frame=10,setpts=PTS-STARTPTS[vout]",
    ]);
  });
});

describe("pipesLast", () => {
  it("moves the inputs read from pipes to the end, in order, and renumbers the graph's references", () => {
    const graph = {
      inputs: [
        ["-f", "png_pipe", "-i", "pipe:0"],
        ["-i", "a.jpg"],
        ["-f", "png_pipe", "-i", "pipe:3"],
        ["-ss", "5", "-i", "b.mp4"],
      ],
      pipes: [],
      filterGraph: "[0:v]crop=10:10:0:0[t];[1:v]scale=4:4[i];[2:v]null[h];[3:v]null[v];[3:a]anull[a]",
      transitions: [],
    };
    expect(pipesLast(graph)).toMatchObject({
      inputs: [
        ["-i", "a.jpg"],
        ["-ss", "5", "-i", "b.mp4"],
        ["-f", "png_pipe", "-i", "pipe:0"],
        ["-f", "png_pipe", "-i", "pipe:3"],
      ],
      filterGraph: "[2:v]crop=10:10:0:0[t];[0:v]scale=4:4[i];[3:v]null[h];[1:v]null[v];[1:a]anull[a]",
    });
    const filesOnly = { ...graph, inputs: [["-i", "a.jpg"]], filterGraph: "[0:v]null[v]" };
    expect(pipesLast(filesOnly)).toBe(filesOnly);
  });

  it("puts inputs that ask for no stream probing after every other (the option holds to the last input)", () => {
    const graph = {
      inputs: [
        ["-nofind_stream_info", "-i", "pipe:3"],
        ["-i", "pipe:4"],
        ["-i", "a.jpg"],
      ],
      pipes: [],
      filterGraph: "[0:v]null[x];[1:v]null[y];[2:v]null[z]",
      transitions: [],
    };
    expect(pipesLast(graph)).toMatchObject({
      inputs: [
        ["-i", "a.jpg"],
        ["-i", "pipe:4"],
        ["-nofind_stream_info", "-i", "pipe:3"],
      ],
      filterGraph: "[2:v]null[x];[1:v]null[y];[0:v]null[z]",
    });
  });
});

/** The labels a chain reads (`[a][b]` before its first filter) and writes (after its last). */
const ends = (chain: string) => ({
  reads: [...(/^(?:\[[^\]]+\])*/.exec(chain)?.[0].matchAll(/\[([^\]]+)\]/g) ?? [])].map((m) => m[1]!),
  writes: [...(/(?:\[[^\]]+\])*$/.exec(chain)?.[0].matchAll(/\[([^\]]+)\]/g) ?? [])].map((m) => m[1]!),
});

describe("compileGraph over generated layer stacks (every layer type and option, transitions, windows)", () => {
  it("makes a graph ffmpeg can wire: each label written once and read once, each input it reads given", () => {
    fc.assert(
      fc.property(layerStack, (stack) => {
        const { graph, frames } = compileStack(stack);
        const written = new Map<string, number>();
        const read = new Map<string, number>();
        const inputsRead: number[] = [];
        for (const chain of chains(graph)) {
          const { reads, writes } = ends(chain);
          for (const label of writes) written.set(label, (written.get(label) ?? 0) + 1);
          for (const label of reads) {
            const input = /^(\d+):[av]$/.exec(label);
            if (input) inputsRead.push(Number(input[1]));
            else read.set(label, (read.get(label) ?? 0) + 1);
          }
        }
        expect(Math.max(-1, ...inputsRead)).toBeLessThan(graph.inputs.length);
        for (const [label, n] of written) {
          expect(n, `${label} written ${n} times`).toBe(1);
          const mapped = label === "vout" || label === "aout";
          expect(read.get(label) ?? 0, `${label} read`).toBe(mapped ? 0 : 1);
        }
        for (const label of read.keys())
          expect(written.has(label), `${label} read, never written`).toBe(true);
        // Sound only for the whole timeline; the picture cut to exactly the frames asked for.
        expect([written.has("vout"), written.has("aout")]).toEqual([true, stack.window === undefined]);
        const vout = chains(graph).find((c) => c.endsWith("[vout]"))!;
        const [, from, to] =
          /trim=(?:start_frame=(\d+):)?end_frame=(\d+)(?:,setpts=PTS-STARTPTS)?\[vout\]$/.exec(vout)!;
        expect(Number(to) - Number(from ?? 0)).toBe(frames);
        // Every input names its demuxer and its one protocol, before -i.
        for (const args of graph.inputs) expect(args.slice(-6, -4)[0]).toBe("-f");
        // Pure: the same stack compiles to the same graph.
        expect(compileStack(stack).graph.filterGraph).toBe(graph.filterGraph);
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 300), seed: Number(process.env.FC_SEED ?? 43_2026) },
    );
  });
});
