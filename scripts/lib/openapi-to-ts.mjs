// Turns the service's OpenAPI document into TypeScript for the client (client/src/schema.ts): one named type per
// component schema and an `Operations` map keyed "METHOD /path" with each operation's path parameters, query,
// body and success status. Only the JSON Schema the document uses is handled (objects, arrays, enums, const,
// anyOf/oneOf/allOf, $ref, nullable types); anything else becomes `unknown`, never a wrong type.

const typeName = (ref) =>
  ref
    .replace(/^#\/components\/schemas\//, "")
    .split(/[^A-Za-z0-9]+/)
    .map((p) => p.charAt(0).toUpperCase() + p.slice(1))
    .join("");

const key = (name) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name));

/** The TypeScript type of a JSON Schema. */
export const tsType = (schema, indent = "") => {
  if (!schema || typeof schema !== "object") return "unknown";
  if (schema.$ref) return typeName(schema.$ref);
  if ("const" in schema) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(" | ");
  for (const combo of ["anyOf", "oneOf"])
    if (schema[combo]) return schema[combo].map((s) => `(${tsType(s, indent)})`).join(" | ");
  if (schema.allOf) return schema.allOf.map((s) => `(${tsType(s, indent)})`).join(" & ");
  if (Array.isArray(schema.type))
    return schema.type.map((t) => tsType({ ...schema, type: t }, indent)).join(" | ");
  switch (schema.type) {
    case "string":
      return "string";
    case "number":
    case "integer":
      return "number";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    case "array":
      return `Array<${tsType(schema.items, indent)}>`;
    case "object":
    case undefined: {
      const props = schema.properties ?? {};
      const required = new Set(schema.required ?? []);
      const inner = `${indent}  `;
      const lines = Object.entries(props).map(
        ([name, s]) =>
          `${s.description ? `${inner}/** ${String(s.description).replace(/\*\//g, "*\\/")} */\n` : ""}${inner}${key(name)}${required.has(name) ? "" : "?"}: ${tsType(s, inner)};`,
      );
      const extra =
        schema.additionalProperties === false || (schema.type === undefined && lines.length > 0)
          ? null
          : schema.additionalProperties && typeof schema.additionalProperties === "object"
            ? tsType(schema.additionalProperties, inner)
            : lines.length === 0
              ? "unknown"
              : null;
      if (extra) lines.push(`${inner}[key: string]: ${extra};`);
      if (lines.length === 0) return schema.type === "object" ? "Record<string, unknown>" : "unknown";
      return `{\n${lines.join("\n")}\n${indent}}`;
    }
    default:
      return "unknown";
  }
};

/** The whole module. */
export const openApiToTs = (doc) => {
  const out = [
    "// Generated from client/openapi.json by `npm run client:generate` (scripts/generate-client.mjs). Do not edit.",
    "/* eslint-disable */",
    "",
  ];
  for (const [name, schema] of Object.entries(doc.components?.schemas ?? {}))
    out.push(`export type ${typeName(`#/components/schemas/${name}`)} = ${tsType(schema)};`, "");
  out.push("export interface Operations {");
  for (const [path, ops] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(ops)) {
      const params = (op.parameters ?? []).filter((p) => p.in === "path");
      const query = (op.parameters ?? []).filter((p) => p.in === "query");
      const json = op.requestBody?.content?.["application/json"]?.schema;
      const multipart = op.requestBody?.content?.["multipart/form-data"];
      const success = Object.keys(op.responses ?? {}).find((s) => /^2\d\d$/.test(s)) ?? "200";
      const lines = [
        `    path: ${params.length ? `{ ${params.map((p) => `${key(p.name)}: string`).join("; ")} }` : "{}"};`,
        `    query: ${query.length ? `{ ${query.map((p) => `${key(p.name)}${p.required ? "" : "?"}: string | number`).join("; ")} }` : "{}"};`,
        `    body: ${json ? tsType(json, "    ") : multipart ? "FormData" : "never"};`,
        `    status: ${success};`,
      ];
      out.push(
        `  /** ${op.summary ?? ""} */`,
        `  ${JSON.stringify(`${method.toUpperCase()} ${path}`)}: {`,
        ...lines,
        "  };",
      );
    }
  out.push("}", "");
  return out.join("\n");
};
