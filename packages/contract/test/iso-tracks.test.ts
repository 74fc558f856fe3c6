/**
 * ISO-BMFF files are classified by their tracks, not their brand: real files written by ffmpeg (which
 * uses the generic `isom` brand for audio-only MP4 and puts `moov` after the media unless asked not to).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isoKind, isoTracksIn, MoovTap, moovTracks } from "../src/media/iso-tracks.ts";

const dir = mkdtempSync(join(tmpdir(), "iso-"));
const files: Record<string, Uint8Array> = {};
const make = (name: string, args: string[]) => {
  const out = join(dir, name);
  execFileSync("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", ...args, out]);
  files[name] = new Uint8Array(readFileSync(out));
};
const tone = ["-f", "lavfi", "-i", "sine=d=2", "-c:a", "aac"];
const picture = ["-f", "lavfi", "-i", "testsrc2=s=64x64:d=2", "-c:v", "libx264", "-pix_fmt", "yuv420p"];

beforeAll(() => {
  make("isom.m4a", [...tone, "-f", "mp4"]); // brand isom, moov at the end
  make("faststart.m4a", [...tone, "-movflags", "+faststart", "-f", "mp4"]);
  make("ipod.m4a", [...tone, "-f", "ipod"]); // brand M4A
  make("audio.mov", tone); // brand qt, sound only
  make("audio.3gp", [...tone, "-ar", "16000"]); // brand 3gp4, sound only
  make("video.mp4", [...picture, "-f", "mp4"]);
  make("video.mov", picture);
  make("video-audio.mp4", [
    ...["-f", "lavfi", "-i", "testsrc2=s=64x64:d=2", "-f", "lavfi", "-i", "sine=d=2"],
    ...["-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", "-f", "mp4"],
  ]);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What ingest does: sniff the first 64 KiB, follow the boxes of the whole stream, reclassify by tracks. */
const classify = (bytes: Uint8Array, chunk = 4096) => {
  const tap = new MoovTap();
  for (let at = 0; at < bytes.length; at += chunk) tap.push(bytes.subarray(at, at + chunk), at);
  const moov = tap.moov();
  const head = bytes.subarray(0, 64 * 1024);
  return isoKind(head, moov ? moovTracks(moov) : isoTracksIn(head));
};

describe("ISO-BMFF classification", () => {
  it.each([
    ["isom.m4a", "m4a"],
    ["faststart.m4a", "m4a"],
    ["ipod.m4a", "m4a"],
    ["audio.mov", "m4a"],
    ["audio.3gp", "m4a"],
    ["video.mp4", "mp4"],
    ["video.mov", "mov"],
    ["video-audio.mp4", "mp4"],
  ])("%s is %s whatever the chunk sizes of any size", (name, mime) => {
    for (const chunk of [1, 7, 4096, 1 << 20]) expect(classify(files[name]!, chunk)).toBe(mime);
  });

  it("an ffmpeg .m4a carries the generic isom brand, its head alone says mp4, its tracks say m4a", () => {
    const bytes = files["isom.m4a"]!;
    expect(new TextDecoder().decode(bytes.subarray(8, 12))).toBe("isom");
    expect(isoKind(bytes.subarray(0, 64), null)).toBe("mp4");
    expect(classify(bytes)).toBe("m4a");
  });

  it("a fast-start file is classified from its head alone", () => {
    expect(isoTracksIn(files["faststart.m4a"]!.subarray(0, 64 * 1024))).toEqual({
      video: false,
      audio: true,
    });
  });

  it("moovTracks sees both tracks of a video with sound", () => {
    const tap = new MoovTap();
    tap.push(files["video-audio.mp4"]!, 0);
    expect(moovTracks(tap.moov()!)).toEqual({ video: true, audio: true });
  });
});
