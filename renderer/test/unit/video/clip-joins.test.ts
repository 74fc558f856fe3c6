/** Planning each transition between clips and joining the clips by the plans (clip-joins.ts). */
import { describe, expect, it } from "vitest";
import { buildTimeline } from "@media-render/contract/timeline";
import {
  clipTap,
  joinClips,
  planTransitions,
  tapDrawnTransitions,
  type GraphPass,
} from "../../../src/video/clip-joins.ts";
import type { DrawnTransition, TransitionDrawer } from "../../../src/video/gl/drawn-transitions.ts";
import { resolveTransition } from "../../../src/video/transitions.ts";
import type { VideoFormat } from "../../../src/video/types.ts";
import { colourClip, contextOf, specOf } from "../../helpers/graph-spec.ts";

/** A drawer that draws nothing and records the transitions it was asked to read or write. */
const recordingDrawer = () => {
  const read: DrawnTransition[] = [];
  const written: DrawnTransition[] = [];
  const drawer: TransitionDrawer = {
    readPairs: (t) => {
      read.push(t);
      return async () => {};
    },
    writeDrawn: (t) => {
      written.push(t);
      return async () => {};
    },
  };
  return { drawer, read, written };
};

/** Three one-second clips at 25 fps: circleopen (drawn by its GLSL) after the first, `second` after the second. */
const threeClips = (second: Record<string, unknown> | undefined, format?: VideoFormat) => {
  const spec = specOf(
    {
      clips: [colourClip(1, { name: "circleopen", duration: 0.2 }), colourClip(1, second), colourClip(1)],
    },
    format,
  );
  return { spec, timeline: buildTimeline(spec) };
};

const ALL = [
  { from: 0, to: 25 },
  { from: 0, to: 25 },
  { from: 0, to: 25 },
];

describe("planTransitions", () => {
  it("resolves each clip's transition to the next, none after the last clip or a cut", () => {
    const { timeline } = threeClips(undefined);
    const plans = planTransitions(timeline, ALL, "job", { kind: "plain" }, "mp4");
    expect(plans.map((p) => p?.r.name ?? null)).toEqual(["circleopen", null, null]);
    expect(plans[0]).toMatchObject({ t: { name: "circleopen", frames: 5 }, drawn: false });
  });

  it("seeds `random` by the job and the clip, as resolveTransition does", () => {
    const { timeline } = threeClips({ name: "random", duration: 0.2 });
    for (const jobId of ["job-a", "job-b", "job-c"]) {
      const plans = planTransitions(timeline, ALL, jobId, { kind: "plain" }, "mp4");
      expect(plans[1]!.r.name).toBe(resolveTransition("random", `${jobId}:1`).name);
    }
  });

  it("draws by GLSL only with a drawer, only the tapped one in the taps pass, never at the range's edge", () => {
    const { timeline } = threeClips({ name: "Radial", duration: 0.2 });
    const { drawer } = recordingDrawer();
    const drawn = (pass: GraphPass, ranges: ({ from: number; to: number } | null)[] = ALL) =>
      planTransitions(timeline, ranges, "job", pass, "mp4").map((p) => p?.drawn ?? null);
    expect(drawn({ kind: "plain" })).toEqual([false, false, null]);
    expect(drawn({ kind: "splice", drawer })).toEqual([true, true, null]);
    expect(drawn({ kind: "taps", drawer, tapping: 1 })).toEqual([false, true, null]);
    // A window that leaves the last clip out composes the second transition's clip B not at all.
    expect(drawn({ kind: "splice", drawer }, [ALL[0]!, ALL[1]!, null])).toEqual([true, false, null]);
  });

  it("leaves a wipe, which ffmpeg draws pixel for pixel, to ffmpeg on an opaque canvas only", () => {
    const { drawer } = recordingDrawer();
    const drawn = (format: VideoFormat) =>
      planTransitions(
        threeClips({ name: "wipeLeft", duration: 0.2 }, format).timeline,
        ALL,
        "job",
        {
          kind: "splice",
          drawer,
        },
        format,
      ).map((p) => p?.drawn ?? null);
    expect(drawn("mp4")).toEqual([true, false, null]);
    expect(drawn("webm")).toEqual([true, true, null]);
  });
});

describe("joinClips", () => {
  it("concatenates a cut, crossfades with xfade where clip B starts, and counts the transitions used", () => {
    const { spec, timeline } = threeClips(undefined);
    const ctx = contextOf(spec);
    const plans = planTransitions(timeline, ALL, "job", { kind: "plain" }, "mp4");
    const joined = joinClips(ctx, ["A", "B", "C"], plans, {
      timeline,
      from: 0,
      drawer: undefined,
      format: "mp4",
      alpha: false,
    });
    expect(joined).toEqual({ acc: "join1", used: ["circleopen"] });
    expect(ctx.filters).toEqual([
      "[A][B]xfade=transition=circleopen:duration=0.2:offset=0.8[join0]",
      "[join0][C]concat=n=2:v=1:a=0,settb=1/25[join1]",
    ]);
  });

  it("skips the clips the graph leaves out and places B from the composed range's first frame", () => {
    const { spec, timeline } = threeClips({ name: "Radial", duration: 0.2 });
    const ctx = contextOf(spec);
    const plans = planTransitions(timeline, ALL, "job", { kind: "plain" }, "mp4");
    const joined = joinClips(ctx, ["", "B", "C"], plans, {
      timeline,
      from: timeline.clips[1]!.startFrame,
      drawer: undefined,
      format: "mp4",
      alpha: false,
    });
    expect(joined.used).toEqual(["Radial"]);
    // Clip 2 starts 20 frames after clip 1 (25 frames, less the 5 of the overlap): 0.8 s into `[B]`.
    expect(ctx.filters).toEqual(["[B][C]xfade=transition=radial:duration=0.2:offset=0.8[join0]"]);
  });

  it("mixes a fade with the cheap mixers on an opaque canvas and with xfade on one with alpha", () => {
    const fadeJoin = (format: VideoFormat, alpha: boolean) => {
      const { spec, timeline } = threeClips({ name: "fade", duration: 0.2 }, format);
      const ctx = contextOf(spec);
      const plans = planTransitions(timeline, ALL, "job", { kind: "plain" }, format);
      joinClips(ctx, ["", "B", "C"], plans, { timeline, from: 20, drawer: undefined, format, alpha });
      return ctx.filters.join(";");
    };
    expect(fadeJoin("mp4", false)).not.toContain("xfade");
    expect(fadeJoin("mp4", false)).toContain("fade=t=in:s=0:n=5:alpha=1");
    expect(fadeJoin("webm", true)).toContain("[B][C]xfade=transition=fade:duration=0.2:offset=0.8[join0]");
  });

  it("splices the drawn frames of a transition its GLSL draws, from a pipe the drawer writes", () => {
    const { spec, timeline } = threeClips(undefined);
    const ctx = contextOf(spec);
    const { drawer, written } = recordingDrawer();
    const plans = planTransitions(timeline, ALL, "job", { kind: "splice", drawer }, "mp4");
    const joined = joinClips(ctx, ["A", "B", "C"], plans, {
      timeline,
      from: 0,
      drawer,
      format: "mp4",
      alpha: false,
    });
    expect(joined.used).toEqual(["circleopen"]);
    expect(written).toEqual([
      expect.objectContaining({
        key: "t0",
        field: "clips[0].transition",
        name: "circleopen",
        frames: 5,
        channels: 3,
      }),
    ]);
    expect(ctx.pipes).toHaveLength(1);
    expect(ctx.filters.join(";")).not.toContain("xfade");
    expect(ctx.filters).toContain("[A]trim=end_frame=20[ga02]");
  });
});

describe("the taps pass", () => {
  it("splits a clip with a drawn transition on each side in two, and hands a lone side the clip itself", () => {
    const { spec, timeline } = threeClips({ name: "Radial", duration: 0.2 });
    const { drawer } = recordingDrawer();
    const plans = planTransitions(timeline, ALL, "job", { kind: "splice", drawer }, "mp4");
    const ctx = contextOf(spec);
    expect(clipTap(ctx, "A", plans, 0)).toEqual({ tail: "A" });
    expect(clipTap(ctx, "C", plans, 2)).toEqual({ head: "C" });
    expect(ctx.filters).toEqual([]);
    const both = clipTap(ctx, "B", plans, 1);
    expect(ctx.filters).toEqual([`[B]split=2[${both.tail}][${both.head}]`]);
  });

  it("writes the pairs of the tapped transition only, A's last and B's first frames side by side", () => {
    const { spec, timeline } = threeClips({ name: "Radial", duration: 0.2 }, "webm");
    const { drawer, read } = recordingDrawer();
    const plans = planTransitions(timeline, ALL, "job", { kind: "taps", drawer, tapping: 1 }, "webm");
    const ctx = contextOf(spec);
    tapDrawnTransitions(ctx, plans, [{}, { tail: "B" }, { head: "C" }], ALL, drawer, "webm");
    expect(read).toEqual([expect.objectContaining({ key: "t1", name: "Radial", channels: 4 })]);
    expect(ctx.outputs).toHaveLength(1);
    expect(ctx.filters).toContain("[B]trim=start_frame=20,setpts=PTS-STARTPTS[gta0]");
    expect(ctx.filters).toContain("[C]trim=end_frame=5,setpts=PTS-STARTPTS[gtb1]");
  });
});
