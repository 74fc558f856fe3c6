import { describe, expect, it } from "vitest";
import { buildTimeline } from "@media-render/contract/timeline";
import { compileGraph } from "../../src/video/compile.ts";
import { videoSpec } from "../../src/video/config.ts";
import type { MediaInfo, VideoFormat } from "../../src/video/types.ts";
import { videoConfig } from "../helpers/video-config.ts";

const PNG: MediaInfo = {
  width: 200,
  height: 100,
  duration: 0,
  hasVideo: true,
  hasAudio: false,
  hasAlpha: true,
  rotation: 0,
  videoCodec: "png",
  orientation: 1,
};

const graphFor = (format: VideoFormat): string => {
  const spec = videoSpec(
    videoConfig({
      width: 320,
      height: 180,
      fps: 25,
      clips: [
        {
          duration: 1,
          layers: [
            { type: "fill-color", color: "#336699" },
            { type: "image-overlay", path: "/in/logo.png", width: 0.3 },
          ],
        },
      ],
    }),
    format,
  );
  const timeline = buildTimeline(spec);
  return compileGraph({
    spec,
    timeline,
    jobId: "job",
    media: new Map([["/in/logo.png", PNG]]),
    rasters: new Map(),
  }).filterGraph;
};

describe("compileGraph layer compositing", () => {
  it("keeps an opaque mp4 canvas in yuv420p under overlays (no per-frame yuva420p round trip)", () => {
    const overlays = graphFor("mp4").match(/overlay=[^[;]*/g) ?? [];
    expect(overlays.length).toBeGreaterThan(0);
    for (const o of overlays) expect(o).toContain("format=yuv420");
  });

  it("lets webm overlays negotiate alpha (the canvas may be transparent)", () => {
    expect(graphFor("webm")).toMatch(/overlay=[^;]*format=auto/);
  });
});

describe("compileGraph inputs", () => {
  it("opens a still drawn by several layers once, and the graph reads it from every chain", () => {
    const spec = videoSpec(
      videoConfig({
        width: 320,
        height: 180,
        fps: 25,
        clips: [
          {
            duration: 1,
            layers: [
              { type: "fill-color", color: "#336699" },
              { type: "image-overlay", path: "/in/logo.png", width: 0.3, position: "top-left" },
              { type: "image-overlay", path: "/in/logo.png", width: 0.2, position: "bottom-right" },
            ],
          },
        ],
      }),
    );
    const timeline = buildTimeline(spec);
    const graph = compileGraph({
      spec,
      timeline,
      jobId: "job",
      media: new Map([["/in/logo.png", PNG]]),
      rasters: new Map(),
    });
    expect(graph.inputs).toEqual([["-i", "/in/logo.png"]]);
    expect(graph.filterGraph.match(/\[0:v\]/g)).toHaveLength(2);
  });
});
