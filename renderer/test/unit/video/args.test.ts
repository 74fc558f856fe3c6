import { describe, expect, it } from "vitest";
import { encoderArgs, extraOutputsArgs, ffmpegArgs, filterThreadsFor } from "../../../src/video/args.ts";
import { timingArgs } from "../../../src/video/outputs/encode.ts";

const HEAD = ["-hide_banner", "-nostdin", "-y", "-loglevel", "error", "-nostats"];
const X264 = ["-c:v", "libx264", "-preset", "veryfast", "-crf", "20"];
const AAC = ["-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "160k", "-movflags", "+faststart"];

describe("encoderArgs", () => {
  it("encodes mp4 and mov with x264 veryfast crf 20, yuv420p, AAC 160k and the index up front", () => {
    expect(encoderArgs("mp4", false)).toEqual([...X264, ...AAC]);
    expect(encoderArgs("mov", false)).toEqual([...X264, ...AAC]);
  });

  it("encodes a preview with x264 ultrafast crf 28", () => {
    expect(encoderArgs("mp4", true)).toEqual([
      ...["-c:v", "libx264", "-preset", "ultrafast", "-crf", "28"],
      ...AAC,
    ]);
  });

  it("encodes webm with VP9 keeping alpha (yuva420p) and Opus, faster settings for a preview", () => {
    expect(encoderArgs("webm", false)).toEqual([
      ...["-c:v", "libvpx-vp9", "-pix_fmt", "yuva420p", "-b:v", "0", "-crf", "32"],
      ...["-deadline", "realtime", "-cpu-used", "6", "-row-mt", "1", "-auto-alt-ref", "0"],
      ...["-c:a", "libopus", "-b:a", "128k"],
    ]);
    expect(encoderArgs("webm", true)).toEqual([
      ...["-c:v", "libvpx-vp9", "-pix_fmt", "yuva420p", "-b:v", "0", "-crf", "40"],
      ...["-deadline", "realtime", "-cpu-used", "8", "-row-mt", "1", "-auto-alt-ref", "0"],
      ...["-c:a", "libopus", "-b:a", "128k"],
    ]);
  });
});

describe("filterThreadsFor", () => {
  it("keeps ffmpeg's slice threads (0) for custom xfade expressions and gradients", () => {
    expect(filterThreadsFor("[0:v][1:v]xfade=transition=custom:expr='A'[v]")).toBe(0);
    expect(filterThreadsFor("gradients=s=320x180:c0=red:c1=blue[g]")).toBe(0);
  });

  it("runs every other graph on one filter thread, a built-in xfade included", () => {
    expect(filterThreadsFor("[0:v][1:v]xfade=transition=fade:duration=0.5:offset=1[v]")).toBe(1);
    expect(filterThreadsFor("")).toBe(1);
  });
});

describe("ffmpegArgs", () => {
  const job = {
    inputs: [
      ["-loop", "1", "-i", "/w/a.png"],
      ["-f", "png_pipe", "-i", "pipe:0"],
    ],
    graphScript: "/w/graph.txt",
    format: "mp4" as const,
    fast: false,
    fps: 25,
    duration: 2.5,
    outPath: "/w/out.mp4",
  };

  it("builds the whole command line: progress to stderr, inputs in order, the graph's two outputs, encoder, length", () => {
    expect(ffmpegArgs({ ...job, filterThreads: 1 })).toEqual([
      ...HEAD,
      ...["-progress", "pipe:2"],
      ...["-loop", "1", "-i", "/w/a.png", "-f", "png_pipe", "-i", "pipe:0"],
      ...["-filter_complex_threads", "1"],
      ...["-filter_complex_script", "/w/graph.txt", "-map", "[vout]", "-map", "[aout]"],
      ...X264,
      ...AAC,
      ...["-r", "25", "-t", "2.5", "-f", "mp4", "/w/out.mp4"],
    ]);
  });

  it("leaves the filter threads to ffmpeg when they are 0 or not given", () => {
    expect(ffmpegArgs({ ...job, filterThreads: 0 })).not.toContain("-filter_complex_threads");
    expect(ffmpegArgs(job)).not.toContain("-filter_complex_threads");
  });

  it("names the muxer by the format: mov for mov, webm for webm", () => {
    expect(ffmpegArgs({ ...job, format: "mov", outPath: "/w/o.mov" }).slice(-3)).toEqual([
      "-f",
      "mov",
      "/w/o.mov",
    ]);
    expect(ffmpegArgs({ ...job, format: "webm", outPath: "/w/o.webm" }).slice(-3)).toEqual([
      "-f",
      "webm",
      "/w/o.webm",
    ]);
  });

  it("maps extra outputs to their pipes after the main output", () => {
    const outputs = [
      { label: "gpair3", args: ["-c:v", "rawvideo", "-f", "rawvideo"], pipe: "pipe:3" },
      { label: "gpair7", args: ["-f", "rawvideo"], pipe: "pipe:4" },
    ];
    expect(ffmpegArgs({ ...job, outputs }).slice(-13)).toEqual([
      "/w/out.mp4",
      ...["-map", "[gpair3]", "-c:v", "rawvideo", "-f", "rawvideo", "pipe:3"],
      ...["-map", "[gpair7]", "-f", "rawvideo", "pipe:4"],
    ]);
  });

  it("takes an input-less job (colour sources only) without an empty -i", () => {
    const args = ffmpegArgs({ ...job, inputs: [] });
    expect(args).not.toContain("-i");
    expect(args.slice(8, 10)).toEqual(["-filter_complex_script", "/w/graph.txt"]);
  });
});

describe("extraOutputsArgs", () => {
  it("builds a taps pass: the same inputs and graph on one filter thread, only the extra outputs, no progress", () => {
    expect(
      extraOutputsArgs({
        inputs: [["-i", "/w/v.mp4"]],
        graphScript: "/w/taps0.txt",
        outputs: [{ label: "gpair2", args: ["-pix_fmt", "rgb24"], pipe: "pipe:3" }],
      }),
    ).toEqual([
      ...HEAD,
      ...["-i", "/w/v.mp4"],
      ...["-filter_complex_threads", "1", "-filter_complex_script", "/w/taps0.txt"],
      ...["-map", "[gpair2]", "-pix_fmt", "rgb24", "pipe:3"],
    ]);
  });

  it("has no output at all without extra outputs", () => {
    expect(extraOutputsArgs({ inputs: [], graphScript: "/w/t.txt" })).toEqual([
      ...HEAD,
      ...["-filter_complex_threads", "1", "-filter_complex_script", "/w/t.txt"],
    ]);
  });
});

describe("timingArgs", () => {
  it("writes the length as ffmpeg's time syntax reads it: no exponent, microseconds at most", () => {
    expect(timingArgs({ duration: 2 })).toEqual(["-t", "2"]);
    expect(timingArgs({ duration: 1e-7 })).toEqual(["-t", "0"]);
    expect(timingArgs({ duration: 10 / 3 })).toEqual(["-t", "3.333333"]);
    expect(timingArgs({ duration: 2.867859054728996e-255 })[1]).not.toMatch(/e/);
  });
});
