/**
 * `/console/files`: uploads. Drop files (or pick them) to upload with a progress bar each; the list shows a
 * preview, size, dimensions or duration, the expiry, the `storageUrl` a config names the file by (copy button),
 * and delete. Uploads go to POST /api/v1/files/upload like any API client's.
 */
import { Fragment } from "preact";
import { useState } from "preact/hooks";
import { api, data, downloadUrl } from "../../shared/api.ts";
import type { MediaFile } from "../../shared/api-types.ts";
import { formatBytes, formatDate, formatSeconds, fromNow } from "../../shared/format.ts";
import { PageHeader } from "../../shared/layout.tsx";
import { Uploader } from "./file-uploader.tsx";
import {
  ConfirmButton,
  CopyButton,
  Notice,
  Pager,
  Show,
  TableWrap,
  useResource,
  useTitle,
} from "../../shared/ui.tsx";

const CATEGORIES = ["image", "video", "audio", "font"] as const;
type Category = (typeof CATEGORIES)[number];
const categoryOf = (file: MediaFile) => String(file.metadata.category ?? file.mimeType.split("/")[0]);

const Thumb = ({ file }: { file: MediaFile }) =>
  file.mimeType.startsWith("image/") ? (
    <img class="thumb" src={downloadUrl(file.id)} alt="" loading="lazy" />
  ) : (
    <span class="badge">{categoryOf(file)}</span>
  );

const Preview = ({ file }: { file: MediaFile }) => {
  const src = downloadUrl(file.id);
  if (file.mimeType.startsWith("image/"))
    return <img class="preview" src={src} alt={`Preview of ${file.originalName}`} />;
  if (file.mimeType.startsWith("video/"))
    return (
      <video
        class="preview"
        src={src}
        controls
        preload="metadata"
        aria-label={`Preview of ${file.originalName}`}
      />
    );
  if (file.mimeType.startsWith("audio/"))
    return <audio src={src} controls preload="metadata" aria-label={`Preview of ${file.originalName}`} />;
  return <p class="muted">No preview for {file.mimeType}; download it to look at it.</p>;
};

/** One file: its thumbnail, name and kind, size, storageUrl (with a copy button), expiry, and its actions. */
const FileRow = ({
  file,
  open,
  onToggle,
  onDeleted,
}: {
  file: MediaFile;
  /** Its preview is shown (a row below it). */
  open: boolean;
  onToggle: () => void;
  onDeleted: () => Promise<unknown>;
}) => (
  <Fragment>
    <tr>
      <td data-label="Preview">
        <Thumb file={file} />
      </td>
      <td data-label="Name" class="wrap">
        {file.originalName}
        <p class="hint">
          {file.mimeType}
          {file.width ? ` · ${file.width}×${file.height}` : ""}
          {file.duration ? ` · ${formatSeconds(file.duration)}` : ""}
        </p>
      </td>
      <td data-label="Size">{formatBytes(file.size)}</td>
      <td data-label="storageUrl" class="wrap">
        <code>{file.storageUrl}</code> <CopyButton text={file.storageUrl} label="Copy storageUrl" />
      </td>
      <td data-label="Expires" title={formatDate(file.expiresAt)}>
        {file.expiresAt ? fromNow(file.expiresAt) : "kept"}
      </td>
      <td data-label="Actions">
        <div class="row-actions">
          <button type="button" class="secondary small" aria-expanded={open} onClick={onToggle}>
            {open ? "Hide" : "Preview"}
          </button>
          <a class="button secondary small" href={downloadUrl(file.id)} download={file.originalName}>
            Download
          </a>
          <ConfirmButton
            question={`Delete ${file.originalName}?`}
            onConfirm={async () => {
              await data(
                api.DELETE("/api/v1/files/{fileId}", {
                  params: { path: { fileId: file.id } },
                }),
              );
              await onDeleted();
            }}
          >
            Delete
          </ConfirmButton>
        </div>
      </td>
    </tr>
    {open && (
      <tr>
        <td colSpan={6}>
          <Preview file={file} />
        </td>
      </tr>
    )}
  </Fragment>
);

export const Files = () => {
  useTitle("Files");
  const [page, setPage] = useState(1);
  const [category, setCategory] = useState<Category | "">("");
  const [open, setOpen] = useState<string | null>(null);
  const files = useResource(
    () =>
      data(
        api.GET("/api/v1/files", {
          params: {
            query: {
              page: String(page),
              per_page: "20",
              ...(category ? { category } : {}),
            },
          },
        }),
      ),
    [page, category],
  );
  return (
    <>
      <PageHeader title="Files" />
      <p>
        Name an uploaded file in a config by its <code>storageUrl</code> (an image layer's <code>path</code>,
        a font's <code>fontPath</code>...). Files are deleted when they expire.
      </p>
      <Uploader uploaded={() => void files.reload()} />
      <section aria-labelledby="files-h">
        <h2 id="files-h">Your files</h2>
        <div class="filters">
          <div class="field">
            <label for="category">Kind</label>
            <select
              id="category"
              value={category}
              onChange={(e) => {
                const value = e.currentTarget.value;
                setCategory(CATEGORIES.find((c) => c === value) ?? "");
                setPage(1);
              }}
            >
              <option value="">Any</option>
              {CATEGORIES.map((option) => (
                <option key={option} value={option}>
                  {option}
                </option>
              ))}
            </select>
          </div>
        </div>
        <Show resource={files} what="Loading files">
          {({ files: list, total, per_page }) =>
            list.length === 0 ? (
              <Notice kind="info">No files{category ? ` of kind ${category}` : ""}.</Notice>
            ) : (
              <>
                <TableWrap label="Files">
                  <table class="cards">
                    <thead>
                      <tr>
                        <th>
                          <span class="muted">Preview</span>
                        </th>
                        <th>Name</th>
                        <th>Size</th>
                        <th>storageUrl</th>
                        <th>Expires</th>
                        <th>
                          <span class="muted">Actions</span>
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {list.map((file) => (
                        <FileRow
                          key={file.id}
                          file={file}
                          open={open === file.id}
                          onToggle={() => setOpen(open === file.id ? null : file.id)}
                          onDeleted={() => files.reload()}
                        />
                      ))}
                    </tbody>
                  </table>
                </TableWrap>
                <Pager page={page} totalPages={Math.ceil(total / per_page)} onPage={setPage} />
              </>
            )
          }
        </Show>
      </section>
    </>
  );
};
