/**
 * `/console/files`: uploads. Drop files (or pick them) to upload with a progress bar each; the list shows a
 * preview, size, dimensions or duration, the expiry, the `storageUrl` a config names the file by (copy button),
 * and delete. Uploads go to POST /api/v1/files/upload like any API client's.
 */
import { Fragment } from "preact";
import { useRef, useState } from "preact/hooks";
import { api, ApiError, data, downloadUrl, explain, upload } from "../../shared/api.ts";
import type { MediaFile } from "../../shared/api-types.ts";
import { formatBytes, formatDate, formatSeconds, fromNow } from "../../shared/format.ts";
import { PageHeader } from "../../shared/layout.tsx";
import {
  ConfirmButton,
  CopyButton,
  Notice,
  Pager,
  Progress,
  Show,
  TableWrap,
  useResource,
  useTitle,
} from "../../shared/ui.tsx";

const CATEGORIES = ["image", "video", "audio", "font"] as const;
type Category = (typeof CATEGORIES)[number];
const RETENTION = [
  [1, "1 hour"],
  [24, "24 hours"],
  [72, "3 days"],
  [168, "7 days"],
  [720, "30 days"],
] as const;

interface Sending {
  key: number;
  name: string;
  fraction: number;
  error?: unknown;
  done?: boolean;
}

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

const Uploader = ({ uploaded }: { uploaded: () => void }) => {
  const [ttl, setTtl] = useState(24);
  const [over, setOver] = useState(false);
  const [sending, setSending] = useState<Sending[]>([]);
  const input = useRef<HTMLInputElement>(null);
  const counter = useRef(0);
  const send = (files: FileList | null) => {
    for (const file of Array.from(files ?? [])) {
      const key = ++counter.current;
      const update = (change: Partial<Sending>) =>
        setSending((list) => list.map((s) => (s.key === key ? { ...s, ...change } : s)));
      setSending((list) => [...list, { key, name: file.name, fraction: 0 }]);
      upload(file, { ttlHours: ttl, onProgress: (fraction) => update({ fraction }) }).then(
        () => {
          update({ fraction: 1, done: true });
          uploaded();
        },
        (error) => update({ error }),
      );
    }
    if (input.current) input.current.value = "";
  };
  return (
    <section class="panel" aria-labelledby="upload-h">
      <h2 id="upload-h">Upload</h2>
      <div
        class={`dropzone${over ? " over" : ""}`}
        onDragOver={(e) => (e.preventDefault(), setOver(true))}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          setOver(false);
          send(e.dataTransfer?.files ?? null);
        }}
      >
        <p>Drop images, videos, audio or fonts here (up to 100 MB each), or</p>
        <p>
          <input
            ref={input}
            id="file-input"
            class="visually-hidden"
            type="file"
            multiple
            onChange={(e) => send(e.currentTarget.files)}
          />
          <label class="button" for="file-input">
            Choose files
          </label>
        </p>
        <div class="inline-form center">
          <div class="field">
            <label for="ttl">Keep for</label>
            <select id="ttl" value={ttl} onChange={(e) => setTtl(Number(e.currentTarget.value))}>
              {RETENTION.map(([hours, text]) => (
                <option key={hours} value={hours}>
                  {text}
                </option>
              ))}
            </select>
          </div>
        </div>
      </div>
      {sending.length > 0 && (
        <ul class="stack plain" aria-label="Uploads">
          {sending.map((s) => (
            <li key={s.key}>
              <strong>{s.name}</strong>{" "}
              {s.error ? (
                <span class="field-error" role="alert">
                  {explain(s.error)}
                  {s.error instanceof ApiError && s.error.errors.length > 0
                    ? ` (${s.error.errors.map((e) => e.message).join("; ")})`
                    : ""}
                </span>
              ) : s.done ? (
                <span class="badge s-completed">Uploaded</span>
              ) : (
                <Progress value={s.fraction * 100} label={`Uploading ${s.name}`} />
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
};

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
              {CATEGORIES.map((c) => (
                <option key={c} value={c}>
                  {c}
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
                        <Fragment key={file.id}>
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
                              <code>{file.storageUrl}</code>{" "}
                              <CopyButton text={file.storageUrl} label="Copy storageUrl" />
                            </td>
                            <td data-label="Expires" title={formatDate(file.expiresAt)}>
                              {file.expiresAt ? fromNow(file.expiresAt) : "kept"}
                            </td>
                            <td data-label="Actions">
                              <div class="row-actions">
                                <button
                                  type="button"
                                  class="secondary small"
                                  aria-expanded={open === file.id}
                                  onClick={() => setOpen(open === file.id ? null : file.id)}
                                >
                                  {open === file.id ? "Hide" : "Preview"}
                                </button>
                                <a
                                  class="button secondary small"
                                  href={downloadUrl(file.id)}
                                  download={file.originalName}
                                >
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
                                    await files.reload();
                                  }}
                                >
                                  Delete
                                </ConfirmButton>
                              </div>
                            </td>
                          </tr>
                          {open === file.id && (
                            <tr>
                              <td colSpan={6}>
                                <Preview file={file} />
                              </td>
                            </tr>
                          )}
                        </Fragment>
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
