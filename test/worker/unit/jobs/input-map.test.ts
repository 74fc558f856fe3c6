import { describe, expect, it } from "vitest";
import { referenceTargets, rewriteReferences, withStoragePaths } from "../../../../src/jobs/input-map.ts";

const upload = { storageUrl: "/image/2026-01-01/u/a.png", sourceUrl: null, source: "upload" };
const imported = {
  storageUrl: "/image/2026-01-01/u/b.jpg",
  sourceUrl: "https://cdn.example.com/b.jpg",
  source: "url",
};
const font = {
  storageUrl: "/font/2026-01-01/u/f.ttf",
  sourceUrl: "https://fonts.example.com/f.ttf",
  source: "url",
};

describe("job input mapping", () => {
  it("maps storage paths and, for imports, their public URLs to the stored file", () => {
    const map = referenceTargets([upload, imported]);
    expect(map.get(upload.storageUrl)).toBe(upload);
    expect(map.get(imported.storageUrl)).toBe(imported);
    expect(map.get("https://cdn.example.com/b.jpg")).toBe(imported);
    expect(map.size).toBe(3);
  });

  it("replaces public URLs by their storage paths in reference slots only, keeping the original intact", () => {
    const config = {
      width: 10,
      height: 10,
      layers: [
        { type: "image", path: "https://cdn.example.com/b.jpg" },
        { type: "image", path: upload.storageUrl },
        // A text equal to the URL is text, not a reference.
        { type: "text", text: "https://cdn.example.com/b.jpg", fontPath: "https://fonts.example.com/f.ttf" },
      ],
    };
    const before = structuredClone(config);
    const out = withStoragePaths("IMAGE", config, [upload, imported, font]);
    expect(out.layers).toEqual([
      { type: "image", path: imported.storageUrl },
      { type: "image", path: upload.storageUrl },
      { type: "text", text: "https://cdn.example.com/b.jpg", fontPath: font.storageUrl },
    ]);
    expect(config).toEqual(before);
  });

  it("rewrites video references everywhere the grammar has them", () => {
    const config = {
      audioFilePath: "https://cdn.example.com/a.mp3",
      clips: [{ duration: 1, layers: [{ type: "video", path: "/video/x/v.mp4" }] }],
      audioTracks: [{ path: "/audio/x/t.mp3" }],
    };
    const out = rewriteReferences("video", config, (ref) => `signed:${ref}`);
    expect(out).toEqual({
      audioFilePath: "signed:https://cdn.example.com/a.mp3",
      clips: [{ duration: 1, layers: [{ type: "video", path: "signed:/video/x/v.mp4" }] }],
      audioTracks: [{ path: "signed:/audio/x/t.mp3" }],
    });
  });

  it("leaves unknown URLs alone (no stored file, no rewrite)", () => {
    const config = {
      width: 1,
      height: 1,
      layers: [{ type: "image", path: "https://other.example.com/z.png" }],
    };
    expect(withStoragePaths("image", config, [upload])).toEqual(config);
  });
});
