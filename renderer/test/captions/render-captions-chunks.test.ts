/**
 * autoSubtitles in a split job (captions/parts.ts, docs/parallel-rendering.md): a captioned video rendered whole, and
 * as 2 and as 3 chunks joined, with the real offline recogniser. Each chunk transcribes only the parts of the mix its
 * frames reach and stores the words of the parts it owns; the join merges them. The joined video has the single
 * render's words, cues and caption files, and the same burned captions on both sides of every chunk boundary.
 *
 * 65 s of 320x180 at 10 fps: the fixture sentence said four times, mostly silence between (the recogniser skips
 * silence quickly). Two of them are said back to back across 30 s, the grid point the mix is cut near (its quietest
 * moment within 28-32 s), and a sentence is being said at each chunk boundary (32.5 s; 21.6 and 43.3 s).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTimeline } from "@media-render/contract/timeline";
import { chunkWindow } from "@media-render/contract/windows";
import { run } from "../../src/lib/process.ts";
import { toSrt, toTranscriptJson, toWebVtt } from "../../src/video/captions/caption-files.ts";
import { WordsFile, wordsFileText } from "../../src/video/captions/words-file.ts";
import { closeBrowser } from "../../src/video/raster/browser.ts";
import { renderVideo, type RenderVideoResult } from "../../src/video/render.ts";
import * as v from "valibot";
import { videoConfig } from "../helpers/video-config.ts";
import { FIXTURES } from "../video/media-helpers.ts";
import { countNear, type Frame } from "./frame-pixels.ts";

const W = 320;
const H = 180;
const FPS = 10;
const SECONDS = 65;
const RED: [number, number, number] = [255, 0, 0];
let dir: string;

const config = videoConfig({
  width: W,
  height: H,
  fps: FPS,
  clips: [{ duration: SECONDS, layers: [{ type: "fill-color", color: "#0000ff" }] }],
  audioTracks: [20.5, 26.8, 31.5, 42.3].map((start) => ({ path: `${FIXTURES}/speech-en.wav`, start })),
  autoSubtitles: true,
  autoSubtitlesStyle: { textColor: "#ff0000", fontSize: 24 },
});

const render = async (name: string, extra: Record<string, unknown> = {}): Promise<RenderVideoResult> =>
  renderVideo({
    jobId: "job_captions_chunks",
    config,
    workDir: await mkdtemp(join(dir, "w-")),
    outPath: join(dir, name),
    allowLocalFiles: true,
    ...extra,
  });

/** The job rendered as `count` chunks at once and joined; each chunk's words file read back as the join reads it. */
const renderSplit = async (count: number) => {
  const chunks = await Promise.all(
    Array.from({ length: count }, (_, index) =>
      render(`split${count}-seg${index}.mp4`, { chunk: { index, count } }),
    ),
  );
  const words = chunks.map((c) => v.parse(WordsFile, JSON.parse(wordsFileText(c.words!))));
  const joined = await render(`split${count}.mp4`, {
    joinSegments: chunks.map((c) => c.outPath),
    joinWords: words,
  });
  return { chunks, words, joined };
};

/** Frames `numbers` of `path`, RGB. */
const framesAt = async (path: string, numbers: number[]): Promise<Frame[]> => {
  const select = numbers.map((n) => `eq(n\\,${n})`).join("+");
  const { stdout } = await run("ffmpeg", [
    ...["-v", "error", "-threads", "1", "-i", path, "-vf", `select='${select}'`, "-fps_mode", "passthrough"],
    ...["-f", "rawvideo", "-pix_fmt", "rgb24", "-"],
  ]);
  const size = W * H * 3;
  return numbers.map((_, i) => ({ width: W, height: H, data: stdout.subarray(i * size, (i + 1) * size) }));
};

/** Mean absolute difference of two RGB frames, per channel value. */
const difference = (a: Frame, b: Frame): number => {
  let sum = 0;
  for (let i = 0; i < a.data.length; i++) sum += Math.abs(a.data[i]! - b.data[i]!);
  return sum / a.data.length;
};

let single: RenderVideoResult;
let split: Record<2 | 3, Awaited<ReturnType<typeof renderSplit>>>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "captions-chunks-"));
  single = await render("single.mp4");
  split = { 2: await renderSplit(2), 3: await renderSplit(3) };
}, 600_000);
afterAll(async () => {
  await closeBrowser();
  await rm(dir, { recursive: true, force: true });
});

describe("a captioned video rendered as chunks", () => {
  it("hears words in both parts of the mix, cut in a pause near 30 s", () => {
    const c = single.captions!;
    expect(c.backend).toBe("pocketsphinx");
    expect(c.words.length).toBeGreaterThan(15);
    expect(c.words.some((w) => w.start < 30) && c.words.some((w) => w.start > 30)).toBe(true);
  });

  for (const count of [2, 3] as const)
    it(`as ${count} chunks: the join has the single render's words, cues and caption files`, () => {
      const { joined } = split[count];
      expect(joined.captions).toEqual(single.captions);
      for (const file of [toWebVtt, toSrt, toTranscriptJson])
        expect(file(joined.captions!)).toBe(file(single.captions!));
    });

  it("each part's words are stored by exactly one chunk, and a chunk transcribes only the parts its frames reach", () => {
    for (const count of [2, 3] as const) {
      const owned = split[count].words.flatMap((w) => w.parts.map((p) => p.index));
      expect(owned.sort((x, y) => x - y)).toEqual([0, 1]);
      for (const w of split[count].words) expect(w.backend).toBe("pocketsphinx");
    }
    // Three chunks: the first draws 0-21.7 s, before the cut near 30 s: it heard only the first part's words.
    const first = split[3].chunks[0]!.captions!;
    expect(first.words.length).toBeGreaterThan(0);
    expect(Math.max(...first.words.map((w) => w.end))).toBeLessThan(32);
    expect(first.words).toEqual(single.captions!.words.filter((w) => w.end <= first.words.at(-1)!.end));
    // The last draws 43.3-65 s, after the cut: only the second part's.
    const last = split[3].chunks[2]!.captions!;
    expect(Math.min(...last.words.map((w) => w.start))).toBeGreaterThan(28);
  });

  for (const count of [2, 3] as const)
    it(`as ${count} chunks: the burned captions either side of every chunk boundary are the single render's`, async () => {
      const boundaries = Array.from(
        { length: count - 1 },
        (_, i) => chunkWindow(config, buildTimeline(config), { index: i + 1, count }).start,
      );
      const numbers = boundaries.flatMap((b) => [b - 2, b - 1, b, b + 1]);
      const [a, b] = await Promise.all([
        framesAt(single.outPath, numbers),
        framesAt(split[count].joined.outPath, numbers),
      ]);
      numbers.forEach((n, i) => {
        // A caption is on screen there (a sentence is being said), drawn in red on the blue frame.
        expect(countNear(a[i]!, RED), `caption at frame ${n}`).toBeGreaterThan(40);
        // Two encodes of the same pictures: within the encoder's noise.
        expect(difference(a[i]!, b[i]!), `frame ${n}`).toBeLessThan(3);
      });
    });
});
