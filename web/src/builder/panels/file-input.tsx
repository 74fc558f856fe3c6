/**
 * A file reference (`path`, `fontPath`, an audio track): picked from the account's uploads of the right kind, or
 * uploaded on the spot (then picked). A value that is not one of the uploads (a URL, another path) is kept and
 * shown as it is; the JSON view edits it like any other value.
 */
import { useState } from "preact/hooks";
import { explain } from "../../shared/api.ts";
import { categoryOf, type Files } from "../model/files.ts";
import type { FileCategory } from "../schema/fields.ts";
import type { ControlProps } from "./controls.tsx";

const ACCEPT: Record<FileCategory, string> = {
  image: "image/png,image/jpeg,image/gif,image/webp",
  video: "video/mp4,video/webm,video/quicktime,.mov,.mp4,.webm",
  audio: "audio/mpeg,audio/wav,audio/x-wav,audio/mp4,audio/aac,.mp3,.wav,.m4a,.aac",
  font: ".ttf,.otf,.woff,.woff2",
};

export const FileInput = ({
  ids,
  value,
  onChange,
  categories,
  files,
  label,
}: ControlProps<string> & { categories: FileCategory[]; files: Files; label: string }) => {
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<unknown>(null);
  const choices = files.list.filter((f) => categories.includes(categoryOf(f) as FileCategory));
  const current = typeof value === "string" ? value : "";
  const uploadId = `${ids.id}-upload`;
  return (
    <div class="file-input">
      <select
        {...ids}
        value={current}
        onFocus={files.refresh}
        onChange={(e) => onChange(e.currentTarget.value === "" ? undefined : e.currentTarget.value)}
      >
        <option value="">{files.loading ? "loading your files…" : "none"}</option>
        {current && !choices.some((f) => f.storageUrl === current) && (
          <option value={current}>{current}</option>
        )}
        {choices.map((file) => (
          <option key={file.id} value={file.storageUrl}>
            {file.originalName}
            {file.width && file.height ? ` (${file.width}x${file.height})` : ""}
          </option>
        ))}
      </select>
      <input
        id={uploadId}
        class="visually-hidden"
        type="file"
        accept={categories.map((c) => ACCEPT[c]).join(",")}
        onChange={async (e) => {
          const file = e.currentTarget.files?.[0];
          e.currentTarget.value = "";
          if (!file) return;
          setError(null);
          setProgress(0);
          try {
            const stored = await files.add(file, setProgress);
            onChange(stored.storageUrl);
          } catch (problem) {
            setError(problem);
          } finally {
            setProgress(null);
          }
        }}
      />
      <label for={uploadId} class="button secondary small">
        Upload a file for {label}
      </label>
      {progress !== null && (
        <progress max={1} value={progress} aria-label={`Uploading the file for ${label}`} />
      )}
      {error ? (
        <p class="field-error" role="alert">
          Upload failed: {explain(error)}
        </p>
      ) : null}
    </div>
  );
};
