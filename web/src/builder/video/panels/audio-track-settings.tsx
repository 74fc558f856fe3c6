/** The panel of a selected audio track (`audioTracks[i]`). */
import type { Path } from "../../model/paths.ts";
import { Fields, type PanelContext } from "../../panels/property-panel.tsx";
import type { Schema } from "../../schema/fields.ts";

/** An audio track's properties and the button that removes it. */
export const AudioTrackSettings = ({
  ctx,
  path,
  schema,
}: {
  ctx: PanelContext;
  path: Path;
  schema: Schema | null;
}) => (
  <>
    {schema && <Fields ctx={ctx} path={path} schema={schema} />}
    <button
      type="button"
      class="danger small"
      onClick={() => ctx.dispatch({ type: "remove", list: ["audioTracks"], index: Number(path[1]) })}
    >
      Remove track
    </button>
  </>
);
