import { describe, expect, it } from "vitest";
import { ProcessError } from "../../../src/lib/process.ts";
import { HelperFailed } from "../../../src/video/gl/native-gl.ts";
import { describeFailure } from "../../../src/video/render-failure.ts";

const limits = (deadlineSeconds: number) => ({ deadlineSeconds, memoryMb: 3072 });

const ffmpegTail =
  "frame=  120 fps= 60 q=28.0 size=     256kB time=00:00:04.00 bitrate= 524.3kbits/s speed=2.0x\n";

describe("describeFailure", () => {
  it("makes a deadline overrun permanent and says which deadline", () => {
    expect(describeFailure(new Error("aborted"), "deadline", limits(42))).toEqual({
      error: "Rendering took longer than its deadline of 42 s and was stopped; no tokens were charged",
      retryable: false,
      fault: "job",
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
    expect(describeFailure(killed, undefined, limits(60))).toEqual({
      error: "The renderer's encoder was interrupted (SIGKILL)",
      retryable: true,
      fault: "infrastructure",
    });
    expect(
      describeFailure(new Error("Protocol error (Runtime.evaluate): Target closed"), undefined, limits(60)),
    ).toMatchObject({
      retryable: true,
      error: "The renderer's browser stopped during the render",
    });
    expect(describeFailure(new Error("x"), "shutdown", limits(60)).retryable).toBe(true);
    expect(
      describeFailure(new Error("download failed (503) for /storage/x"), undefined, limits(60)).retryable,
    ).toBe(true);
  });

  it("makes a job stopped past its memory share permanent and says which share", () => {
    expect(describeFailure(new Error("aborted"), "memory", limits(60))).toEqual({
      error:
        "Rendering needed more than its 3072 MB of memory and was stopped; no tokens were charged. Make the video smaller or use fewer clips and layers",
      retryable: false,
      fault: "job",
    });
  });

  it("a tool that crashes (or fails an allocation at its ceiling) is the job's fault; one killed from outside is ours", () => {
    const crashed = new ProcessError(
      "/usr/bin/ffmpeg",
      null,
      "",
      "was killed by SIGSEGV",
      "exited",
      "SIGSEGV",
    );
    expect(describeFailure(crashed, undefined, limits(60))).toEqual({
      error: "ffmpeg could not render the video (it crashed: SIGSEGV)",
      retryable: false,
      fault: "job",
    });
    const helperKilled = new HelperFailed("transition cube could not be drawn: killed by SIGKILL", "SIGKILL");
    expect(describeFailure(helperKilled, undefined, limits(60))).toEqual({
      error: "The renderer's GL helper was interrupted (SIGKILL)",
      retryable: true,
      fault: "infrastructure",
    });
    const helperOut = new HelperFailed(
      "transition cube could not be drawn: it needed more than its 640 MB of memory",
      null,
    );
    expect(describeFailure(helperOut, undefined, limits(60))).toEqual({
      error: "transition cube could not be drawn: it needed more than its 640 MB of memory",
      retryable: false,
      fault: "job",
    });
    const helperCrashed = new HelperFailed(
      "transition cube could not be drawn: killed by SIGSEGV",
      "SIGSEGV",
    );
    expect(describeFailure(helperCrashed, undefined, limits(60)).retryable).toBe(false);
  });

  it("keeps ffmpeg's own error line but never its progress text or addresses", () => {
    const bad = new ProcessError(
      "/usr/bin/ffmpeg",
      1,
      `${ffmpegTail}[h264 @ 0x55d0c0] error while decoding MB 3 4\nInvalid data found when processing input\n`,
      "exited with code 1",
    );
    const failure = describeFailure(bad, undefined, limits(60));
    expect(failure).toEqual({
      error: "ffmpeg could not render the video: Invalid data found when processing input",
      retryable: false,
      fault: "job",
    });
  });

  it("a bug of ours (a TypeError, a RangeError...) is a defect: permanent, with a fresh reference, no stack text", () => {
    const crashes = [
      new TypeError("Cannot read properties of undefined (reading 'findIndex')"),
      new RangeError("Invalid array length"),
      new ReferenceError("frames is not defined"),
    ];
    const references = new Set<string>();
    for (const error of crashes) {
      const failure = describeFailure(error, undefined, limits(60));
      expect(failure).toMatchObject({ retryable: false, fault: "defect" });
      expect(failure.reference).toMatch(/^ref_[0-9a-f]{12}$/);
      expect(failure.error).toContain(`internal error, reference ${failure.reference}`);
      expect(failure.error).not.toContain(error.message);
      references.add(failure.reference!);
    }
    expect(references.size).toBe(crashes.length);
  });

  it("a network TypeError is the infrastructure's, a plain Error with a message written for users is the job's", () => {
    expect(describeFailure(new TypeError("fetch failed"), undefined, limits(60))).toMatchObject({
      retryable: true,
      fault: "infrastructure",
    });
    expect(
      describeFailure(new Error("html layer 2: the page did not load within 20 s"), undefined, limits(60)),
    ).toEqual({ error: "html layer 2: the page did not load within 20 s", retryable: false, fault: "job" });
  });
});
