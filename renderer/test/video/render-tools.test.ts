/**
 * Renders launch the binaries of their `tools` (the server passes its Config), never a name of their own:
 * a render given missing binaries fails naming them, which is what makes /health's versions the real ones.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_RENDER_TOOLS } from "../../src/settings.ts";
import { closeBrowser } from "../../src/video/raster/browser.ts";
import { renderVideo } from "../../src/video/render.ts";
import { videoConfig } from "../helpers/video-config.ts";
import { FIXTURES } from "./media-helpers.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "video-tools-"));
});
afterAll(async () => {
  await closeBrowser();
  await rm(dir, { recursive: true, force: true });
});

const render = (config: Record<string, unknown>, tools: Partial<typeof DEFAULT_RENDER_TOOLS>) =>
  renderVideo({
    jobId: "job_tools",
    config: videoConfig(config),
    workDir: dir,
    outPath: join(dir, "out.mp4"),
    allowLocalFiles: true,
    tools: { ...DEFAULT_RENDER_TOOLS, ...tools },
  });

const colour = { width: 64, height: 36, fps: 5, clips: [{ duration: 0.4, layers: [{ type: "pause" }] }] };

describe("render tools", () => {
  it("runs the configured ffmpeg", async () => {
    await expect(render(colour, { ffmpegPath: "/nonexistent/ffmpeg" })).rejects.toThrow(
      /\/nonexistent\/ffmpeg could not start/,
    );
  });

  it("probes with the configured ffprobe", async () => {
    const audio = { ...colour, audioFilePath: `${FIXTURES}/winxp.mp3` };
    await expect(render(audio, { ffprobePath: "/nonexistent/ffprobe" })).rejects.toThrow(
      /\/nonexistent\/ffprobe could not start/,
    );
  });

  it("draws text in the configured Chromium", async () => {
    const title = {
      ...colour,
      clips: [{ duration: 0.4, layers: [{ type: "title", text: "x" }] }],
    };
    await expect(render(title, { chromiumPath: "/nonexistent/chromium" })).rejects.toThrow(
      /\/nonexistent\/chromium/,
    );
  });
});
