import { describe, expect, it } from "vitest";
import { lastOutTime, overallPercent, ProgressReader } from "../../../src/video/progress.ts";

describe("lastOutTime", () => {
  it("reads the last out_time_us of a progress block, in seconds", () => {
    const block = [
      "frame=25",
      "out_time_us=1000000",
      "out_time=00:00:01.000000",
      "frame=50",
      "out_time_us=2040000",
      "progress=continue",
    ].join("\n");
    expect(lastOutTime(block)).toBe(2.04);
  });

  it("reads out_time_ms as microseconds too (ffmpeg's misnamed twin of out_time_us)", () => {
    expect(lastOutTime("out_time_ms=1500000\n")).toBe(1.5);
  });

  it("is null for text without an output time, and skips values ffmpeg prints as N/A", () => {
    expect(lastOutTime("")).toBeNull();
    expect(lastOutTime("frame=0\nout_time=00:00:00.000000\nprogress=continue")).toBeNull();
    expect(lastOutTime("out_time_us=N/A\nprogress=continue")).toBeNull();
    expect(lastOutTime("out_time_us=500000\nout_time_us=N/A\n")).toBe(0.5);
  });

  it("does not take a negative start time (before the first frame) for progress", () => {
    expect(lastOutTime("out_time_us=-23220\n")).toBeNull();
  });
});

describe("overallPercent", () => {
  it("maps downloading to 0-10, the render stages to 10-95 and uploading to 95-100", () => {
    expect(overallPercent("downloading", 0)).toBe(0);
    expect(overallPercent("downloading", 0.5)).toBe(5);
    expect(overallPercent("downloading", 1)).toBe(10);
    expect(overallPercent("transcribing", 0)).toBe(10);
    expect(overallPercent("rendering", 0)).toBe(10);
    expect(overallPercent("encoding", 0.5)).toBe(53);
    expect(overallPercent("encoding", 1)).toBe(95);
    expect(overallPercent("uploading", 0)).toBe(95);
    expect(overallPercent("uploading", 1)).toBe(100);
  });

  it("clamps fractions outside 0..1 (an output time past the planned length, or before its start)", () => {
    expect(overallPercent("encoding", 1.2)).toBe(95);
    expect(overallPercent("encoding", -0.1)).toBe(10);
    expect(overallPercent("downloading", Number.POSITIVE_INFINITY)).toBe(10);
  });

  it("rounds to whole percent", () => {
    expect(overallPercent("encoding", 1 / 3)).toBe(38);
  });
});

describe("ProgressReader", () => {
  it("waits for a line to end before reading it, across chunks", () => {
    const reader = new ProgressReader();
    expect(reader.push("frame=10\nout_time_us=40")).toBeNull();
    expect(reader.push("0000")).toBeNull();
    expect(reader.push("\nprogress=continue\n")).toBe(0.4);
  });

  it("answers the newest time of the complete lines, keeping the partial last line for later", () => {
    const reader = new ProgressReader();
    expect(reader.push("out_time_us=1000000\nout_time_us=2000000\nout_time_us=3")).toBe(2);
    expect(reader.push("000000\n")).toBe(3);
  });

  it("is null for complete lines without a time, and for malformed values", () => {
    const reader = new ProgressReader();
    expect(reader.push("progress=continue\n")).toBeNull();
    expect(reader.push("out_time_us=N/A\nspeed=N/A\n")).toBeNull();
    expect(reader.push("garbage without newline")).toBeNull();
    expect(reader.push(" still garbage\nout_time_us=250000\n")).toBe(0.25);
  });

  it("takes CRLF line ends", () => {
    expect(new ProgressReader().push("out_time_us=750000\r\nprogress=end\r\n")).toBe(0.75);
  });
});
