/**
 * The MCP resources: the config JSON Schemas at JsonCut's URIs (`schema://image`, `schema://video`), the same
 * documents GET /api/v1/schemas/{name} serves, so an agent can read them without a tool call.
 */
import {
  configJsonSchema,
  SCHEMA_DESCRIPTIONS,
  SCHEMA_NAMES,
  type SchemaName,
} from "../schemas/json-schemas.ts";
import { ValidationFailed } from "../lib/errors.ts";

const uriOf = (name: SchemaName) => `schema://${name}`;

/** The resources as MCP lists them. */
export const resourceList = () =>
  SCHEMA_NAMES.map((name) => ({
    uri: uriOf(name),
    name: `${name === "image" ? "Image" : "Video"} config schema`,
    description: SCHEMA_DESCRIPTIONS[name].description,
    mimeType: "application/json",
  }));

/** The contents of the resource at `uri`: a 400-like tool error for any other URI. */
export const readResource = (uri: string) => {
  const name = SCHEMA_NAMES.find((n) => uriOf(n) === uri);
  if (!name)
    throw new ValidationFailed(
      [
        {
          field: "uri",
          message: `Unknown resource ${JSON.stringify(uri)}: ${SCHEMA_NAMES.map(uriOf).join(", ")}`,
          code: "UNKNOWN_RESOURCE",
        },
      ],
      "Unknown resource",
    );
  return {
    contents: [{ uri, mimeType: "application/json", text: JSON.stringify(configJsonSchema(name), null, 2) }],
  };
};
