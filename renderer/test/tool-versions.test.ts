import { describe, expect, it } from "vitest";
import { parseToolVersion } from "../src/tool-versions.ts";

describe("parseToolVersion", () => {
  it("reads Debian's ffmpeg and ffprobe banners", () => {
    expect(
      parseToolVersion(
        "ffmpeg version 5.1.9-0+deb12u1 Copyright (c) 2000-2026 the FFmpeg developers\nbuilt with gcc",
      ),
    ).toBe("5.1.9");
    expect(parseToolVersion("ffprobe version 5.1.9-0+deb12u1 Copyright (c) 2007-2026")).toBe("5.1.9");
  });

  it("reads Chromium's banner", () => {
    expect(parseToolVersion("Chromium 156.0.8078.79 built on Debian GNU/Linux 12 (bookworm)\n")).toBe(
      "156.0.8078.79",
    );
  });

  it("returns null when the first line has no version", () => {
    expect(parseToolVersion("")).toBeNull();
    expect(parseToolVersion("ffmpeg version N-112233-gdeadbeef\n5.1")).toBeNull();
  });
});
