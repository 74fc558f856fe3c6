/**
 * The plan of a video job (planned-length.ts) with its stored files' lengths: a video layer's `speed` divides the
 * clip's length (the seconds charged and capped are the ones rendered), `loop` does not lengthen it, and a
 * `frameTime` at or after a stored video's end is refused at its field. The plan's timeline is the contract's
 * (timeline.ts), which the renderer and the builder's timeline build with too.
 */
import { describe, expect, it } from "vitest";
import { validateJobConfig, type VideoConfig } from "@media-render/contract/config";
import { ValidationFailed } from "../../../../src/lib/errors.ts";
import { plannedTimeline, plannedVideo } from "../../../../src/jobs/planned-length.ts";

const VIDEO = "/video/2026-01-01/u/clip.mp4";
const lengths: Record<string, number> = { [VIDEO]: 12 };
const durationOf = (ref: string) => lengths[ref];

const config = (layers: Record<string, unknown>[], extra: Record<string, unknown> = {}): VideoConfig => {
  const checked = validateJobConfig("video", {
    width: 64,
    height: 64,
    fps: 10,
    clips: [{ layers }],
    ...extra,
  });
  if (!checked.valid) throw new Error(JSON.stringify(checked));
  return checked.config as VideoConfig;
};

describe("a video layer's speed and loop in the plan", () => {
  it("lasts the file's cut divided by the speed, and charges those seconds", () => {
    const plain = plannedVideo(config([{ type: "video", path: VIDEO }]), durationOf);
    const fast = plannedVideo(config([{ type: "video", path: VIDEO, speed: 4 }]), durationOf);
    const slow = plannedVideo(config([{ type: "video", path: VIDEO, cutFrom: 10, speed: 0.25 }]), durationOf);
    expect([plain.seconds, fast.seconds, slow.seconds]).toEqual([12, 3, 8]);
    expect(fast.timeline.totalFrames).toBe(30);
    expect(fast.estimatedTokens).toBeLessThan(plain.estimatedTokens);
  });

  it("does not lengthen a clip by looping; a clip's own duration wins", () => {
    expect(plannedTimeline(config([{ type: "video", path: VIDEO, loop: true }]), durationOf).duration).toBe(
      12,
    );
    const clips = [{ duration: 30, layers: [{ type: "video", path: VIDEO, loop: true, speed: 2 }] }];
    expect(plannedTimeline(config([], { clips }), durationOf).duration).toBe(30);
  });
});

describe("frameTime in the plan", () => {
  it("refuses a frame at or after a stored video's end, naming the field; takes one before it", () => {
    expect(() =>
      plannedTimeline(config([{ type: "image", path: VIDEO, frameTime: 11.9 }]), durationOf),
    ).not.toThrow();
    let error: unknown;
    try {
      plannedTimeline(
        config([{ type: "fill-color" }, { type: "image-overlay", path: VIDEO, frameTime: 12 }]),
        durationOf,
      );
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ValidationFailed);
    expect((error as ValidationFailed).errors).toEqual([
      {
        field: "config.clips[0].layers[1].frameTime",
        message: "is 12 s, at or after the end of this video (12 s long)",
        code: "CUT_OUTSIDE_FILE",
      },
    ]);
  });

  it("cannot judge a file whose length is unknown (a still picture, a URL before its import)", () => {
    expect(() =>
      plannedTimeline(
        config([{ type: "image", path: "/image/2026-01-01/u/p.png", frameTime: 99 }]),
        () => null,
      ),
    ).not.toThrow();
  });
});
