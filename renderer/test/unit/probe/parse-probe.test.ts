import { describe, expect, it } from "vitest";
import { UnprocessableMedia } from "../../../src/lib/errors.ts";
import { toMediaInfo, toProbeResult } from "../../../src/probe/media-facts.ts";
import { parseFrameRate, parseProbeJson, parseProbeOutput } from "../../../src/probe/parse-probe.ts";

/** The POST /probe view of ffprobe's JSON. */
const parse = (raw: unknown) => toProbeResult(parseProbeOutput(raw));

const MP4 = "mov,mp4,m4a,3gp,3g2,mj2";
const hevc = (extra: Record<string, unknown> = {}) => ({
  index: 0,
  codec_name: "hevc",
  codec_type: "video",
  width: 600,
  height: 338,
  avg_frame_rate: "24000/1001",
  ...extra,
});

describe("parseProbeOutput", () => {
  it("maps a video without rotation; duration is format.duration verbatim", () => {
    const result = parse({
      streams: [hevc()],
      format: { format_name: MP4, duration: "34.910000" },
    });
    expect(result).toEqual({
      width: 600,
      height: 338,
      duration: 34.91,
      formatName: MP4,
      videoCodec: "hevc",
      audioCodec: null,
      fps: 23.976,
      rotation: 0,
      hasVideo: true,
      hasAudio: false,
    });
  });

  it("swaps to the display size for display-matrix rotation (ffprobe 5 reports it counter-clockwise)", () => {
    const streams = [hevc({ side_data_list: [{ side_data_type: "Display Matrix", rotation: -90 }] })];
    const result = parse({ streams, format: { format_name: MP4, duration: "1.0" } });
    expect(result).toMatchObject({ width: 338, height: 600, rotation: 90 });

    const ccw = [hevc({ side_data_list: [{ side_data_type: "Display Matrix", rotation: 90 }] })];
    expect(parse({ streams: ccw, format: { format_name: MP4 } })).toMatchObject({
      width: 338,
      height: 600,
      rotation: 270,
    });
  });

  it("keeps the coded size for 180 degrees and reads the legacy rotate tag", () => {
    const upsideDown = [hevc({ side_data_list: [{ side_data_type: "Display Matrix", rotation: 180 }] })];
    expect(parse({ streams: upsideDown, format: { format_name: MP4 } })).toMatchObject({
      width: 600,
      height: 338,
      rotation: 180,
    });
    const tagged = [hevc({ tags: { rotate: "270", language: "eng" } })];
    expect(parse({ streams: tagged, format: { format_name: MP4 } })).toMatchObject({
      width: 338,
      height: 600,
      rotation: 270,
    });
  });

  it("prefers the display matrix over a contradicting tag", () => {
    const both = [
      hevc({
        tags: { rotate: "180" },
        side_data_list: [{ side_data_type: "Display Matrix", rotation: -90 }],
      }),
    ];
    expect(parse({ streams: both, format: { format_name: MP4 } }).rotation).toBe(90);
  });

  it("reports audio-only files without a picture, ignoring embedded cover art", () => {
    const result = parse({
      streams: [
        { codec_type: "audio", codec_name: "mp3", sample_rate: "44100", avg_frame_rate: "0/0" },
        {
          codec_type: "video",
          codec_name: "mjpeg",
          width: 500,
          height: 500,
          disposition: { attached_pic: 1 },
        },
      ],
      format: { format_name: "mp3", duration: "4.879625" },
    });
    expect(result).toEqual({
      width: null,
      height: null,
      duration: 4.879625,
      formatName: "mp3",
      videoCodec: null,
      audioCodec: "mp3",
      fps: null,
      rotation: 0,
      hasVideo: false,
      hasAudio: true,
    });
  });

  it("treats image demuxers as stills: size and codec, no duration, fps or video", () => {
    const jpg = parse({
      streams: [
        { codec_type: "video", codec_name: "mjpeg", width: 4000, height: 3000, avg_frame_rate: "25/1" },
      ],
      format: { format_name: "image2", duration: "0.040000" },
    });
    expect(jpg).toMatchObject({
      width: 4000,
      height: 3000,
      duration: null,
      fps: null,
      hasVideo: false,
      videoCodec: "mjpeg",
    });
    const png = parse({
      streams: [{ codec_type: "video", codec_name: "png", width: 512, height: 512 }],
      format: { format_name: "png_pipe" },
    });
    expect(png).toMatchObject({ width: 512, height: 512, duration: null, hasVideo: false });
  });

  it("rejects output with no usable stream, e.g. a corrupt .jpg ffprobe could not size", () => {
    const corrupt = {
      streams: [{ codec_type: "video", codec_name: "mjpeg", width: 0, height: 0 }],
      format: { format_name: "image2" },
    };
    expect(() => parse(corrupt)).toThrow(UnprocessableMedia);
    const silentZeros = {
      streams: [{ codec_type: "audio", codec_name: "mp3", sample_rate: "0" }],
      format: { format_name: "mp3" },
    };
    expect(() => parse(silentZeros)).toThrow("No audio or video stream found");
    expect(() => parse({ streams: [], format: { format_name: "tty" } })).toThrow(
      "No audio or video stream found",
    );
  });

  it("names the demuxer a render reads the file with, and refuses one outside the media demuxers", () => {
    const audio = [{ codec_type: "audio", codec_name: "aac", sample_rate: "44100" }];
    const demuxer = (format_name: string) =>
      parseProbeOutput({ streams: audio, format: { format_name } }).demuxer;
    expect(demuxer(MP4)).toBe("mov");
    expect(demuxer("matroska,webm")).toBe("matroska");
    expect(demuxer("ogg")).toBe("ogg");
    // ffprobe's -format_whitelist refuses these before they open; were one reported, no render would name it.
    for (const playlist of ["hls", "concat", "hls,applehttp"])
      expect(() => demuxer(playlist)).toThrow(
        `Unreadable media: the file is ${playlist.split(",")[0]}, not a picture, video or sound this service reads`,
      );
  });

  it("rejects JSON that is not ffprobe's", () => {
    expect(() => parse({})).toThrow(UnprocessableMedia);
    expect(() => parse({ streams: "x", format: { format_name: "mp3" } })).toThrow(UnprocessableMedia);
    expect(() => parseProbeJson("{\n\n}")).toThrow("ffprobe returned no format information");
    expect(() => parseProbeJson("not json")).toThrow("ffprobe returned invalid JSON");
  });

  it("returns null duration when ffprobe has none", () => {
    const result = parse({ streams: [hevc()], format: { format_name: MP4, duration: "N/A" } });
    expect(result.duration).toBeNull();
  });
});

describe("the renderer's view of the same facts", () => {
  it("reads alpha from the pixel format or VP8/VP9's ALPHA_MODE tag", () => {
    const still = (pix_fmt: string) =>
      parseProbeOutput({
        streams: [{ codec_type: "video", codec_name: "png", width: 8, height: 8, pix_fmt }],
        format: { format_name: "png_pipe" },
      }).hasAlpha;
    expect([still("rgba"), still("pal8"), still("ya8"), still("rgb24"), still("yuv420p")]).toEqual([
      true,
      true,
      true,
      false,
      false,
    ]);
    const vp9 = hevc({ codec_name: "vp9", pix_fmt: "yuv420p", tags: { ALPHA_MODE: "1" } });
    expect(parseProbeOutput({ streams: [vp9], format: { format_name: "matroska,webm" } }).hasAlpha).toBe(
      true,
    );
  });

  it("counts a still as a picture to draw, with a length of 0", () => {
    const png = parseProbeOutput({
      streams: [{ codec_type: "video", codec_name: "png", width: 512, height: 256 }],
      format: { format_name: "png_pipe" },
    });
    expect(toMediaInfo(png)).toMatchObject({ width: 512, height: 256, duration: 0, hasVideo: true });
    const mp3 = parseProbeOutput({
      streams: [{ codec_type: "audio", codec_name: "mp3", sample_rate: "44100" }],
      format: { format_name: "mp3", duration: "4.879625" },
    });
    expect(toMediaInfo(mp3)).toMatchObject({ width: 0, height: 0, duration: 4.879625, hasVideo: false });
  });
});

describe("parseFrameRate", () => {
  it("divides the rational and rounds to 3 decimals", () => {
    expect(parseFrameRate("30000/1001")).toBe(29.97);
    expect(parseFrameRate("25/1")).toBe(25);
    expect(parseFrameRate("24000/1001")).toBe(23.976);
  });

  it("returns null for 0/0, missing or malformed rates", () => {
    expect(parseFrameRate("0/0")).toBeNull();
    expect(parseFrameRate("25/0")).toBeNull();
    expect(parseFrameRate(undefined)).toBeNull();
    expect(parseFrameRate("fast")).toBeNull();
  });
});
