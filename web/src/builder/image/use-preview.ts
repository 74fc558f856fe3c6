/**
 * The builder's side of the preview frame (preview/main.ts): sends it the files it needs and every new state of
 * the config, and keeps the layer boxes it reports back. Each change the user makes is timed from the change
 * (`markChange`, called where actions are dispatched) to the frame's report that it painted the result, as the
 * User Timing measure `builder:preview-update` (what bench/builder.ts reads).
 */
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { readFromPreview, type LayerBox, type ToPreview } from "../preview/protocol.ts";

export const PREVIEW_PATH = "/builder/preview";
const CHANGE_MARK = "builder:change";
export const UPDATE_MEASURE = "builder:preview-update";

/** Marks the moment of a change (the first since the preview last painted). */
export const markChange = () => {
  if (!performance.getEntriesByName(CHANGE_MARK, "mark").length) performance.mark(CHANGE_MARK);
};

export interface PreviewState {
  boxes: (LayerBox | null)[];
  skipped: number[];
  stale: boolean;
  /** html layers that would run their scripts are drawn without them (`scripts` false). */
  withheld: boolean;
  ready: boolean;
}

/** `scripts`: html layers may run their own scripts in the frame (false for a config from a link, until agreed). */
export const usePreview = (
  config: unknown,
  sizes: [string, { width: number; height: number }][],
  hidden: number[],
  scripts: boolean,
) => {
  const frame = useRef<HTMLIFrameElement>(null);
  const [state, setState] = useState<PreviewState>({
    boxes: [],
    skipped: [],
    stale: false,
    withheld: false,
    ready: false,
  });
  const seq = useRef(0);
  /** The draw a pending change mark belongs to: the first draw after the mark. */
  const markedSeq = useRef<number | null>(null);
  const pendingFiles = useRef<[string, Blob][]>([]);

  const post = useCallback((message: ToPreview) => {
    frame.current?.contentWindow?.postMessage(message, "*");
  }, []);

  useEffect(() => {
    const listen = (event: MessageEvent) => {
      if (!frame.current || event.source !== frame.current.contentWindow) return;
      const message = readFromPreview(event.data);
      if (!message) return;
      if (message.kind === "ready") {
        setState((s) => ({ ...s, ready: true }));
        return;
      }
      if (message.seq !== seq.current) return;
      if (markedSeq.current !== null && message.seq >= markedSeq.current) {
        markedSeq.current = null;
        if (performance.getEntriesByName(CHANGE_MARK, "mark").length) {
          performance.measure(UPDATE_MEASURE, CHANGE_MARK);
          performance.clearMarks(CHANGE_MARK);
        }
      }
      setState((previous) => ({
        ...previous,
        boxes: message.boxes,
        skipped: message.skipped,
        stale: message.stale,
        withheld: message.withheld,
      }));
    };
    addEventListener("message", listen);
    return () => removeEventListener("message", listen);
  }, []);

  const draw = () => {
    seq.current += 1;
    if (markedSeq.current === null && performance.getEntriesByName(CHANGE_MARK, "mark").length)
      markedSeq.current = seq.current;
    post({ kind: "draw", seq: seq.current, config, sizes, hidden, scripts });
  };

  useEffect(() => {
    if (state.ready) draw();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [state.ready, config, JSON.stringify(sizes), hidden.join(), scripts]);

  /** Hands files (storage URL -> bytes) to the frame, and draws again with them. */
  const addFiles = useCallback(
    (files: [string, Blob][]) => {
      if (!state.ready) {
        pendingFiles.current.push(...files);
        return;
      }
      post({ kind: "files", files });
      draw();
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [state.ready, config, sizes, hidden, scripts],
  );

  useEffect(() => {
    if (state.ready && pendingFiles.current.length) {
      post({ kind: "files", files: pendingFiles.current });
      pendingFiles.current = [];
      draw();
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [state.ready]);

  return { frame, state, addFiles };
};
