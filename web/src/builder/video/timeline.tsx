/**
 * The video's timeline, laid out by the service's own timeline code (packages/contract/src/timeline.ts: clip starts,
 * transitions clamped to half of each neighbour, whole frames): clips on two alternating lanes so a transition's
 * overlap shows, each transition's thumbnail at its clip's end, the global layers and the audio tracks on their
 * own rows, the selected layer's keyframes (keyframe-lane.tsx), and the playhead. A clip's right edge drags its
 * duration; a focused clip takes Alt+arrow keys (0.1 s, Shift 1 s). Everything is also reachable from the panels.
 */
import type { CSSProperties } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import type { Issues } from "../model/issues.ts";
import type { JsonObject, Path } from "../model/paths.ts";
import type { Action } from "../model/store.ts";
import type { Timeline as Layout } from "../service-code.ts";
import { KeyframeLane } from "./keyframe-lane.tsx";
import { ZoomSelect, type Zoom } from "../panels/zoom-select.tsx";
import { AudioLane, ClipsLane, GlobalsLane, round, seconds } from "./timeline-lanes.tsx";

/** The timeline's title, its length, its zoom and the button that adds a clip. */
const TimelineHead = ({
  clips,
  layout,
  zoom,
  setZoom,
  dispatch,
}: {
  clips: number;
  layout: Layout;
  zoom: Zoom;
  setZoom: (zoom: Zoom) => void;
  dispatch: (action: Action) => void;
}) => (
  <div class="timeline-head">
    <h2 id="timeline-title">Timeline</h2>
    <span class="muted">
      {clips} clip{clips === 1 ? "" : "s"} · {seconds(layout.duration)} · {layout.fps} fps
    </span>
    <ZoomSelect zoom={zoom} setZoom={setZoom} levels={[0.5, 1, 2]} />
    <button
      type="button"
      class="small"
      onClick={() =>
        dispatch({
          type: "insert",
          list: ["clips"],
          item: { duration: 3, layers: [{ type: "title", text: `Clip ${clips + 1}` }] },
        })
      }
      disabled={clips >= 100}
    >
      Add clip
    </button>
  </div>
);

/** The playhead's slider, by frames. */
const PlayheadRow = ({
  playhead,
  onPlayhead,
  total,
  fps,
}: {
  playhead: number;
  onPlayhead: (seconds: number) => void;
  total: number;
  fps: number;
}) => (
  <div class="playhead-row">
    <label for="playhead">Playhead</label>
    <input
      id="playhead"
      type="range"
      min={0}
      max={round(total)}
      step={1 / fps}
      value={playhead}
      aria-valuetext={`${playhead.toFixed(2)} seconds`}
      onInput={(e) => onPlayhead(Number(e.currentTarget.value))}
    />
    <output for="playhead">{playhead.toFixed(2)} s</output>
  </div>
);

/** The seconds ruler (a tick every 48 px or more); a press on it moves the playhead there. */
const Ruler = ({
  total,
  pps,
  onPlayhead,
}: {
  total: number;
  pps: number;
  onPlayhead: (seconds: number) => void;
}) => {
  const tick = [0.5, 1, 2, 5, 10, 15, 30, 60].find((step) => step * pps >= 48) ?? 60;
  const ticks = Array.from({ length: Math.floor(total / tick) + 1 }, (_, n) => round(n * tick));
  return (
    <div
      class="ruler"
      aria-hidden="true"
      onPointerDown={(e) =>
        onPlayhead(
          Math.min(total, Math.max(0, (e.clientX - e.currentTarget.getBoundingClientRect().left) / pps)),
        )
      }
    >
      {ticks.map((second) => (
        <span key={second} style={{ left: `${second * pps}px` }}>
          {second}s
        </span>
      ))}
    </div>
  );
};

export const Timeline = ({
  config,
  layout,
  playhead,
  onPlayhead,
  selection,
  issues,
  dispatch,
  audioLength,
}: {
  config: JsonObject;
  layout: Layout;
  playhead: number;
  onPlayhead: (seconds: number) => void;
  selection: Path | null;
  issues: Issues;
  dispatch: (action: Action) => void;
  /** Seconds of audio a track plays (from its cut or its file), or null when unknown. */
  audioLength: (track: JsonObject) => number | null;
}) => {
  const [zoom, setZoom] = useState<Zoom>("fit");
  const [room, setRoom] = useState(800);
  const tracksRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = tracksRef.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setRoom(el.clientWidth - 24));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  const total = Math.max(layout.duration, 0.1);
  /** Pixels per second. */
  const pps = zoom === "fit" ? Math.max(24, room / total) : 80 * zoom;
  const width = Math.max(total * pps, 200);
  const clips = (Array.isArray(config.clips) ? config.clips : []) as unknown[];
  const globals = (Array.isArray(config.globalLayers) ? config.globalLayers : []) as unknown[];
  const tracks = (Array.isArray(config.audioTracks) ? config.audioTracks : []) as unknown[];
  const selected = (path: Path) =>
    selection !== null && selection.length === path.length && path.every((k, i) => selection[i] === k);
  const at = (start: number, length: number): CSSProperties => ({
    left: `${start * pps}px`,
    width: `${Math.max(6, length * pps)}px`,
  });
  return (
    <section class="timeline" aria-labelledby="timeline-title">
      <TimelineHead clips={clips.length} layout={layout} zoom={zoom} setZoom={setZoom} dispatch={dispatch} />
      <PlayheadRow playhead={playhead} onPlayhead={onPlayhead} total={total} fps={layout.fps} />
      <div class="tracks" role="region" aria-label="Tracks" tabIndex={0} ref={tracksRef}>
        <div class="tracks-inner" style={{ width: `${width + 20}px` }}>
          <Ruler total={total} pps={pps} onPlayhead={onPlayhead} />
          <div class="lane-label">Clips</div>
          <ClipsLane
            layout={layout}
            clips={clips}
            pps={pps}
            at={at}
            selected={selected}
            issues={issues}
            dispatch={dispatch}
          />
          <div class="lane-label">Global layers</div>
          <GlobalsLane globals={globals} layout={layout} at={at} selected={selected} dispatch={dispatch} />
          <div class="lane-label">Audio</div>
          <AudioLane
            config={config}
            tracks={tracks}
            layout={layout}
            at={at}
            selected={selected}
            dispatch={dispatch}
            audioLength={audioLength}
          />
          <KeyframeLane
            config={config}
            layout={layout}
            selection={selection}
            playhead={playhead}
            pps={pps}
            dispatch={dispatch}
          />
          <span class="playhead-line" aria-hidden="true" style={{ left: `${playhead * pps}px` }} />
        </div>
      </div>
    </section>
  );
};
