/**
 * How the console's job page and the builder's render panel show an output (web/src/shared/output-view.ts): a picture
 * in an `<img>`, a video or a sound in a player, by the format's kind. The builder showed a video job's still (a PNG)
 * and GIF in a `<video>` that could play neither, because it went by the job's type.
 */
import { describe, expect, it } from "vitest";
import { OUTPUT_FORMAT_NAMES, OUTPUT_FORMATS } from "@media-render/contract/output-formats";
import { showsAsPicture } from "../../../src/shared/output-view.ts";

describe("showsAsPicture", () => {
  it("shows an image job's output as a picture", () => {
    for (const outputFormat of ["png", "jpeg", "webp"])
      expect(showsAsPicture({ type: "IMAGE", outputFormat })).toBe(true);
  });

  it("shows a video job's still and GIF as pictures, its video and audio in a player", () => {
    expect(showsAsPicture({ type: "VIDEO", outputFormat: "png" })).toBe(true);
    expect(showsAsPicture({ type: "VIDEO", outputFormat: "jpeg" })).toBe(true);
    expect(showsAsPicture({ type: "VIDEO", outputFormat: "gif" })).toBe(true);
    for (const outputFormat of ["mp4", "mov", "webm", "mp3", "wav", "m4a"])
      expect(showsAsPicture({ type: "VIDEO", outputFormat })).toBe(false);
  });

  it("goes by the table's kind for every format", () => {
    for (const f of OUTPUT_FORMAT_NAMES) {
      const kind: string = OUTPUT_FORMATS[f].kind;
      expect(showsAsPicture({ type: "VIDEO", outputFormat: f })).toBe(
        kind === "image" || kind === "animated image",
      );
    }
  });
});
