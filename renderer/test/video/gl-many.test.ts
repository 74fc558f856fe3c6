/**
 * Jobs with many GL drawings (issue 29): a job's transitions drawn by the native helper start their helpers one
 * by one, as their frames are produced, at most HELPERS_PER_JOB at once and each under a memory ceiling, so a
 * cheap job with many transitions cannot take a renderer's memory; and a job with many `gl` layers renders (their
 * frames were held by requests the page could not send past Chromium's 6 connections to the exchange).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  builtGlTransition,
  Gate,
  HELPERS_PER_JOB,
  helperMemoryCeiling,
  nativeArgs,
  NativeDrawing,
} from "../../src/video/gl/native-gl.ts";
import { transitionFragment } from "../../src/video/gl/gl-page.ts";
import { GL_SOURCES, uniformsFor } from "../../src/video/gl/transition-shaders.ts";
import { closeBrowser } from "../../src/video/raster/browser.ts";
import { renderVideo } from "../../src/video/render.ts";
import { videoConfig } from "../helpers/video-config.ts";
import { sampleTree } from "../helpers/process-tree.ts";
import { colorAt, near } from "./media-helpers.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "gl-many-"));
});
afterAll(async () => {
  await closeBrowser();
  await rm(dir, { recursive: true, force: true });
});

const render = async (name: string, config: Record<string, unknown>) =>
  renderVideo({
    jobId: `job_${name}`,
    workDir: await mkdtemp(join(dir, `${name}-`)),
    outPath: join(dir, `${name}.mp4`),
    config: videoConfig(config),
  });

const MB = 2 ** 20;
const RED = [255, 0, 0];
const BLUE = [0, 0, 255];

describe("transitions drawn by the native helper", () => {
  it("a 30-transition 64x64 cube job runs at most two helpers at once, under 300 MB, and draws every cube", async () => {
    expect(builtGlTransition(), "the project's setup builds the helper; renders use it").not.toBeNull();
    // 31 one-second clips, blue and red in turn, each joined to the next by a 0.5 s cube (12 frames at 25 fps).
    const clips = Array.from({ length: 31 }, (_, i) => ({
      duration: 1,
      ...(i < 30 && { transition: { name: "cube", duration: 0.5 } }),
      layers: [{ type: "fill-color", color: i % 2 ? "#ff0000" : "#0000ff" }],
    }));
    const sampling = sampleTree("gl-transition");
    const r = await render("cubes", { width: 64, height: 64, fps: 25, clips });
    const peak = sampling.stop();
    const byCommand = Object.entries(peak.byCommand).map(([c, b]) => `${c} ${Math.round(b / MB)} MB`);
    console.log(`30 cubes at 64x64: peak ${Math.round(peak.bytes / MB)} MB (${byCommand.join(", ")})`);
    expect(r.transitions).toHaveLength(30);
    expect(peak.count).toBeGreaterThan(0);
    expect(peak.count).toBeLessThanOrEqual(HELPERS_PER_JOB);
    // Resident memory summed over the job's processes (its ffmpeg runs and helpers); before, 30 helpers at once
    // held ~2.2 GB.
    expect(peak.bytes).toBeLessThan(300 * MB);
    // Clip j starts at frame 13 j; its cube into clip j + 1 at frame 13 j + 13, half way at 13 j + 19. Mid-cube,
    // the next clip's face turns in on the left and this clip's turns away on the right.
    const left = { x: 0.15, y: 0.3, w: 0.15, h: 0.3 };
    const right = { x: 0.7, y: 0.3, w: 0.15, h: 0.3 };
    const mid = (j: number) => (13 * j + 19) / 25 + 0.01;
    expect(near(await colorAt(r.outPath, mid(0), left), RED)).toBe(true);
    expect(near(await colorAt(r.outPath, mid(0), right), BLUE)).toBe(true);
    expect(near(await colorAt(r.outPath, mid(29), left), BLUE)).toBe(true);
    expect(near(await colorAt(r.outPath, mid(29), right), RED)).toBe(true);
  }, 180_000);

  it("a helper past its memory ceiling fails with that reason instead of growing", async () => {
    const W = 2048;
    const src = GL_SOURCES.get("cube")!;
    const program = {
      fragment: transitionFragment(src.glsl),
      uniforms: uniformsFor("cube", {}),
      samplers: [],
      progress: [0.5],
    };
    // 100 MB: less than the textures of a 2048x2048 cube (its own ceiling would be ~260 MB).
    expect(helperMemoryCeiling(W, W)).toBeGreaterThan(250 * MB);
    const tight = new NativeDrawing(builtGlTransition()!, "transition cube", {
      gate: new Gate(1),
      ceiling: 100 * MB,
    });
    const drawing = tight.draw(
      nativeArgs(program, W, W, 3),
      false,
      new Writable({ write: (_c, _e, cb) => cb() }),
    );
    void tight.input.share().catch(() => {});
    await expect(drawing).rejects.toThrow(
      /transition cube could not be drawn: it needed more than its 100 MB of memory/,
    );
  }, 60_000);

  it("the gate lets in at most its size at once, in order of arrival", async () => {
    const gate = new Gate(2);
    const order: string[] = [];
    const leaveA = await gate.enter();
    const leaveB = await gate.enter();
    const c = gate.enter().then((leave) => (order.push("c"), leave));
    const d = gate.enter().then((leave) => (order.push("d"), leave));
    await new Promise((r) => setTimeout(r, 20));
    expect(order).toEqual([]);
    leaveA();
    leaveA(); // leaving twice frees one place only
    await c;
    await new Promise((r) => setTimeout(r, 20));
    expect(order).toEqual(["c"]);
    leaveB();
    (await d)();
    expect(order).toEqual(["c", "d"]);
  });
});

describe("many gl layers", () => {
  it("a job with 40 gl layers renders (more than Chromium's 6 connections to the exchange)", async () => {
    // Three clips of 14, 13 and 13 layers; each layer is opaque (a gl layer covers the frame), so the top one of
    // each clip is what shows: its own colour, a different one per clip.
    const layer = (r: number, g: number, b: number) => ({
      type: "gl",
      fragmentShader: `uniform float time; void main() { gl_FragColor = vec4(${r}.0, ${g}.0, ${b}.0, 1.0); }`,
    });
    const under = layer(0, 0, 0);
    const clip = (count: number, top: ReturnType<typeof layer>) => ({
      duration: 2,
      layers: [...Array.from({ length: count - 1 }, () => under), top],
    });
    const started = Date.now();
    const r = await render("gl-layers", {
      width: 160,
      height: 90,
      fps: 10,
      clips: [clip(14, layer(1, 0, 0)), clip(13, layer(0, 1, 0)), clip(13, layer(0, 0, 1))],
    });
    console.log(`40 gl layers, 60 frames at 160x90: ${Date.now() - started} ms`);
    expect(r.duration).toBeCloseTo(6, 5);
    // Frame 15 of the first clip's layers (1.5 s) was never drawn before: its post waited behind six others.
    expect(near(await colorAt(r.outPath, 1.5), RED)).toBe(true);
    expect(near(await colorAt(r.outPath, 3.5), [0, 255, 0])).toBe(true);
    expect(near(await colorAt(r.outPath, 5.5), BLUE)).toBe(true);
  }, 180_000);

  it("eight clips with a gl layer each render (each layer waits for its clip while the others draw)", async () => {
    const clips = Array.from({ length: 8 }, (_, i) => ({
      duration: 1,
      layers: [
        {
          type: "gl",
          fragmentShader: `void main() { gl_FragColor = vec4(${i % 2}.0, 0.0, ${(i + 1) % 2}.0, 1.0); }`,
        },
      ],
    }));
    const r = await render("gl-clips", { width: 160, height: 90, fps: 25, clips });
    expect(r.duration).toBeCloseTo(8, 5);
    expect(near(await colorAt(r.outPath, 6.5), BLUE)).toBe(true);
    expect(near(await colorAt(r.outPath, 7.5), RED)).toBe(true);
  }, 120_000);
});
