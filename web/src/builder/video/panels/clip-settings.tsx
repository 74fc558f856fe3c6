/** The panel of a selected clip (`clips[i]`). */
import type { Path } from "../../model/paths.ts";
import { Fields, type PanelContext } from "../../panels/property-panel.tsx";
import type { Schema } from "../../schema/fields.ts";
import { LayerRows } from "./layer-rows.tsx";
import { TransitionFields } from "./transition-fields.tsx";

/** A clip's panel: move, duplicate or remove it, its properties, its transition to the next clip, its layers. */
export const ClipSettings = ({
  ctx,
  path,
  clip,
  count,
  schema,
  fileFor,
}: {
  ctx: PanelContext;
  path: Path;
  clip: unknown;
  /** Clips in the video. */
  count: number;
  schema: Schema | null;
  fileFor: (category: string) => string | undefined;
}) => {
  const { dispatch } = ctx;
  const i = path[1] as number;
  return (
    <>
      <div class="row-actions">
        <button
          type="button"
          class="secondary small"
          disabled={i === 0}
          onClick={() => dispatch({ type: "move", list: ["clips"], from: i, to: i - 1 })}
        >
          Move earlier
        </button>
        <button
          type="button"
          class="secondary small"
          disabled={i === count - 1}
          onClick={() => dispatch({ type: "move", list: ["clips"], from: i, to: i + 1 })}
        >
          Move later
        </button>
        <button
          type="button"
          class="secondary small"
          onClick={() =>
            dispatch({ type: "insert", list: ["clips"], item: structuredClone(clip), index: i + 1 })
          }
        >
          Duplicate
        </button>
        <button
          type="button"
          class="danger small"
          disabled={count <= 1}
          onClick={() => dispatch({ type: "remove", list: ["clips"], index: i })}
        >
          Remove clip
        </button>
      </div>
      {schema && <Fields ctx={ctx} path={path} schema={schema} skip={["layers", "transition"]} />}
      <TransitionFields ctx={ctx} at={[...path, "transition"]} inherit />
      <LayerRows ctx={ctx} list={[...path, "layers"]} fileFor={fileFor} title="Layers" />
    </>
  );
};
