/**
 * Transitions built as graph fragments (mixed-transitions.ts: fade, dummy) or drawn by their GLSL (burn, colorphase,
 * multiply_blend: gl/), on red → blue clips whose mixes are computable:
 * 10 fps, two 2.5 s clips, a 1 s overlap starting at 1.5 s: overlap frame k is shown at t = 1.5 + k / 10.
 */
import { execFileSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeBrowser } from "../../src/video/raster/browser.ts";
import { renderVideo } from "../../src/video/render.ts";
import { videoConfig } from "../helpers/video-config.ts";
import { colorAt, near, probeOut } from "./media-helpers.ts";

let dir: string;
const outs = new Map<string, string>();
const NAMES = ["fade", "dummy", "burn", "colorphase", "multiply_blend"];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "video-joins-"));
  for (const name of NAMES) {
    const outPath = join(dir, `${name}.mp4`);
    await renderVideo({
      jobId: `job_${name}`,
      workDir: await mkdtemp(join(dir, `${name}-`)),
      outPath,
      config: videoConfig({
        width: 160,
        height: 90,
        fps: 10,
        clips: [
          {
            duration: 2.5,
            transition: { name, duration: 1 },
            layers: [{ type: "fill-color", color: "#ff0000" }],
          },
          { duration: 2.5, layers: [{ type: "fill-color", color: "#0000ff" }] },
        ],
      }),
    });
    outs.set(name, outPath);
  }
});
afterAll(async () => {
  await closeBrowser(); // burn, colorphase and multiply_blend are drawn on the WebGL page
  await rm(dir, { recursive: true, force: true });
});

const at = (name: string, k: number) => colorAt(outs.get(name)!, 1.5 + k / 10);
const RED = [255, 0, 0];
const BLUE = [0, 0, 255];

describe("transitions as graph fragments", () => {
  it("keep the timeline's length: 2.5 + 2.5 − 1 s", async () => {
    for (const name of NAMES) expect((await probeOut(outs.get(name)!)).duration).toBeCloseTo(4, 1);
  });

  it("fade: halfway through, half of each picture", async () => {
    expect(near(await at("fade", 5), [128, 0, 128], 30)).toBe(true);
    expect(near(await colorAt(outs.get("fade")!, 3.5), BLUE)).toBe(true);
  });

  it("dummy: the first picture until the middle, then the second", async () => {
    expect(near(await at("dummy", 2), RED)).toBe(true);
    expect(near(await at("dummy", 4), RED)).toBe(true);
    expect(near(await at("dummy", 5), BLUE)).toBe(true);
    expect(near(await at("dummy", 8), BLUE)).toBe(true);
  });

  it("burn: a warm flare at the middle that a plain fade does not have", async () => {
    const [fadeMid, burnMid, burnEnd] = [
      await at("fade", 5),
      await at("burn", 5),
      await colorAt(outs.get("burn")!, 3.5),
    ];
    // 40 % of (230, 102, 47) over the red/blue mix lifts green from ~0 to ~40 and red above the fade's.
    expect(burnMid[1]!).toBeGreaterThan(fadeMid[1]! + 25);
    expect(burnMid[0]!).toBeGreaterThan(fadeMid[0]! + 15);
    expect(near(burnEnd, BLUE)).toBe(true);
  });

  it("colorphase (its GLSL): each channel crosses over on its own smoothstep", async () => {
    // Halfway, gl `mix(a, b, smoothstep(fromStep, toStep, vec4(0.5)))`: R keeps 1 - 0.926 of the red,
    // B has 0.074 of the blue: a dark purple (19, 0, 19), not the crossfade's (128, 0, 128).
    const mid = await at("colorphase", 5);
    expect(near(mid, [19, 0, 19], 24)).toBe(true);
    expect(near(await at("colorphase", 1), RED, 40)).toBe(true);
  });

  it("multiply_blend: the two pictures multiplied at the middle (red × blue is dark)", async () => {
    const sum = (c: number[]) => c.reduce((a, b) => a + b, 0);
    expect(sum(await at("multiply_blend", 5))).toBeLessThan(sum(await at("fade", 5)) - 100);
    expect(near(await colorAt(outs.get("multiply_blend")!, 3.5), BLUE)).toBe(true);
  });
});

describe("wipes drawn by ffmpeg exactly where the gl shader puts the edge", () => {
  /** Luma of every frame of `path` (gray, W x H each). */
  const lumaFrames = (path: string, w: number, h: number): Buffer[] => {
    const all = execFileSync(
      "ffmpeg",
      ["-v", "error", "-i", path, "-f", "rawvideo", "-pix_fmt", "gray", "-"],
      {
        maxBuffer: 1 << 26,
      },
    );
    return Array.from({ length: all.length / (w * h) }, (_, i) => all.subarray(i * w * h, (i + 1) * w * h));
  };
  const [w, h, fps, n] = [96, 54, 10, 10];
  for (const [name, axis, bAtEnd] of [
    ["wipeLeft", "x", true],
    ["wipeRight", "x", false],
    ["wipeUp", "y", true],
    ["wipeDown", "y", false],
  ] as const) {
    it(`${name}: frame k of ${n} switches to B at the shader's column/row, every frame`, async () => {
      const work = await mkdtemp(join(tmpdir(), "wipes-"));
      const outPath = join(work, "w.mp4");
      const r = await renderVideo({
        jobId: `job_${name}`,
        workDir: work,
        outPath,
        config: videoConfig({
          width: w,
          height: h,
          fps,
          clips: [
            {
              duration: 2,
              transition: { name, duration: n / fps },
              layers: [{ type: "fill-color", color: "#ffffff" }],
            },
            { duration: 2, layers: [{ type: "fill-color", color: "#000000" }] },
          ],
        }),
      });
      expect(r.transitions).toEqual([name]);
      const frames = lumaFrames(outPath, w, h);
      const size = axis === "x" ? w : h;
      for (let k = 0; k < n; k++) {
        const f = frames[20 - n + k]!;
        const p = k / n;
        // The shader's picture: B (black) at index i iff progress >= its step edge.
        const isB = (i: number) => {
          // u = (x + 0.5) / W; for rows, uv's v = 1 - (r + 0.5) / H, so wipeUp's edge v is 1 - u too.
          const u = (i + 0.5) / size;
          return p >= (bAtEnd ? 1 - u : u);
        };
        for (let i = 0; i < size; i++) {
          const v = axis === "x" ? f[Math.floor(h / 2) * w + i]! : f[i * w + Math.floor(w / 2)]!;
          expect([k, i, v < 128]).toEqual([k, i, isB(i)]);
          // Whole pixels of A (white) or B (black), not a blend: the mask is 0 or 255.
          const inside = isB(i - 1) === isB(i) && isB(i + 1) === isB(i);
          expect([k, i, !inside || (isB(i) ? v < 6 : v > 249)]).toEqual([k, i, true]);
        }
      }
      await rm(work, { recursive: true, force: true });
    }, 60_000);
  }
});
