/**
 * The edit the frame-addressable benchmarks render (windows.ts in the renderer's process, playhead.ts through the
 * API): an edit like a user's, `seconds` long at 25 fps. Bookends, then three kinds of clip repeated: 4 s each, 0.5 s
 * fades, the video cut at a different place each time round. The first and the last clip are the same (a Ken Burns
 * photo with a title, 6 % of the length and at least 8 s), so a part at the start and the same part at the end draw
 * the same content: a still at 2 % and at 95 %, a 5 s preview at each end.
 */
export interface EditOptions {
  seconds: number;
  width: number;
  height: number;
  fps: number;
  /** Where the renderer reads the photo (img2.jpg, 4000x3000) and the video (kohlipe3.mp4, HEVC). */
  photo: string;
  video: string;
  /** A font file for the titles; the default family without one. */
  font?: string;
  /** Each middle clip's length (default 4 s; the API takes at most 100 clips, so a 10-minute edit needs 7). */
  clipSeconds?: number;
}

/** The edit's config as a user would post it (not yet parsed). */
export const editConfig = ({
  seconds,
  width,
  height,
  fps,
  photo,
  video,
  font,
  clipSeconds = 4,
}: EditOptions) => {
  const bookend = Math.max(8, Math.ceil(seconds * 0.06));
  const ends = {
    duration: bookend,
    layers: [
      { type: "image", path: photo, zoomDirection: "in" },
      { type: "title", text: "Bookend", position: "bottom" },
    ],
  };
  // Two bookends and n clips of c seconds with 0.5 s fades between all of them last 2 x bookend + c n - 0.5 (n + 1).
  const count = Math.max(1, Math.round((seconds - 2 * bookend + 0.5) / (clipSeconds - 0.5)));
  const clips = Array.from({ length: count }, (_, i) => {
    const kind = i % 3;
    if (kind === 0)
      return {
        duration: clipSeconds,
        layers: [
          { type: "fill-color", color: ["#1d3557", "#2a9d8f", "#6d597a"][((i / 3) % 3) | 0] },
          { type: "title", text: `Chapter ${i / 3 + 1}` },
        ],
      };
    if (kind === 1)
      return {
        duration: clipSeconds,
        layers: [
          { type: "image", path: photo, zoomDirection: i % 2 ? "in" : "out" },
          { type: "title", text: `Photo ${i}`, position: "bottom" },
        ],
      };
    const from = (i * 7) % 28;
    return {
      duration: clipSeconds,
      layers: [{ type: "video", path: video, cutFrom: from, cutTo: from + clipSeconds }],
    };
  });
  return {
    width,
    height,
    fps,
    defaults: {
      transition: { name: "fade", duration: 0.5 },
      ...(font ? { layer: { fontPath: font } } : {}),
    },
    clips: [ends, ...clips, ends],
  };
};
