/**
 * Fonts of the hosted catalogue in a video job: the request's `fonts` (packages/contract/src/wire.ts HostedFonts:
 * each `googleFont` value the bundle lacks, with its woff2 faces among the request's `inputs`), kept in the spec as
 * `JobFonts`. Only the faces whose unicode-range reaches the job's text are downloaded (a CJK family has ~120); a job
 * with captions, whose words are known only once spoken, takes every face. The text page then loads them as it
 * loads the bundled families' (files.ts fontFaceFiles).
 */
import type { HostedFonts } from "@media-render/contract/wire";

/** A hosted font as the spec holds it: its weight and its faces, files named by reference, then by local path. */
export interface JobFont {
  weight: number;
  faces: { path: string; unicodeRange?: string }[];
}

/** The job's hosted fonts by `googleFont` value. */
export type JobFonts = Readonly<Record<string, JobFont>>;

/** `U+0000-00FF, U+0131, U+4??` as inclusive [from, to] code point intervals (the contract checked the form). */
export const unicodeRanges = (range: string): [number, number][] =>
  range.split(",").map((part) => {
    const [from, to] = part.trim().slice(2).split("-") as [string, string | undefined];
    if (from.includes("?"))
      return [parseInt(from.replace(/\?/g, "0"), 16), parseInt(from.replace(/\?/g, "F"), 16)];
    return [parseInt(from, 16), parseInt(to ?? from, 16)];
  });

/** Whether a face of `range` (absent: every character) draws any character of `text`. */
export const faceReaches = (range: string | undefined, text: string): boolean => {
  if (range === undefined) return true;
  const spans = unicodeRanges(range);
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (spans.some(([from, to]) => cp >= from && cp <= to)) return true;
  }
  return false;
};

/**
 * The request's fonts as the spec's, with only the faces that reach `text` (null: every face, for captions). A font
 * keeps at least one face, so the page still names it.
 */
export const jobFonts = (fonts: HostedFonts | undefined, text: string | null): JobFonts =>
  Object.fromEntries(
    Object.entries(fonts ?? {}).map(([value, font]) => {
      const all = font.faces.map((face) => ({
        path: face.ref,
        ...(face.unicodeRange === undefined ? {} : { unicodeRange: face.unicodeRange }),
      }));
      const reached = text === null ? all : all.filter((f) => faceReaches(f.unicodeRange, text));
      return [value, { weight: font.weight, faces: reached.length ? reached : all.slice(0, 1) }];
    }),
  );
