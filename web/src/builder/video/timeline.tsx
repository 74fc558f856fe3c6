/**
 * The video's timeline, laid out by the service's own timeline code (packages/contract/src/timeline.ts: clip starts,
 * transitions clamped to half of each neighbour, whole frames): clips on two alternating lanes so a transition's
 * overlap shows, each transition's thumbnail at its clip's end, the global layers and the audio tracks on their
 * own rows, the selected layer's keyframes (keyframe-lane.tsx), and the playhead. A clip's right edge drags its
 * duration; a focused clip takes Alt+arrow keys (0.1 s, Shift 1 s). Everything is also reachable from the panels.
 */
import type { CSSProperties } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { hasErrorAt, type Issues } from "../model/issues.ts";
import { fieldName, isObject, type JsonObject, type Path } from "../model/paths.ts";
import type { Action } from "../model/store.ts";
import type { Timeline as Layout } from "../service-code.ts";
import { KeyframeLane } from "./keyframe-lane.tsx";
import { TransitionThumb } from "./transitions.tsx";
import { ZoomSelect, type Zoom } from "../panels/zoom-select.tsx";

const round = (n: number) => Math.round(n * 100) / 100;
/** "2.5 s". */
export const seconds = (n: number) => `${round(n)} s`;

const summary = (clip: unknown) => {
  const layers = isObject(clip) ? clip.layers : undefined;
  const list = Array.isArray(layers) ? layers : layers ? [layers] : [];
  const named = list.find((l) => isObject(l) && typeof l.text === "string") as JsonObject | undefined;
  return named ? String(named.text) : list.map((l) => (isObject(l) ? String(l.type) : "?")).join(", ");
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
  const drag = useRef<{ pointer: number; clip: number; startX: number; duration: number } | null>(null);
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
  /** A clip's duration as its config gives it (the timeline's is whole frames), else as laid out. */
  const ownDuration = (i: number, laidOut: number) => {
    const clip = clips[i];
    return isObject(clip) && typeof clip.duration === "number" ? clip.duration : laidOut;
  };
  const setDuration = (i: number, seconds: number, key: string) =>
    dispatch({
      type: "set",
      path: ["clips", i, "duration"],
      value: Math.max(0.1, Math.min(300, round(seconds))),
      coalesce: key,
    });

  const tick = [0.5, 1, 2, 5, 10, 15, 30, 60].find((step) => step * pps >= 48) ?? 60;
  const ticks = Array.from({ length: Math.floor(total / tick) + 1 }, (_, n) => round(n * tick));
  return (
    <section class="timeline" aria-labelledby="timeline-title">
      <div class="timeline-head">
        <h2 id="timeline-title">Timeline</h2>
        <span class="muted">
          {clips.length} clip{clips.length === 1 ? "" : "s"} · {seconds(layout.duration)} · {layout.fps} fps
        </span>
        <ZoomSelect zoom={zoom} setZoom={setZoom} levels={[0.5, 1, 2]} />
        <button
          type="button"
          class="small"
          onClick={() =>
            dispatch({
              type: "insert",
              list: ["clips"],
              item: { duration: 3, layers: [{ type: "title", text: `Clip ${clips.length + 1}` }] },
            })
          }
          disabled={clips.length >= 100}
        >
          Add clip
        </button>
      </div>
      <div class="playhead-row">
        <label for="playhead">Playhead</label>
        <input
          id="playhead"
          type="range"
          min={0}
          max={round(total)}
          step={1 / layout.fps}
          value={playhead}
          aria-valuetext={`${playhead.toFixed(2)} seconds`}
          onInput={(e) => onPlayhead(Number(e.currentTarget.value))}
        />
        <output for="playhead">{playhead.toFixed(2)} s</output>
      </div>
      <div class="tracks" role="region" aria-label="Tracks" tabIndex={0} ref={tracksRef}>
        <div class="tracks-inner" style={{ width: `${width + 20}px` }}>
          <div
            class="ruler"
            aria-hidden="true"
            onPointerDown={(e) =>
              onPlayhead(
                Math.min(
                  total,
                  Math.max(0, (e.clientX - e.currentTarget.getBoundingClientRect().left) / pps),
                ),
              )
            }
          >
            {ticks.map((s) => (
              <span key={s} style={{ left: `${s * pps}px` }}>
                {s}s
              </span>
            ))}
          </div>
          <div class="lane-label">Clips</div>
          <ol class="clips-row" aria-label="Clips">
            {layout.clips.map((timing, i) => {
              const path = ["clips", i];
              const invalid = hasErrorAt(issues, fieldName(path));
              return (
                <li key={i} class={`clip lane-${i % 2}`} style={at(timing.start, timing.duration)}>
                  <button
                    type="button"
                    class={`clip-body${selected(path) ? " selected" : ""}${invalid ? " invalid" : ""}`}
                    aria-pressed={selected(path)}
                    onClick={() => dispatch({ type: "select", path })}
                    onKeyDown={(e) => {
                      if (!e.altKey || (e.key !== "ArrowLeft" && e.key !== "ArrowRight")) return;
                      e.preventDefault();
                      const step = (e.shiftKey ? 1 : 0.1) * (e.key === "ArrowLeft" ? -1 : 1);
                      setDuration(i, ownDuration(i, timing.duration) + step, `duration-keys-${i}`);
                    }}
                  >
                    <span class="visually-hidden">Clip </span>
                    <span class="clip-n">{i + 1}</span> {summary(clips[i])}
                    <span class="visually-hidden">
                      , {seconds(timing.duration)}
                      {invalid ? ", has errors" : ""}. Alt with arrow keys changes its duration.
                    </span>
                  </button>
                  <span
                    class="clip-edge"
                    aria-hidden="true"
                    title="Drag to change the duration"
                    onPointerDown={(e) => {
                      e.preventDefault();
                      e.currentTarget.setPointerCapture(e.pointerId);
                      drag.current = {
                        pointer: e.pointerId,
                        clip: i,
                        startX: e.clientX,
                        duration: ownDuration(i, timing.duration),
                      };
                      dispatch({ type: "select", path });
                    }}
                    onPointerMove={(e) => {
                      const dragging = drag.current;
                      if (!dragging || dragging.pointer !== e.pointerId) return;
                      setDuration(
                        dragging.clip,
                        dragging.duration + (e.clientX - dragging.startX) / pps,
                        `duration-drag-${dragging.pointer}-${dragging.startX}`,
                      );
                    }}
                    onPointerUp={() => (drag.current = null)}
                    onPointerCancel={() => (drag.current = null)}
                  />
                  {timing.transition && (
                    <button
                      type="button"
                      class="transition-chip"
                      style={{ left: `${(timing.duration - timing.transition.duration) * pps}px` }}
                      aria-label={`Transition from clip ${i + 1} to ${i + 2}: ${timing.transition.name}, ${seconds(timing.transition.duration)}`}
                      onClick={() => dispatch({ type: "select", path })}
                    >
                      <TransitionThumb name={timing.transition.name} />
                      <span>{timing.transition.name}</span>
                    </button>
                  )}
                </li>
              );
            })}
          </ol>
          <div class="lane-label">Global layers</div>
          <ol class="row" aria-label="Global layers">
            {globals.map((layer, i) => {
              const layerObject = isObject(layer) ? layer : {};
              const start = typeof layerObject.start === "number" ? layerObject.start : 0;
              const stop = typeof layerObject.stop === "number" ? layerObject.stop : layout.duration;
              const path = ["globalLayers", i];
              return (
                <li key={i} class="t-bar global" style={at(start, stop - start)}>
                  <button
                    type="button"
                    class={selected(path) ? "selected" : ""}
                    aria-pressed={selected(path)}
                    onClick={() => dispatch({ type: "select", path })}
                  >
                    {String(layerObject.type ?? "?")}{" "}
                    {typeof layerObject.text === "string" ? `“${layerObject.text}”` : ""}
                  </button>
                </li>
              );
            })}
          </ol>
          <div class="lane-label">Audio</div>
          <ol class="row" aria-label="Audio tracks">
            {typeof config.audioFilePath === "string" && (
              <li class="t-bar audio" style={at(0, layout.duration)}>
                <button type="button" onClick={() => dispatch({ type: "select", path: [] })}>
                  audioFilePath {config.audioFilePath.split("/").pop()}
                </button>
              </li>
            )}
            {tracks.map((track, i) => {
              const trackObject = isObject(track) ? track : {};
              const start = typeof trackObject.start === "number" ? trackObject.start : 0;
              const length = audioLength(trackObject) ?? layout.duration - start;
              const path = ["audioTracks", i];
              return (
                <li key={i} class="t-bar audio" style={at(start, length)}>
                  <button
                    type="button"
                    class={selected(path) ? "selected" : ""}
                    aria-pressed={selected(path)}
                    onClick={() => dispatch({ type: "select", path })}
                  >
                    track {i + 1}:{" "}
                    {typeof trackObject.path === "string" ? trackObject.path.split("/").pop() : "no file"}
                  </button>
                </li>
              );
            })}
          </ol>
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
