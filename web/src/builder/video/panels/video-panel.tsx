/**
 * The panel of whatever is selected in a video config: the settings (the config's own properties, `defaults` with
 * its transition, the global layers, the audio), a clip (duration, its transition into the next clip, its layers), a
 * layer (of a clip or global) or an audio track, each generated from the video schema. One component per kind sits
 * beside this file; this one picks it, titles it and shows the problems of what is selected.
 */
import { messagesAt } from "../../model/issues.ts";
import { fieldName, getIn, isObject, within, type JsonObject, type Path } from "../../model/paths.ts";
import { ProblemLinks } from "../../panels/problem-links.tsx";
import type { PanelContext } from "../../panels/property-panel.tsx";
import { schemaAt } from "../../schema/fields.ts";
import { AudioTrackSettings } from "./audio-track-settings.tsx";
import { ClipSettings } from "./clip-settings.tsx";
import { LayerSettings } from "./layer-settings.tsx";
import { VideoSettings } from "./video-settings.tsx";

/** The panel of whatever is selected (`path`; empty: the video itself). */
export const VideoPanel = ({
  ctx,
  path,
  fileFor,
}: {
  ctx: PanelContext;
  path: Path;
  fileFor: (category: string) => string | undefined;
}) => {
  const { dispatch } = ctx;
  const value = getIn(ctx.config, path);
  const schema = schemaAt(ctx.schemas, ctx.config, path);
  const own = path.length ? messagesAt(ctx.issues.errors, fieldName(path), true) : [];
  // A clip's own problems and its layers' are in their panels; a clip lists its layers' too.
  const inside = path.length
    ? ctx.issues.errors.filter(
        (e) => e.field && e.field !== fieldName(path) && within(e.field, fieldName(path)),
      )
    : [];
  const clips = Array.isArray((ctx.config as JsonObject).clips)
    ? ((ctx.config as JsonObject).clips as unknown[])
    : [];
  let title = "Video settings";
  let body = null;
  if (path.length === 0) {
    body = <VideoSettings ctx={ctx} fileFor={fileFor} />;
  } else if (path[0] === "clips" && path.length === 2) {
    const i = path[1] as number;
    title = `Clip ${i + 1}`;
    body = (
      <ClipSettings
        ctx={ctx}
        path={path}
        clip={value}
        count={clips.length}
        schema={schema}
        fileFor={fileFor}
      />
    );
  } else if (path[0] === "audioTracks") {
    title = `Audio track ${Number(path[1]) + 1}`;
    body = <AudioTrackSettings ctx={ctx} path={path} schema={schema} />;
  } else {
    const layer = isObject(value) ? value : {};
    title =
      path[0] === "globalLayers"
        ? `Global layer ${Number(path[1]) + 1}: ${String(layer.type ?? "?")}`
        : `Clip ${Number(path[1]) + 1}, layer ${Number(path[3]) + 1}: ${String(layer.type ?? "?")}`;
    body = <LayerSettings ctx={ctx} path={path} schema={schema} />;
  }
  return (
    <section class="properties" aria-labelledby="properties-title">
      <h2 id="properties-title">{title}</h2>
      {path.length > 0 && (
        <button type="button" class="link" onClick={() => dispatch({ type: "select", path: null })}>
          Video settings
        </button>
      )}
      {own.length > 0 && (
        <p class="field-error" role="alert">
          {own.join("; ")}
        </p>
      )}
      <ProblemLinks problems={inside} />
      <div class="stack">{body}</div>
    </section>
  );
};
