/**
 * `audio` layers (audio-layer.ts): a clip's sound, only when the job keeps source audio, cut and (with an explicit
 * cutTo) stretched to the layer; and `detached-audio`, which becomes a track of the whole video.
 */
import { describe, expect, it } from "vitest";
import { detachedTrack } from "../../../../src/video/layers/audio-layer.ts";
import type { LayerOf } from "../../../../src/video/types.ts";
import { audioFile, compileOne } from "../../../helpers/graph-spec.ts";

const MEDIA = { "/in/song.mp3": { ...audioFile(10), demuxer: "mp3" }, "/in/mute.wav": audioFile(10, false) };
const KEEP = { config: { keepSourceAudio: true } };
const audio = (extra: Record<string, unknown> = {}, options: Parameters<typeof compileOne>[1] = KEEP) =>
  compileOne({ type: "audio", path: "/in/song.mp3", ...extra }, { media: MEDIA, ...options });

describe("audio", () => {
  it("reads the layer's length of the file from cutFrom and hands the clip its sound at the layer's start", () => {
    const { ctx, out } = audio({ mixVolume: 0.5 });
    expect(out).toBeNull();
    expect(ctx.inputs).toEqual([
      ["-ss", "0", "-t", "1", "-f", "mp3", "-protocol_whitelist", "file", "-i", "/in/song.mp3"],
    ]);
    expect(ctx.filters).toEqual(["[0:a]asetpts=PTS-STARTPTS,volume=0.5[al0]"]);
    expect(ctx.clipAudio).toEqual([{ label: "al0", offset: 0, duration: 1 }]);
  });

  it("stretches an explicit cut to the layer with atempo", () => {
    // 2 s of file over the layer from 0.5 s (frame 13: 0.52 s) to the clip's end at 2 s: 1.48 s, 1.351351x.
    const { ctx } = audio({ cutFrom: 2, cutTo: 4, start: 0.5 }, { ...KEEP, duration: 2 });
    expect(ctx.inputs[0]!.slice(0, 4)).toEqual(["-ss", "2", "-t", "2"]);
    expect(ctx.filters).toEqual(["[0:a]asetpts=PTS-STARTPTS,atempo=1.351351,volume=1[al0]"]);
    expect(ctx.clipAudio).toEqual([{ label: "al0", offset: 0.52, duration: 1.48 }]);
  });

  it("cuts a file of unknown length (no duration in its header) where asked (before: nothing was heard)", () => {
    const media = { "/in/recorded.webm": { ...audioFile(0), demuxer: "matroska" } };
    const { ctx } = compileOne({ type: "audio", path: "/in/recorded.webm", cutFrom: 2 }, { ...KEEP, media });
    expect(ctx.inputs[0]!.slice(0, 4)).toEqual(["-ss", "2", "-t", "1"]);
    expect(ctx.clipAudio).toHaveLength(1);
  });

  it("adds nothing without keepSourceAudio, for a file without sound, past atempo's range, or in a window", () => {
    const nothing = (c: ReturnType<typeof compileOne>) => [
      c.out,
      c.ctx.inputs,
      c.ctx.filters,
      c.ctx.clipAudio,
    ];
    const empty = [null, [], [], []];
    expect(nothing(audio({}, {}))).toEqual(empty);
    expect(nothing(audio({ path: "/in/mute.wav" }))).toEqual(empty);
    // 10 s of file over one frame (the layer stops at 0.04 s): 250x.
    expect(nothing(audio({ cutFrom: 0, cutTo: 10, stop: 0.04 }))).toEqual(empty);
    // A window's graph has no sound at all (window-mix.ts cuts the whole mix instead).
    expect(nothing(audio({}, { ...KEEP, range: { from: 5, to: 10 } }))).toEqual(empty);
  });
});

describe("detachedTrack", () => {
  it("places a detached-audio layer on the whole video's timeline at its clip's start plus its own", () => {
    const layer = { type: "detached-audio", path: "/in/song.mp3", start: 0.5, cutFrom: 1, mixVolume: 0.3 };
    expect(detachedTrack(layer as LayerOf<"detached-audio">, 4)).toEqual({
      path: "/in/song.mp3",
      mixVolume: 0.3,
      start: 4.5,
      cutFrom: 1,
      cutTo: null,
    });
    expect(
      detachedTrack({ type: "detached-audio", path: "/in/a.mp3" } as LayerOf<"detached-audio">, 0),
    ).toEqual({
      path: "/in/a.mp3",
      mixVolume: 1,
      start: 0,
      cutFrom: 0,
      cutTo: null,
    });
  });
});
