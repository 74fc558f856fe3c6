/**
 * The animated PNG reader (header-facts.ts): ffprobe gives an APNG no length, so without it a render takes one for a
 * still. Its length is the sum of its frames' delays as ffmpeg's APNG demuxer times them (checked against the frame
 * times ffprobe reports for the same file).
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../../../src/lib/process.ts";
import { apngDelay, probeApng } from "../../../src/probe/header-facts.ts";
import { encodeApng } from "../../../src/video/apng.ts";

let dir: string;
const frame = (delayMs: number, alpha = 255) => ({ rgba: new Uint8Array(4 * 4 * 4).fill(alpha), delayMs });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "header-facts-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("apngDelay", () => {
  it("reads num/den, a zero den as hundredths and a zero num as ffmpeg's default 1/15 s", () => {
    expect(apngDelay(200, 1000)).toBe(0.2);
    expect(apngDelay(7, 0)).toBe(0.07);
    expect(apngDelay(0, 1000)).toBe(1 / 15);
  });
});

describe("probeApng", () => {
  it("sums the frames' delays into the file's length, as ffmpeg times them", async () => {
    const path = join(dir, "a.png");
    await writeFile(path, encodeApng(4, 4, [frame(200), frame(0), frame(50, 128)]));
    const facts = await probeApng(path);
    expect(facts).toMatchObject({ width: 4, height: 4, hasVideo: true, hasAlpha: true, demuxer: "apng" });
    expect(facts!.duration).toBeCloseTo(0.2 + 1 / 15 + 0.05, 9);
    const { stdout } = await run("ffprobe", [
      ...["-v", "error", "-select_streams", "v", "-show_entries", "frame=pts_time", "-of", "csv=p=0", path],
    ]);
    expect(stdout.toString().trim().split("\n").map(Number)).toEqual([0, 0.2, expect.closeTo(0.26667, 4)]);
  });

  it("is null for a one-frame APNG, a plain PNG and what is not a PNG", async () => {
    const one = join(dir, "one.png");
    await writeFile(one, encodeApng(4, 4, [frame(100)]));
    const text = join(dir, "t.png");
    await writeFile(text, "not a picture at all, just some text here");
    expect(await probeApng(one)).toBeNull();
    expect(await probeApng(text)).toBeNull();
  });
});
