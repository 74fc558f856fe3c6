/**
 * The validation of an incoming file, shared by upload, URL import and POST /files/validate: the type comes
 * from the content (magic bytes), and the name and the declared category only have to agree with it.
 */
import { FILE_CATEGORIES, type FileCategory } from "../db/schema.ts";
import { nameAgrees, type Sniffed } from "./sniff.ts";

export interface ValidationResult {
  errors: string[];
  isValid: boolean;
  fileSize: number;
  detectedMimeType: string;
}

export const validationOf = (input: {
  name: string;
  size: number;
  kind: Sniffed | null;
  declaredCategory?: string;
  /** Category the caller needs (URL imports for a job's video layer, say). */
  expected?: FileCategory;
  maxBytes: number;
}): ValidationResult => {
  const { name, size, kind, declaredCategory, expected, maxBytes } = input;
  const errors: string[] = [];
  if (size === 0) errors.push("File is empty");
  if (size > maxBytes) errors.push(`File is larger than ${maxBytes} bytes`);
  if (size > 0 && !kind) errors.push("Unsupported or unrecognised file content");
  if (kind && !nameAgrees(name, kind))
    errors.push(`File name "${name}" does not match its content (${kind.mimeType})`);
  if (declaredCategory && !(FILE_CATEGORIES as readonly string[]).includes(declaredCategory)) {
    errors.push(`Unknown category "${declaredCategory}" (use image, video, audio, font, shader or captions)`);
  } else if (kind && declaredCategory && declaredCategory !== kind.category) {
    errors.push(`Category "${declaredCategory}" does not match the file content (${kind.category})`);
  }
  if (kind && expected && expected !== kind.category)
    errors.push(`Expected ${expected === "image" ? "an" : "a"} ${expected} file, got ${kind.mimeType}`);
  return {
    errors,
    isValid: errors.length === 0,
    fileSize: size,
    detectedMimeType: kind?.mimeType ?? "application/octet-stream",
  };
};
