import { describe, expect, it } from "vitest";
import { UnprocessableMedia } from "../../src/lib/errors.ts";
import { parseFrameRate, parseProbeJson, parseProbeOutput } from "../../src/probe/parse-probe.ts";

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
    const result = parseProbeOutput({
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
    const result = parseProbeOutput({ streams, format: { format_name: MP4, duration: "1.0" } });
    expect(result).toMatchObject({ width: 338, height: 600, rotation: 90 });

    const ccw = [hevc({ side_data_list: [{ side_data_type: "Display Matrix", rotation: 90 }] })];
    expect(parseProbeOutput({ streams: ccw, format: { format_name: MP4 } })).toMatchObject({
      width: 338,
      height: 600,
      rotation: 270,
    });
  });

  it("keeps the coded size for 180 degrees and reads the legacy rotate tag", () => {
    const upsideDown = [hevc({ side_data_list: [{ side_data_type: "Display Matrix", rotation: 180 }] })];
    expect(parseProbeOutput({ streams: upsideDown, format: { format_name: MP4 } })).toMatchObject({
      width: 600,
      height: 338,
      rotation: 180,
    });
    const tagged = [hevc({ tags: { rotate: "270", language: "eng" } })];
    expect(parseProbeOutput({ streams: tagged, format: { format_name: MP4 } })).toMatchObject({
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
    expect(parseProbeOutput({ streams: both, format: { format_name: MP4 } }).rotation).toBe(90);
  });

  it("reports audio-only files without a picture, ignoring embedded cover art", () => {
    const result = parseProbeOutput({
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
    const jpg = parseProbeOutput({
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
    const png = parseProbeOutput({
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
    expect(() => parseProbeOutput(corrupt)).toThrow(UnprocessableMedia);
    const silentZeros = {
      streams: [{ codec_type: "audio", codec_name: "mp3", sample_rate: "0" }],
      format: { format_name: "mp3" },
    };
    expect(() => parseProbeOutput(silentZeros)).toThrow("No audio or video stream found");
    expect(() => parseProbeOutput({ streams: [], format: { format_name: "tty" } })).toThrow(
      "No audio or video stream found",
    );
  });

  it("rejects JSON that is not ffprobe's", () => {
    expect(() => parseProbeOutput({})).toThrow(UnprocessableMedia);
    expect(() => parseProbeOutput({ streams: "x", format: { format_name: "mp3" } })).toThrow(
      UnprocessableMedia,
    );
    expect(() => parseProbeJson("{\n\n}")).toThrow("ffprobe returned no format information");
    expect(() => parseProbeJson("not json")).toThrow("ffprobe returned invalid JSON");
  });

  it("returns null duration when ffprobe has none", () => {
    const result = parseProbeOutput({ streams: [hevc()], format: { format_name: MP4, duration: "N/A" } });
    expect(result.duration).toBeNull();
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
