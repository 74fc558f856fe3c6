/** The panel of a selected layer: a clip's (`clips[i].layers[j]`) or a global one (`globalLayers[i]`). */
import type { Path } from "../../model/paths.ts";
import { ConditionField } from "../../panels/condition-input.tsx";
import { Fields, type PanelContext } from "../../panels/property-panel.tsx";
import type { Schema } from "../../schema/fields.ts";

/** A layer's properties and its condition; a clip's layer has a way back to its clip. */
export const LayerSettings = ({
  ctx,
  path,
  schema,
}: {
  ctx: PanelContext;
  path: Path;
  schema: Schema | null;
}) => (
  <>
    {path[0] !== "globalLayers" && (
      <button
        type="button"
        class="secondary small"
        onClick={() => ctx.dispatch({ type: "select", path: path.slice(0, 2) })}
      >
        Back to clip {Number(path[1]) + 1}
      </button>
    )}
    {schema && <Fields ctx={ctx} path={path} schema={schema} />}
    <ConditionField ctx={ctx} path={path} />
  </>
);
