/**
 * `gl` layers (gl-layer.ts): the shader's frames arrive as raw rgba on a pipe the renderer's WebGL page writes; the
 * graph reads it at the frame's size and rate. A window draws from the layer's frame it starts at (the page's
 * `time` is that frame's), and a graph compiled without the page refuses a gl layer rather than stall on its pipe.
 */
import { describe, expect, it } from "vitest";
import { Defect } from "@media-render/contract/faults";
import type { GlLayerJob } from "../../../../src/video/graph-context.ts";
import { compileOne } from "../../../helpers/graph-spec.ts";

const SHADER = "void main() { gl_FragColor = vec4(1.0); }";

/** A drawer that records what it was asked to draw. */
const recording = () => {
  const jobs: GlLayerJob[] = [];
  return { jobs, glLayers: { layerWriter: (job: GlLayerJob) => (jobs.push(job), async () => {}) } };
};

describe("gl", () => {
  it("reads the drawn frames from an extra pipe as rawvideo rgba, replayable, covering the frame", () => {
    const { jobs, glLayers } = recording();
    const { ctx, out } = compileOne({ type: "gl", fragmentShader: SHADER, speed: 2 }, { glLayers });
    expect(ctx.inputs).toEqual([
      ["-pix_fmt", "rgba", "-video_size", "320x180", "-framerate", "25"].concat([
        "-f",
        "rawvideo",
        "-protocol_whitelist",
        "pipe",
        "-i",
        "pipe:3",
      ]),
    ]);
    expect(ctx.filters).toEqual(["[0:v]format=yuv420p,setsar=1,settb=1/25,setpts=N+0[gl0]"]);
    expect(out).toEqual({ label: "gl0", x: 0, y: 0, coversFrame: true });
    // A shader draws the same frames again: a second run of the graph (transition taps) may replay the pipe.
    expect([ctx.pipes.length, ctx.oneShotPipes]).toEqual([1, 0]);
    expect(jobs).toEqual([
      {
        key: "layer-c0l0",
        fragment: SHADER,
        field: "clips[0].layers[0].fragmentShader",
        frames: 25,
        first: 0,
        fps: 25,
        speed: 2,
      },
    ]);
  });

  it("keeps alpha in a webm, and in a window draws only its frames from the one it starts at", () => {
    const { jobs, glLayers } = recording();
    const { ctx } = compileOne(
      { type: "gl", fragmentShader: SHADER },
      { glLayers, format: "webm", range: { from: 5, to: 15 } },
    );
    expect(ctx.filters).toEqual(["[0:v]format=yuva420p,setsar=1,settb=1/25,setpts=N+5[gl0]"]);
    expect(jobs[0]).toMatchObject({ frames: 10, first: 5, speed: 1 });
  });

  it("is refused as a defect in a graph compiled without the WebGL page, or with its shader file unread", () => {
    expect(() => compileOne({ type: "gl", fragmentShader: SHADER })).toThrow(Defect);
    expect(() => compileOne({ type: "gl", fragmentShader: SHADER })).toThrow(
      "gl layer c0l0: this graph was compiled without the WebGL page",
    );
    const { glLayers } = recording();
    expect(() =>
      compileOne({ type: "gl", fragmentPath: "https://example.com/a.glsl" }, { glLayers }),
    ).toThrow("gl layer c0l0: its shader file was not read");
  });
});
