import { totalmem } from "node:os";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../src/settings.ts";
import { builtGlTransition } from "../src/video/gl/native-gl.ts";

describe("loadConfig", () => {
  it("applies the contract's defaults when only the secret is set", () => {
    const config = loadConfig({ RENDERER_SECRET: "s" });
    expect(config).toMatchObject({
      host: "127.0.0.1",
      port: 8788,
      rendererSecret: "s",
      probeMaxBytes: 200 * 1024 * 1024,
      ffprobePath: "ffprobe",
    });
    expect(config.tmpDir).toMatch(/renderer$/);
  });

  it("reads every variable and treats empty strings as unset", () => {
    const config = loadConfig({
      RENDERER_SECRET: "s",
      HOST: "0.0.0.0",
      PORT: "8080",
      TMP_DIR: "/var/tmp/r",
      PROBE_MAX_BYTES: "1024",
      FFPROBE_PATH: "",
    });
    expect(config).toMatchObject({ host: "0.0.0.0", port: 8080, tmpDir: "/var/tmp/r", probeMaxBytes: 1024 });
    expect(config.ffprobePath).toBe("ffprobe");
  });

  it("reads the binaries renders launch and the html capture settings", () => {
    expect(loadConfig({ RENDERER_SECRET: "s" })).toMatchObject({
      ffmpegPath: "ffmpeg",
      chromiumPath: "/usr/lib/chromium/chromium-headless-shell",
      htmlCapture: "beginframe",
      htmlCaptureWorkers: 2,
      pocketsphinxPath: "pocketsphinx_continuous",
    });
    expect(
      loadConfig({
        RENDERER_SECRET: "s",
        FFMPEG_PATH: "/opt/ffmpeg",
        CHROMIUM_HEADLESS_PATH: "/opt/shell",
        HTML_CAPTURE: "screenshot",
        HTML_CAPTURE_WORKERS: "3",
        POCKETSPHINX_PATH: "/opt/ps",
      }),
    ).toMatchObject({
      ffmpegPath: "/opt/ffmpeg",
      chromiumPath: "/opt/shell",
      htmlCapture: "screenshot",
      htmlCaptureWorkers: 3,
      pocketsphinxPath: "/opt/ps",
    });
  });

  it("gives a gl layer frame 10 s unless GL_FRAME_SECONDS says otherwise (1 to 600)", () => {
    expect(loadConfig({ RENDERER_SECRET: "s" }).glFrameSeconds).toBe(10);
    expect(loadConfig({ RENDERER_SECRET: "s", GL_FRAME_SECONDS: "30" }).glFrameSeconds).toBe(30);
    expect(() => loadConfig({ RENDERER_SECRET: "s", GL_FRAME_SECONDS: "0" })).toThrow(
      /GL_FRAME_SECONDS must be at least 1/,
    );
    expect(() => loadConfig({ RENDERER_SECRET: "s", GL_FRAME_SECONDS: "601" })).toThrow(
      /GL_FRAME_SECONDS must be at most 600/,
    );
  });

  it("draws transitions with the built native helper unless told to use the page", () => {
    const built = builtGlTransition();
    expect(built).not.toBeNull();
    expect(loadConfig({ RENDERER_SECRET: "s" }).glTransitionPath).toBe(built);
    expect(loadConfig({ RENDERER_SECRET: "s", GL_TRANSITIONS: "page" }).glTransitionPath).toBeNull();
    expect(loadConfig({ RENDERER_SECRET: "s", GL_TRANSITION_PATH: "/opt/gl" }).glTransitionPath).toBe(
      "/opt/gl",
    );
    expect(() => loadConfig({ RENDERER_SECRET: "s", GL_TRANSITIONS: "gpu" })).toThrow(
      /GL_TRANSITIONS must be one of native, page/,
    );
  });

  it("names invalid capture settings", () => {
    expect(() => loadConfig({ RENDERER_SECRET: "s", HTML_CAPTURE: "video" })).toThrow(
      /HTML_CAPTURE must be one of beginframe, screenshot/,
    );
    expect(() => loadConfig({ RENDERER_SECRET: "s", HTML_CAPTURE_WORKERS: "0" })).toThrow(
      /HTML_CAPTURE_WORKERS must be at least 1/,
    );
    expect(() => loadConfig({ RENDERER_SECRET: "s", HTML_CAPTURE_WORKERS: "9" })).toThrow(
      /HTML_CAPTURE_WORKERS must be at most 8/,
    );
  });

  it("refuses to start without RENDERER_SECRET", () => {
    expect(() => loadConfig({})).toThrow(/RENDERER_SECRET is required/);
    expect(() => loadConfig({ RENDERER_SECRET: "" })).toThrow(/RENDERER_SECRET is required/);
  });

  it("names every invalid number", () => {
    expect(() => loadConfig({ RENDERER_SECRET: "s", PORT: "80a", PROBE_MAX_BYTES: "-1" })).toThrow(
      /PORT must be a non-negative integer.*PROBE_MAX_BYTES must be a non-negative integer/,
    );
    expect(() => loadConfig({ RENDERER_SECRET: "s", PORT: "70000" })).toThrow(/PORT must be at most 65535/);
  });
});

describe("render admission defaults", () => {
  it("holds two waiting jobs per slot and lets one account hold a slot's worth plus one", () => {
    expect(loadConfig({ RENDERER_SECRET: "s", RENDER_SLOTS: "2" })).toMatchObject({
      renderSlots: 2,
      renderQueueMax: 4,
      renderQueuePerAccount: 3,
    });
    expect(
      loadConfig({
        RENDERER_SECRET: "s",
        RENDER_SLOTS: "1",
        RENDER_QUEUE_MAX: "0",
        RENDER_QUEUE_PER_ACCOUNT: "",
      }),
    ).toMatchObject({ renderQueueMax: 0, renderQueuePerAccount: 1 });
    expect(() => loadConfig({ RENDERER_SECRET: "s", RENDER_SLOTS: "0" })).toThrow(
      /RENDER_SLOTS must be at least 1/,
    );
  });

  it("gives each slot an equal share of three quarters of the memory, unless RENDER_JOB_MEMORY_MB says", () => {
    const one = loadConfig({ RENDERER_SECRET: "s", RENDER_SLOTS: "1" }).renderJobMemoryMb;
    const two = loadConfig({ RENDERER_SECRET: "s", RENDER_SLOTS: "2" }).renderJobMemoryMb;
    expect(one).toBeLessThanOrEqual(Math.floor((0.75 * totalmem()) / 2 ** 20));
    expect(one).toBeGreaterThan(0);
    expect(Math.abs(two - one / 2)).toBeLessThanOrEqual(1);
    expect(loadConfig({ RENDERER_SECRET: "s", RENDER_JOB_MEMORY_MB: "512" }).renderJobMemoryMb).toBe(512);
    expect(() => loadConfig({ RENDERER_SECRET: "s", RENDER_JOB_MEMORY_MB: "8" })).toThrow(
      /RENDER_JOB_MEMORY_MB must be at least 16/,
    );
  });
});
