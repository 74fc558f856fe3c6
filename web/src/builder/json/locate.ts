/**
 * Lines of the JSON view: where a field (`config.layers[2].width`) is written in the text as typed, and where the
 * text stops being JSON. jsonc-parser gives the offsets; JSON.parse still decides what is valid (no comments, no
 * trailing commas).
 */
import { findNodeAtLocation, parseTree, printParseErrorCode, type ParseError } from "jsonc-parser";
import { pathOfField } from "../model/paths.ts";

/** 1-based line of `offset` in `text`. */
export const lineAt = (text: string, offset: number) => {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
};

/** The first line of the text's first offset of each line, for jumping to a line. */
export const offsetOfLine = (text: string, line: number) => {
  let at = 0;
  for (let current = 1; current < line; current++) {
    const next = text.indexOf("\n", at);
    if (next < 0) return text.length;
    at = next + 1;
  }
  return at;
};

/**
 * A locator of fields in `text`: the line of the value a field names, else of its nearest written parent (a
 * missing required property points at its object), or null when the text has no such place.
 */
export const fieldLocator = (text: string) => {
  const tree = parseTree(text, [], { disallowComments: true });
  return (field: string): number | null => {
    const path = pathOfField(field);
    if (!tree || !path) return null;
    for (let depth = path.length; depth >= 0; depth--) {
      const node = findNodeAtLocation(tree, [...path.slice(0, depth)]);
      if (node) return lineAt(text, node.parent?.type === "property" ? node.parent.offset : node.offset);
    }
    return null;
  };
};

/** Why `text` is not JSON, with its line, or null when it is. */
export const syntaxProblem = (text: string): { line: number; message: string } | null => {
  try {
    JSON.parse(text);
    return null;
  } catch (error) {
    const errors: ParseError[] = [];
    parseTree(text, errors, { disallowComments: true, allowTrailingComma: false });
    const first = errors[0];
    const message = (error as Error).message;
    return first
      ? { line: lineAt(text, first.offset), message: `${printParseErrorCode(first.error)} (${message})` }
      : { line: 1, message };
  }
};
