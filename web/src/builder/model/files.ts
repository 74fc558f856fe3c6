/**
 * The signed-in account's files, for the file pickers and the preview: the list (GET /api/v1/files, every page),
 * uploads on the spot (the console's upload with progress), and the bytes of the pictures and fonts a config names,
 * fetched once per file with the session cookie and handed to the preview frame (which has no network).
 */
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { api, data, downloadUrl, upload } from "../../shared/api.ts";
import type { MediaFile } from "../../shared/api-types.ts";

const PAGE = 100;
/** More files than this are not listed in the pickers (a path can still be typed). */
const MAX_PAGES = 10;
/** A picker taking focus lists the files again (uploaded elsewhere meanwhile) at most this often. */
const REFRESH_MS = 5000;

const listAll = async (): Promise<MediaFile[]> => {
  const out: MediaFile[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const list = await data(
      api.GET("/api/v1/files", { params: { query: { page: String(page), per_page: String(PAGE) } } }),
    );
    out.push(...list.files);
    if (out.length >= list.total || list.files.length < PAGE) break;
  }
  return out;
};

export const categoryOf = (file: MediaFile) => String(file.metadata.category ?? file.mimeType.split("/")[0]);

export interface Files {
  list: MediaFile[];
  loading: boolean;
  error: unknown;
  reload: () => void;
  /** Reloads the list unless it was loaded in the last few seconds (a picker taking focus). */
  refresh: () => void;
  /** Uploads `file`; resolves to its record once listed. */
  add: (file: File, onProgress?: (fraction: number) => void) => Promise<MediaFile>;
  byUrl: (storageUrl: string) => MediaFile | undefined;
}

export const useFiles = (signedIn: boolean): Files => {
  const [list, setList] = useState<MediaFile[]>([]);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const loadedAt = useRef(0);
  const reload = useCallback(() => {
    if (!signedIn) return setList([]);
    loadedAt.current = Date.now();
    setLoading(true);
    listAll()
      .then((files) => (setList(files), setError(null)), setError)
      .finally(() => setLoading(false));
  }, [signedIn]);
  useEffect(reload, [reload]);
  const add = useCallback(async (file: File, onProgress?: (fraction: number) => void) => {
    const uploaded = await upload(file, { onProgress, ttlHours: 24 });
    const files = await listAll();
    setList(files);
    return files.find((f) => f.id === uploaded.id) ?? (uploaded as unknown as MediaFile);
  }, []);
  const refresh = useCallback(() => {
    if (Date.now() - loadedAt.current > REFRESH_MS) reload();
  }, [reload]);
  const byUrl = useCallback((url: string) => list.find((f) => f.storageUrl === url), [list]);
  return { list, loading, error, reload, refresh, add, byUrl };
};

/**
 * The bytes of the stored files among `paths` (pictures and fonts of an image config), fetched once each; calls
 * `onLoaded` with the new ones as they arrive.
 */
export const useFileBytes = (files: Files, paths: string[], onLoaded: (loaded: [string, Blob][]) => void) => {
  const asked = useRef(new Set<string>());
  const notify = useRef(onLoaded);
  notify.current = onLoaded;
  const key = paths.join("\n");
  useEffect(() => {
    for (const path of paths) {
      const file = files.byUrl(path);
      if (!file || asked.current.has(path)) continue;
      asked.current.add(path);
      fetch(downloadUrl(file.id), { credentials: "same-origin" })
        .then((res) => (res.ok ? res.blob() : Promise.reject(new Error(String(res.status)))))
        .then((blob) => notify.current([[path, blob]]))
        .catch(() => asked.current.delete(path));
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, files.list]);
};
