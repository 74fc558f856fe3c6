/**
 * Video jobs: the frame at the playhead (drawn by the service, video/frame-preview.ts), the panel of what is
 * selected, and the timeline. The frame is rendered when asked, or after every pause in editing when "Keep the
 * frame up to date" is on; moving the playhead inside clips already rendered shows their frame at once.
 */
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { explain } from "../../shared/api.ts";
import { Progress } from "../../shared/ui.tsx";
import type { JobProgress } from "../jobs/run-job.ts";
import type { Files } from "../model/files.ts";
import { categoryOf } from "../model/files.ts";
import type { JsonObject } from "../model/paths.ts";
import type { EditorState } from "../model/store.ts";
import type { PanelContext } from "../panels/property-panel.tsx";
import { buildTimeline, type Timeline as Layout } from "../service-code.ts";
import { renderFrame, stillConfig, type FramePreview } from "./frame-preview.ts";
import { Timeline } from "./timeline.tsx";
import { seconds } from "./timeline-lanes.tsx";
import { VideoPanel } from "./panels/video-panel.tsx";

const AUTO_DELAY_MS = 1200;

type Frame =
  | { status: "none" }
  | { status: "rendering"; progress: JobProgress | null; time: number }
  | { status: "done"; frame: FramePreview; key: string }
  | { status: "failed"; error: unknown };

/**
 * The frame at the playhead as the service renders it (a short still job): the picture, its job's progress or
 * failure, whether it is outdated, and the buttons that render it now or keep it up to date.
 */
const FrameViewer = ({
  playhead,
  frame,
  current,
  aspectRatio,
  signedIn,
  canRender,
  onRender,
  auto,
  setAuto,
}: {
  playhead: number;
  frame: Frame;
  /** The frame shown is the one the config and the playhead would render now. */
  current: boolean;
  aspectRatio: string;
  signedIn: boolean;
  canRender: boolean;
  onRender: () => void;
  auto: boolean;
  setAuto: (auto: boolean) => void;
}) => (
  <section class="viewer" aria-labelledby="viewer-title">
    <h2 id="viewer-title">Frame at {seconds(playhead)}</h2>
    <div class="frame-view" style={{ aspectRatio }}>
      {frame.status === "done" ? (
        <img
          id="frame-preview"
          src={frame.frame.url}
          alt={`The frame at ${seconds(frame.frame.time)}, as the service renders it (preview resolution)`}
          class={current ? "" : "outdated"}
        />
      ) : (
        <p class="muted">
          {signedIn
            ? "No frame yet: render the frame at the playhead."
            : "Sign in to see frames rendered by the service."}
        </p>
      )}
    </div>
    <div aria-live="polite" class="frame-status">
      {frame.status === "rendering" && (
        <>
          <p>
            Rendering the frame at {seconds(frame.time)}
            {frame.progress ? ` (job ${frame.progress.jobId}, ${frame.progress.status.toLowerCase()})` : ""}
          </p>
          <Progress value={frame.progress?.percent ?? 0} label="Frame preview progress" />
        </>
      )}
      {frame.status === "done" && (
        <p class={current ? "muted" : "field-warning"}>
          {current
            ? `Frame at ${seconds(frame.frame.time)}, ${frame.frame.width}x${frame.frame.height} (preview size), job ${frame.frame.jobId}.`
            : "The config or the playhead changed since this frame was rendered."}
        </p>
      )}
      {frame.status === "failed" && (
        <p class="field-error">The frame could not be rendered: {explain(frame.error)}</p>
      )}
    </div>
    {signedIn && (
      <div class="actions">
        <button type="button" id="render-frame" disabled={!canRender} onClick={onRender}>
          Render the frame at the playhead
        </button>
        <label class="check">
          <input type="checkbox" checked={auto} onChange={(e) => setAuto(e.currentTarget.checked)} /> Keep the
          frame up to date (each render is a short job, charged like any)
        </label>
      </div>
    )}
  </section>
);

/**
 * The video's timeline as the service lays it out (null while the config cannot be), a video layer's length taken
 * from its cut and its uploaded file's duration; and the duration of an uploaded file by its storage URL.
 */
const useLayout = (config: JsonObject, files: Files) => {
  const durationOf = (path: unknown) =>
    typeof path === "string" ? (files.byUrl(path)?.duration ?? null) : null;
  const layout = useMemo<Layout | null>(() => {
    try {
      return buildTimeline(config as never, {
        videoLength: (layer) => {
          const duration = durationOf(layer.path);
          if (duration === null)
            return layer.cutTo !== undefined ? Math.max(0, layer.cutTo - (layer.cutFrom ?? 0)) : null;
          const from = Math.min(layer.cutFrom ?? 0, duration);
          return Math.max(0, Math.min(layer.cutTo ?? duration, duration) - from);
        },
      });
    } catch {
      return null;
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [config, files.list]);
  return { layout, durationOf };
};

/** Seconds of audio a track plays: its cut, else its file's duration after `cutFrom` (null when unknown). */
const audioLength = (track: JsonObject, durationOf: (path: unknown) => number | null): number | null => {
  const from = typeof track.cutFrom === "number" ? track.cutFrom : 0;
  if (typeof track.cutTo === "number") return Math.max(0, track.cutTo - from);
  const duration = durationOf(track.path);
  return duration === null ? null : Math.max(0, duration - from);
};

export const VideoEditor = ({
  state,
  ctx,
  files,
  signedIn,
}: {
  state: EditorState;
  ctx: PanelContext;
  files: Files;
  signedIn: boolean;
}) => {
  const doc = state.history.present;
  const config = doc.config;
  const [playhead, setPlayhead] = useState(0);
  const [frame, setFrame] = useState<Frame>({ status: "none" });
  const [auto, setAuto] = useState(false);
  const running = useRef<AbortController | null>(null);

  const { layout, durationOf } = useLayout(config, files);
  const total = layout?.duration ?? 0;
  useEffect(() => {
    if (playhead > total) setPlayhead(Math.max(0, total - 0.01));
  }, [total, playhead]);

  /** The still job the frame at the playhead needs: the current frame is up to date when it matches. */
  const key = useMemo(() => {
    try {
      return JSON.stringify(stillConfig(config, playhead));
    } catch {
      return "";
    }
  }, [config, playhead]);

  const render = (time = playhead) => {
    running.current?.abort();
    const abort = new AbortController();
    running.current = abort;
    setFrame({ status: "rendering", progress: null, time });
    renderFrame(
      doc,
      time,
      (progress) => setFrame((f) => (f.status === "rendering" ? { ...f, progress } : f)),
      abort.signal,
    ).then(
      (result) =>
        !abort.signal.aborted &&
        setFrame((old) => {
          if (old.status === "done") URL.revokeObjectURL(old.frame.url);
          return { status: "done", frame: result, key: JSON.stringify(stillConfig(config, time)) };
        }),
      (error) => !abort.signal.aborted && setFrame({ status: "failed", error }),
    );
  };

  // With "keep up to date" on, a pause after a change (or a playhead move) renders the frame again.
  useEffect(() => {
    if (!auto || !signedIn || !key || (frame.status === "done" && frame.key === key)) return;
    const timer = setTimeout(() => render(), AUTO_DELAY_MS);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [auto, key, signedIn]);

  const fileFor = (category: string) => files.list.find((f) => categoryOf(f) === category)?.storageUrl;
  const current = frame.status === "done" && frame.key === key;
  const w = typeof config.width === "number" ? config.width : 1280;
  const h = typeof config.height === "number" ? config.height : 720;
  return (
    <div class="video-editor">
      <FrameViewer
        playhead={playhead}
        frame={frame}
        current={current}
        aspectRatio={`${w} / ${h}`}
        signedIn={signedIn}
        canRender={frame.status !== "rendering" && !!layout}
        onRender={() => render()}
        auto={auto}
        setAuto={setAuto}
      />
      <VideoPanel ctx={ctx} path={state.selection ?? []} fileFor={fileFor} />
      {layout ? (
        <Timeline
          config={config}
          layout={layout}
          playhead={playhead}
          onPlayhead={setPlayhead}
          selection={state.selection}
          issues={ctx.issues}
          dispatch={ctx.dispatch}
          audioLength={(track: JsonObject) => audioLength(track, durationOf)}
        />
      ) : (
        <p class="notice warning">The clips cannot be laid out yet: fix the config (see the JSON view).</p>
      )}
    </div>
  );
};
