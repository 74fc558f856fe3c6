/**
 * The timeline's lanes (timeline.tsx): the clips, the global layers and the audio, each a row of boxes placed at
 * their seconds by the layout the service's own timeline code computed.
 */
import type { CSSProperties } from "preact";
import { useRef } from "preact/hooks";
import { hasErrorAt, type Issues } from "../model/issues.ts";
import { fieldName, isObject, type JsonObject, type Path } from "../model/paths.ts";
import type { Action } from "../model/store.ts";
import type { Timeline as Layout } from "../service-code.ts";
import { TransitionThumb } from "./transitions.tsx";

export const round = (n: number) => Math.round(n * 100) / 100;
/** "2.5 s". */
export const seconds = (n: number) => `${round(n)} s`;

const summary = (clip: unknown) => {
  const layers = isObject(clip) ? clip.layers : undefined;
  const list = Array.isArray(layers) ? layers : layers ? [layers] : [];
  const named = list.find((l) => isObject(l) && typeof l.text === "string") as JsonObject | undefined;
  return named ? String(named.text) : list.map((l) => (isObject(l) ? String(l.type) : "?")).join(", ");
};

/** What every lane is drawn with: a box at seconds (start, length), and whether a path is the selection. */
export interface LaneProps {
  layout: Layout;
  at: (start: number, length: number) => CSSProperties;
  selected: (path: Path) => boolean;
  dispatch: (action: Action) => void;
}

/**
 * The clips, on two alternating lanes so a transition's overlap shows, each with its transition's thumbnail; a clip's
 * right edge drags its duration, and Alt+arrow keys change it (0.1 s, Shift 1 s).
 */
export const ClipsLane = ({
  layout,
  clips,
  pps,
  at,
  selected,
  issues,
  dispatch,
}: LaneProps & { clips: unknown[]; pps: number; issues: Issues }) => {
  const drag = useRef<{ pointer: number; clip: number; startX: number; duration: number } | null>(null);
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
  return (
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
  );
};

/** The global layers, each over the seconds it shows (start to stop, else the whole video). */
export const GlobalsLane = ({
  globals,
  layout,
  at,
  selected,
  dispatch,
}: LaneProps & { globals: unknown[] }) => (
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
);

/** The audio: the config's audioFilePath over the whole video, and each track over the seconds it plays. */
export const AudioLane = ({
  config,
  tracks,
  layout,
  at,
  selected,
  dispatch,
  audioLength,
}: LaneProps & {
  config: JsonObject;
  tracks: unknown[];
  audioLength: (track: JsonObject) => number | null;
}) => (
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
);
