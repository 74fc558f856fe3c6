/** valibot schemas of the template and batch requests. */
import * as v from "valibot";
import { MAX_TEMPLATE_VARIABLES } from "./limits";
import { VARIABLE_NAME, VARIABLE_TYPES } from "./variables";

export const VariableDeclSchema = v.object({
  name: v.pipe(
    v.string(),
    v.regex(VARIABLE_NAME, "name must be a letter or _ then up to 63 letters, digits or _"),
  ),
  type: v.picklist(VARIABLE_TYPES, `type must be one of ${VARIABLE_TYPES.join(", ")}`),
  required: v.optional(v.boolean(), true),
  default: v.optional(v.union([v.string(), v.number()], "default must be a string or a number")),
});

/** POST /api/v2/templates and PUT /api/v2/templates/{id}. */
export const TemplateBody = v.object({
  name: v.pipe(v.string(), v.trim(), v.minLength(1, "name is required"), v.maxLength(200)),
  type: v.picklist(["image", "video"], 'type must be "image" or "video"'),
  config: v.record(v.string(), v.unknown(), "config must be an object"),
  variables: v.optional(
    v.pipe(
      v.array(VariableDeclSchema),
      v.maxLength(MAX_TEMPLATE_VARIABLES, `at most ${MAX_TEMPLATE_VARIABLES} variables`),
    ),
    [],
  ),
});
export type TemplateBody = v.InferOutput<typeof TemplateBody>;

export const BATCH_MODES = ["valid-only", "all-or-nothing"] as const;
export type BatchMode = (typeof BATCH_MODES)[number];

const Mode = v.optional(
  v.picklist(BATCH_MODES, 'mode must be "valid-only" or "all-or-nothing"'),
  "all-or-nothing",
);
const NameColumn = v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(64)));

/** The options of a batch: in the JSON body, or in the query of a `text/csv` body. */
export const BatchOptions = v.object({ mode: Mode, nameColumn: NameColumn });
export type BatchOptions = v.InferOutput<typeof BatchOptions>;

/** A JSON batch: rows of column -> value. */
export const BatchBody = v.object({
  rows: v.array(v.record(v.string(), v.unknown(), "each row must be an object of column -> value")),
  mode: Mode,
  nameColumn: NameColumn,
});

export const ManifestQuery = v.object({
  format: v.optional(v.picklist(["json", "csv"], 'format must be "json" or "csv"'), "json"),
});
