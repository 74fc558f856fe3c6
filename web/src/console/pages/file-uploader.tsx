/**
 * The files page's uploader (files.tsx): files dropped or picked are uploaded one by one with a progress bar each, kept
 * for the retention chosen, through POST /api/v1/files/upload like any API client's.
 */
import { useRef, useState } from "preact/hooks";
import { ApiError, explain, upload } from "../../shared/api.ts";
import { Progress } from "../../shared/ui.tsx";

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

export const Uploader = ({ uploaded }: { uploaded: () => void }) => {
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
          {sending.map((transfer) => (
            <li key={transfer.key}>
              <strong>{transfer.name}</strong>{" "}
              {transfer.error ? (
                <span class="field-error" role="alert">
                  {explain(transfer.error)}
                  {transfer.error instanceof ApiError && transfer.error.errors.length > 0
                    ? ` (${transfer.error.errors.map((e) => e.message).join("; ")})`
                    : ""}
                </span>
              ) : transfer.done ? (
                <span class="badge s-completed">Uploaded</span>
              ) : (
                <Progress value={transfer.fraction * 100} label={`Uploading ${transfer.name}`} />
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
};
