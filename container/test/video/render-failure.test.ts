import { describe, expect, it } from "vitest";
import { ProcessError } from "../../src/lib/process.ts";
import { describeFailure } from "../../src/video/render-failure.ts";

const ffmpegTail =
  "frame=  120 fps= 60 q=28.0 size=     256kB time=00:00:04.00 bitrate= 524.3kbits/s speed=2.0x\n";

describe("describeFailure", () => {
  it("makes a deadline overrun permanent and says which deadline", () => {
    expect(describeFailure(new Error("aborted"), "deadline", 42)).toEqual({
      error: "Rendering took longer than its deadline of 42 s and was stopped; no tokens were charged",
      retryable: false,
    });
  });

  it("treats a signal from outside, a crashed browser, a shutdown and unreachable storage as ours (retryable)", () => {
    const killed = new ProcessError(
      "/usr/bin/ffmpeg",
      null,
      ffmpegTail,
      "was killed by SIGKILL",
      "exited",
      "SIGKILL",
    );
    expect(describeFailure(killed, undefined, 60)).toEqual({
      error: "The renderer's encoder was interrupted (SIGKILL)",
      retryable: true,
    });
    expect(
      describeFailure(new Error("Protocol error (Runtime.evaluate): Target closed"), undefined, 60),
    ).toMatchObject({
      retryable: true,
      error: "The renderer's browser stopped during the render",
    });
    expect(describeFailure(new Error("x"), "shutdown", 60).retryable).toBe(true);
    expect(describeFailure(new Error("download failed (503) for /storage/x"), undefined, 60).retryable).toBe(
      true,
    );
  });

  it("keeps ffmpeg's own error line but never its progress text or addresses", () => {
    const bad = new ProcessError(
      "/usr/bin/ffmpeg",
      1,
      `${ffmpegTail}[h264 @ 0x55d0c0] error while decoding MB 3 4\nInvalid data found when processing input\n`,
      "exited with code 1",
    );
    const failure = describeFailure(bad, undefined, 60);
    expect(failure).toEqual({
      error: "ffmpeg could not render the video: Invalid data found when processing input",
      retryable: false,
    });
  });
});
