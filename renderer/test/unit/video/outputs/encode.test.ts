/**
 * Each output format's ffmpeg arguments, exactly (as remotion tests its own): the main output of every format and
 * option (outputs/encode.ts over encoders.ts: alpha, a preview's `fast`, audio only, a still), a GIF's palette passes
 * (gif.ts), a chunk's segment and the join (chunks.ts), and what reads a render back (frames.ts' decoder, the
 * demuxer). The files these arguments write: renderer/test/video/render-outputs.test.ts, render-chunks.test.ts.
 */
import { describe, expect, it } from "vitest";
import type { RenderFormat } from "@media-render/contract/config/outputs";
import { demuxerOfOutput } from "../../../../src/probe/demuxers.ts";
import { encoderArgs, ffmpegArgs } from "../../../../src/video/args.ts";
import { chunkArgs, joinArgs } from "../../../../src/video/chunks.ts";
import { formatArgs } from "../../../../src/video/outputs/encode.ts";
import { encoderOf } from "../../../../src/video/outputs/encoders.ts";
import { gifArgs, gifIntermediate } from "../../../../src/video/outputs/gif.ts";

const out = (format: RenderFormat, extra: { alpha?: boolean; fast?: boolean; duration?: number } = {}) =>
  formatArgs({ format, fps: 25, duration: extra.duration ?? 2.5, outPath: "/w/out", ...extra });

const X264 = ["-c:v", "libx264", "-preset", "veryfast", "-crf", "20", "-pix_fmt", "yuv420p"];
const X264_FAST = ["-c:v", "libx264", "-preset", "ultrafast", "-crf", "28", "-pix_fmt", "yuv420p"];
const AAC = ["-c:a", "aac", "-b:a", "160k", "-movflags", "+faststart"];
const VP9 = (crf: string, cpu: string) => [
  ...["-c:v", "libvpx-vp9", "-pix_fmt", "yuva420p", "-b:v", "0", "-crf", crf],
  ...["-deadline", "realtime", "-cpu-used", cpu, "-row-mt", "1", "-auto-alt-ref", "0"],
];
const OPUS = ["-c:a", "libopus", "-b:a", "128k"];
const BOTH = ["-map", "[vout]", "-map", "[aout]"];
const TIMING = ["-r", "25", "-t", "2.5"];

describe("a video's main output", () => {
  it("mp4: x264 veryfast crf 20 yuv420p, AAC 160k, the index up front, the mp4 muxer", () => {
    expect(out("mp4")).toEqual([...BOTH, ...X264, ...AAC, ...TIMING, "-f", "mp4", "/w/out"]);
  });

  it("a preview (fast): x264 ultrafast crf 28, the same sound", () => {
    expect(out("mp4", { fast: true })).toEqual([
      ...BOTH,
      ...X264_FAST,
      ...AAC,
      ...TIMING,
      "-f",
      "mp4",
      "/w/out",
    ]);
  });

  it("mov: the same H.264 and AAC in QuickTime's muxer", () => {
    expect(out("mov")).toEqual([...BOTH, ...X264, ...AAC, ...TIMING, "-f", "mov", "/w/out"]);
    expect(out("mov", { alpha: false })).toEqual(out("mov"));
  });

  it("mov with alpha: ProRes 4444 (profile 4, 16-bit alpha, yuva444p10le) and PCM, whether fast or not", () => {
    const prores = [
      ...BOTH,
      ...["-c:v", "prores_ks", "-profile:v", "4", "-vendor", "apl0", "-pix_fmt", "yuva444p10le"],
      ...["-alpha_bits", "16", "-c:a", "pcm_s16le", ...TIMING, "-f", "mov", "/w/out"],
    ];
    expect(out("mov", { alpha: true })).toEqual(prores);
    expect(out("mov", { alpha: true, fast: true })).toEqual(prores);
  });

  it("webm: VP9 keeping alpha (yuva420p) and Opus, faster and coarser for a preview; alpha changes nothing", () => {
    expect(out("webm")).toEqual([...BOTH, ...VP9("32", "6"), ...OPUS, ...TIMING, "-f", "webm", "/w/out"]);
    expect(out("webm", { fast: true })).toEqual([
      ...BOTH,
      ...VP9("40", "8"),
      ...OPUS,
      ...TIMING,
      "-f",
      "webm",
      "/w/out",
    ]);
    expect(out("webm", { alpha: true })).toEqual(out("webm"));
  });

  it("an alpha request of a format that cannot keep it changes nothing (the grammar refuses it first)", () => {
    expect(out("mp4", { alpha: true })).toEqual(out("mp4"));
  });

  it("writes its length as ffmpeg's time syntax reads it", () => {
    expect(out("mp4", { duration: 10 / 3 })).toContain("3.333333");
  });
});

describe("an audio-only output: the mix alone, the picture to the null muxer", () => {
  const audio = (codec: string[], muxer: string) => [
    ...["-map", "[aout]", ...codec, "-f", muxer, "-t", "2.5", "/w/out"],
    ...["-map", "[vout]", "-f", "null", "-"],
  ];

  it("mp3: libmp3lame 192k", () => {
    expect(out("mp3")).toEqual(audio(["-c:a", "libmp3lame", "-b:a", "192k"], "mp3"));
  });

  it("wav: 16-bit PCM", () => {
    expect(out("wav")).toEqual(audio(["-c:a", "pcm_s16le"], "wav"));
  });

  it("m4a: AAC 160k, the index up front, iTunes' muxer", () => {
    expect(out("m4a")).toEqual(audio(AAC, "ipod"));
  });

  it("is the same for a preview: audio encoders have no preview settings", () => {
    for (const f of ["mp3", "wav", "m4a"] as const) expect(out(f, { fast: true })).toEqual(out(f));
  });
});

describe("a still: the graph's one frame as a picture", () => {
  const still = (codec: string[]) => [
    ...["-map", "[vout]", "-frames:v", "1", ...codec, "-f", "image2", "-update", "1", "/w/out"],
  ];

  it("png: the PNG encoder", () => {
    expect(out("png")).toEqual(still(["-c:v", "png"]));
  });

  it("jpeg: mjpeg at quantiser 2, full-range yuvj420p", () => {
    expect(out("jpeg")).toEqual(still(["-c:v", "mjpeg", "-q:v", "2", "-pix_fmt", "yuvj420p"]));
  });
});

describe("a GIF", () => {
  it("is rendered as lossless FFV1 frames in Matroska, its sound to the null muxer", () => {
    expect(out("gif")).toEqual([
      ...["-map", "[vout]", "-c:v", "ffv1", "-pix_fmt", "yuv420p", ...TIMING, "-f", "matroska", "/w/out"],
      ...["-map", "[aout]", "-f", "null", "-"],
    ]);
    expect(gifIntermediate("/w")).toBe("/w/gif-frames.mkv");
  });

  it("is then finished in two runs: a palette of every frame, then every frame mapped to it with the dithering", () => {
    const quiet = ["-hide_banner", "-nostdin", "-y", "-loglevel", "error"];
    const frames = ["-f", "matroska", "-protocol_whitelist", "file", "-i", "/w/i.mkv"];
    for (const dither of ["sierra2_4a", "floyd_steinberg", "bayer", "none"] as const)
      expect(gifArgs("/w/i.mkv", "/w/p.png", "/w/o.gif", dither)).toEqual([
        [...quiet, ...frames, "-vf", "palettegen=stats_mode=full", "-frames:v", "1", "/w/p.png"],
        [
          ...[...quiet, ...frames, "-f", "png_pipe", "-protocol_whitelist", "file", "-i", "/w/p.png"],
          ...["-lavfi", `[0:v][1:v]paletteuse=dither=${dither}`, "-loop", "0", "-f", "gif", "/w/o.gif"],
        ],
      ]);
  });
});

describe("encoderArgs (the benchmark's bare encode)", () => {
  it("is the format's picture and sound encoders, as a render sets them", () => {
    expect(encoderArgs("mp4", false)).toEqual([...X264, ...AAC]);
    expect(encoderArgs("webm", true)).toEqual([...VP9("40", "8"), ...OPUS]);
    expect(encoderArgs("mp3", false)).toEqual(["-c:a", "libmp3lame", "-b:a", "192k"]);
  });
});

describe("ffmpegArgs", () => {
  it("puts the main output of the format after the graph, and the extra outputs after it", () => {
    const job = {
      inputs: [["-i", "/w/a.png"]],
      graphScript: "/w/g.txt",
      fast: false,
      fps: 25,
      duration: 2.5,
      outPath: "/w/out",
      outputs: [{ label: "x", args: ["-f", "rawvideo"], pipe: "pipe:3" }],
    };
    for (const format of ["mp4", "mov", "webm", "gif", "mp3", "png"] as const)
      for (const alpha of [false, true])
        expect(ffmpegArgs({ ...job, format, alpha })).toEqual([
          ...["-hide_banner", "-nostdin", "-y", "-loglevel", "error", "-nostats", "-progress", "pipe:2"],
          ...["-i", "/w/a.png", "-filter_complex_script", "/w/g.txt"],
          ...out(format, { alpha }),
          ...["-map", "[x]", "-f", "rawvideo", "pipe:3"],
        ]);
  });
});

describe("parallel rendering's arguments", () => {
  const job = {
    inputs: [["-i", "/w/a.png"]],
    graphScript: "/w/g.txt",
    fps: 25,
    duration: 2.5,
    outPath: "/w/seg.mp4",
  };
  const head = ["-hide_banner", "-nostdin", "-y", "-loglevel", "error", "-nostats"];

  it("renders a chunk's frames as a video-only H.264 segment in mp4, for mp4 and mov alike", () => {
    for (const format of ["mp4", "mov"] as const)
      for (const fast of [false, true])
        expect(chunkArgs({ ...job, format, fast }, { start: 10, end: 35 })).toEqual([
          ...head,
          ...["-progress", "pipe:2", "-i", "/w/a.png"],
          ...["-filter_complex_script", "/w/g.txt", "-map", "[vout]", "-an"],
          ...(fast ? X264_FAST : X264),
          ...["-r", "25", "-frames:v", "25", "-f", "mp4", "/w/seg.mp4"],
        ]);
  });

  it("refuses to render a chunk of a format whose video is not joined from segments", () => {
    for (const format of ["gif", "mp3", "png"] as const)
      expect(() => chunkArgs({ ...job, format, fast: false }, { start: 0, end: 5 })).toThrow(
        `a ${format} output is not rendered as chunks`,
      );
  });

  it("joins the segments by stream copy with the mix encoded once, muxed as the job's own format", () => {
    const join = (format: "mp4" | "mov") =>
      joinArgs({ format, duration: 8, outPath: "/w/out" }, "/w/list.txt", "/w/mix.txt", [
        ["-f", "wav", "-i", "/w/sweep.wav"],
      ]);
    const expected = (muxer: string) => [
      ...head,
      ...["-f", "wav", "-i", "/w/sweep.wav"],
      ...["-f", "concat", "-safe", "0", "-protocol_whitelist", "file"],
      ...["-format_whitelist", "concat,mov", "-i", "/w/list.txt"],
      ...["-filter_complex_script", "/w/mix.txt", "-map", "1:v", "-map", "[aout]", "-c:v", "copy"],
      ...AAC,
      ...["-t", "8", "-f", muxer, "/w/out"],
    ];
    expect(join("mp4")).toEqual(expected("mp4"));
    // A split mov is QuickTime, as its single render is (before, the canvas' mp4 named the muxer).
    expect(join("mov")).toEqual(expected("mov"));
  });

  it("takes the video from the list, the first input, when the mix has no inputs", () => {
    const args = joinArgs({ format: "mp4", duration: 2, outPath: "/w/o" }, "/w/l", "/w/m");
    expect(args.slice(args.indexOf("-map"), args.indexOf("-map") + 2)).toEqual(["-map", "0:v"]);
  });
});

describe("reading a render back (posters and thumbnails)", () => {
  it("names the demuxer of each format the renderer writes", () => {
    expect(
      Object.fromEntries(
        ["mp4", "mov", "webm", "gif", "mp3", "wav", "m4a", "png", "jpeg"].map((f) => [f, demuxerOfOutput(f)]),
      ),
    ).toEqual({
      ...{ mp4: "mov", mov: "mov", webm: "matroska", gif: "gif", mp3: "mp3", wav: "wav", m4a: "mov" },
      ...{ png: "image2", jpeg: "image2" },
    });
  });

  it("decodes a webm with libvpx, which keeps VP9's alpha plane; every other format with ffmpeg's own", () => {
    expect(encoderOf("webm")?.decoder).toEqual(["-c:v", "libvpx-vp9"]);
    for (const f of ["mp4", "mov", "gif"]) expect(encoderOf(f)?.decoder).toBeUndefined();
  });

  it("writes a JPEG poster at quantiser 2 and JPEG thumbnails at 3; PNGs have no quality", () => {
    expect(encoderOf("jpeg")?.quality).toEqual({ full: ["-q:v", "2"], thumbnail: ["-q:v", "3"] });
    expect(encoderOf("png")?.quality).toBeUndefined();
  });
});
