import { describe, expect, it } from "vitest";
import { clipAudioStream, finishAudio, normMaxGain, oddGauss } from "../../../src/video/audio-graph.ts";
import { audioFile, colourClip, contextOf, specOf } from "../../helpers/graph-spec.ts";

const NORMALISE = "aresample=48000,aformat=sample_fmts=fltp:channel_layouts=stereo";

describe("clipAudioStream", () => {
  it("is null for a silent clip, and adds nothing to the graph", () => {
    const ctx = contextOf(specOf({ clips: [colourClip(2)] }));
    expect(clipAudioStream(ctx, 0, [])).toBeNull();
    expect(ctx.filters).toEqual([]);
  });

  it("places one layer's audio at its offset, cut to its window, then pads the clip to its exact length", () => {
    const ctx = contextOf(specOf({ clips: [colourClip(2)] }));
    expect(clipAudioStream(ctx, 0, [{ label: "la", offset: 0.5, duration: 1 }])).toBe("clipa1");
    expect(ctx.filters).toEqual([
      `[la]${NORMALISE},apad,atrim=0:1,adelay=500:all=1[cap0]`,
      "[cap0]apad,atrim=0:2,adelay=0:all=1[clipa1]",
    ]);
  });

  it("mixes several layers' audio as gains (amix without normalising)", () => {
    const ctx = contextOf(specOf({ clips: [colourClip(2)] }));
    clipAudioStream(ctx, 0, [
      { label: "la", offset: 0, duration: 2 },
      { label: "lb", offset: 1.25, duration: 0.75 },
    ]);
    expect(ctx.filters).toEqual([
      `[la]${NORMALISE},apad,atrim=0:2,adelay=0:all=1[cap0]`,
      `[lb]${NORMALISE},apad,atrim=0:0.75,adelay=1250:all=1[cap1]`,
      "[cap0][cap1]amix=inputs=2:duration=longest:normalize=0[cmix2]",
      "[cmix2]apad,atrim=0:2,adelay=0:all=1[clipa3]",
    ]);
  });

  it("fades out over the transition after a clip and in over the one before, with their curves, B placed at its start", () => {
    const spec = specOf({
      clips: [
        colourClip(2, { name: "fade", duration: 0.4, audioOutCurve: "qsin", audioInCurve: "esin" }),
        colourClip(2),
      ],
    });
    const part = [{ label: "la", offset: 0, duration: 2 }];
    const first = contextOf(spec);
    clipAudioStream(first, 0, part);
    expect(first.filters[1]).toBe(
      "[cap0]apad,atrim=0:2,afade=t=out:st=1.6:d=0.4:curve=qsin,adelay=0:all=1[clipa1]",
    );
    const second = contextOf(spec);
    clipAudioStream(second, 1, part);
    expect(second.filters[1]).toBe(
      "[cap0]apad,atrim=0:2,afade=t=in:st=0:d=0.4:curve=esin,adelay=1600:all=1[clipa1]",
    );
  });
});

describe("finishAudio", () => {
  it("makes silence of the video's exact length, in whole frames, when nothing sounds", () => {
    // 2 s + 1.5 s at 25 fps: 50 + 37.5 frames, the second clip rounded to 38: 88 frames, 3.52 s.
    const ctx = contextOf(specOf({ clips: [colourClip(2), colourClip(1.5)] }));
    finishAudio(ctx, [], []);
    expect(ctx.filters).toEqual(["anullsrc=r=48000:cl=stereo,atrim=0:3.52[aout]"]);
    expect(ctx.inputs).toEqual([]);
  });

  it("scales the clips' mix by clipsAudioVolume and ends with the output volume and the exact length", () => {
    const ctx = contextOf(specOf({ clips: [colourClip(2)], clipsAudioVolume: 0.5, outputVolume: 0.8 }));
    finishAudio(ctx, ["c0", "c1"], []);
    expect(ctx.filters).toEqual([
      "[c0][c1]amix=inputs=2:duration=longest:normalize=0[allc1]",
      "[allc1]volume=0.5[clips0]",
      `[clips0]${NORMALISE},volume=0.8,apad,atrim=0:2,asetpts=PTS-STARTPTS[aout]`,
    ]);
  });

  it("cuts an audio track to cutFrom..its end, places it at its start, and skips tracks without sound or length", () => {
    const spec = specOf({
      clips: [colourClip(4)],
      audioTracks: [
        { path: "/m/voice.mp3", cutFrom: 0.5, start: 1, mixVolume: 0.5 },
        { path: "/m/silent.mp4" },
        { path: "/m/short.mp3", cutFrom: 3 },
      ],
    });
    const media = new Map([
      ["/m/voice.mp3", audioFile(3)],
      ["/m/silent.mp4", audioFile(3, false)],
      ["/m/short.mp3", audioFile(2)],
    ]);
    const ctx = contextOf(spec, media);
    finishAudio(ctx, [], spec.audioTracks);
    expect(ctx.inputs).toEqual([
      ["-ss", "0.5", "-t", "2.5", "-f", "wav", "-protocol_whitelist", "file", "-i", "/m/voice.mp3"],
    ]);
    expect(ctx.filters).toEqual([
      `[0:a]asetpts=PTS-STARTPTS,${NORMALISE},volume=0.5,adelay=1000:all=1[trk0]`,
      `[trk0]${NORMALISE},volume=1,apad,atrim=0:4,asetpts=PTS-STARTPTS[aout]`,
    ]);
  });

  it("plays a track of unknown length (no duration: a webm written to a stream) from its cut to its cutTo or its end", () => {
    const spec = specOf({
      clips: [colourClip(4)],
      audioTracks: [
        { path: "/m/recorded.webm", cutFrom: 1 },
        { path: "/m/recorded.webm", cutTo: 2 },
      ],
    });
    const ctx = contextOf(spec, new Map([["/m/recorded.webm", audioFile(0)]]));
    finishAudio(ctx, [], spec.audioTracks);
    expect(ctx.inputs).toEqual([
      ["-ss", "1", "-f", "wav", "-protocol_whitelist", "file", "-i", "/m/recorded.webm"],
      ["-ss", "0", "-t", "2", "-f", "wav", "-protocol_whitelist", "file", "-i", "/m/recorded.webm"],
    ]);
  });

  it("loops the background track when asked, weighs it, and normalises with an odd gauss size and a gain of at least 1", () => {
    const spec = specOf({
      clips: [colourClip(3)],
      audioFilePath: "/m/bg.mp3",
      loopAudio: true,
      backgroundAudioVolume: 0.25,
      audioNorm: { enable: true, gaussSize: 4, maxGain: 0 },
    });
    const ctx = contextOf(spec, new Map([["/m/bg.mp3", audioFile(1)]]));
    finishAudio(ctx, ["c0"], []);
    expect(ctx.inputs).toEqual([
      ["-stream_loop", "-1", "-f", "wav", "-protocol_whitelist", "file", "-i", "/m/bg.mp3"],
    ]);
    expect(ctx.filters).toEqual([
      "[c0]volume=1[clips0]",
      `[0:a]${NORMALISE},volume=0.25[bg1]`,
      "[clips0][bg1]amix=inputs=2:duration=longest:normalize=0[mixall2]",
      `[mixall2]${NORMALISE},dynaudnorm=g=5:m=1,volume=1,apad,atrim=0:3,asetpts=PTS-STARTPTS[aout]`,
    ]);
  });

  it("ignores a background file without sound", () => {
    const spec = specOf({ clips: [colourClip(1)], audioFilePath: "/m/picture.mp4" });
    const ctx = contextOf(spec, new Map([["/m/picture.mp4", audioFile(5, false)]]));
    finishAudio(ctx, [], []);
    expect(ctx.filters).toEqual(["anullsrc=r=48000:cl=stereo,atrim=0:1[aout]"]);
    expect(ctx.inputs).toEqual([]);
  });
});

describe("dynaudnorm parameters", () => {
  it("makes the gauss size odd and at least 3", () => {
    expect([oddGauss(1), oddGauss(3), oddGauss(4), oddGauss(5), oddGauss(300)]).toEqual([3, 3, 5, 5, 301]);
  });

  it("raises a max gain below 1 to 1 and keeps the others", () => {
    expect([normMaxGain(0), normMaxGain(0.5), normMaxGain(1), normMaxGain(100)]).toEqual([1, 1, 1, 100]);
  });
});
