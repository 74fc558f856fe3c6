import { describe, expect, it } from "vitest";
import { buildFfprobeArgs, probeInputName } from "../../../src/probe/ffprobe-args.ts";

describe("buildFfprobeArgs", () => {
  it("asks for JSON format and streams at error verbosity, local files only, read as media only", () => {
    expect(buildFfprobeArgs("/tmp/renderer/probe-1/input.mp4")).toEqual([
      "-v",
      "error",
      "-format_whitelist",
      "image2,png_pipe,apng,jpeg_pipe,webp_pipe,svg_pipe,gif,gif_pipe,mov,matroska,avi,mp3,aac,wav,ogg,flac",
      "-protocol_whitelist",
      "file",
      "-print_format",
      "json",
      "-show_format",
      "-show_streams",
      "file:/tmp/renderer/probe-1/input.mp4",
    ]);
  });

  it("never lets a path read as an option or another protocol", () => {
    const args = buildFfprobeArgs("-i http://169.254.169.254/x");
    expect(args.at(-1)).toBe("file:-i http://169.254.169.254/x");
  });
});

describe("probeInputName", () => {
  it("keeps a known media extension as a format hint, lower-cased", () => {
    expect(probeInputName("Holiday.MP4")).toBe("input.mp4");
    expect(probeInputName("overlay.svg")).toBe("input.svg");
    expect(probeInputName("song.m4a")).toBe("input.m4a");
  });

  it("drops unknown extensions, path parts and missing names", () => {
    expect(probeInputName(undefined)).toBe("input");
    expect(probeInputName("notes.txt")).toBe("input");
    expect(probeInputName("../../etc/passwd")).toBe("input");
    expect(probeInputName("a.mp4/../../x")).toBe("input");
    expect(probeInputName("noextension")).toBe("input");
  });
});
