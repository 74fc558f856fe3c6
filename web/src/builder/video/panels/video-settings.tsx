/** The panel of the video itself, shown when nothing is selected. */
import { FieldRow, Fields, type PanelContext } from "../../panels/property-panel.tsx";
import { deref, fieldsOf, schemaAt } from "../../schema/fields.ts";
import { LayerRows } from "./layer-rows.tsx";
import { TransitionFields } from "./transition-fields.tsx";

/** What the settings' generated fields leave out: edited below them, or (clips) on the timeline. */
const SETTINGS_SKIP = ["clips", "globalLayers", "audioTracks", "defaults"] as const;

/** The video's own settings: its properties, its defaults (duration, transition), the global layers, the audio. */
export const VideoSettings = ({
  ctx,
  fileFor,
}: {
  ctx: PanelContext;
  fileFor: (category: string) => string | undefined;
}) => {
  const { dispatch } = ctx;
  const root = deref(ctx.schemas, ctx.schemas.root);
  return (
    <>
      <Fields ctx={ctx} path={[]} schema={root} skip={SETTINGS_SKIP} />
      <fieldset class="field-group">
        <legend>defaults</legend>
        <FieldRow
          ctx={ctx}
          path={["defaults"]}
          spec={fieldsOf(ctx.schemas, schemaAt(ctx.schemas, ctx.config, ["defaults"]) ?? {}).find(
            (f) => f.key === "duration",
          )!}
        />
        <TransitionFields ctx={ctx} at={["defaults", "transition"]} inherit={false} />
        <p class="hint">
          Layer defaults (<code>defaults.layer</code>, <code>defaults.layerType</code>) are edited in the JSON
          view.
        </p>
      </fieldset>
      <LayerRows ctx={ctx} list={["globalLayers"]} fileFor={fileFor} title="Global layers" />
      <div class="layer-rows">
        <h3>Audio tracks</h3>
        <button
          type="button"
          class="small"
          onClick={() =>
            dispatch({
              type: "insert",
              list: ["audioTracks"],
              item: fileFor("audio") ? { path: fileFor("audio")! } : {},
            })
          }
        >
          Add an audio track
        </button>
      </div>
    </>
  );
};
