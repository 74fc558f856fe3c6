/**
 * CSV batch bodies (RFC 4180 with the usual extensions: a UTF-8 BOM, CRLF or LF, quoted fields holding commas,
 * quotes and newlines), parsed by csv-parse. The first record is the header; every later record is one row of
 * column -> text. A malformed body is one error naming the line. The header is held to MAX_BATCH_COLUMNS columns
 * of at most MAX_COLUMN_NAME_CHARS characters, and every cell to MAX_CELL_CHARS, before any row is merged.
 */
import { CsvError, parse, type InfoField } from "csv-parse/sync";
import { ValidationFailed } from "../lib/errors.ts";
import { MAX_BATCH_COLUMNS, MAX_CELL_CHARS, MAX_COLUMN_NAME_CHARS } from "./limits.ts";

export const parseCsvRows = (text: string, maxRows: number): Record<string, string>[] => {
  try {
    return parse(text, {
      bom: true,
      columns: (header: string[]) => {
        if (header.length > MAX_BATCH_COLUMNS)
          throw new CsvHeaderError(`${header.length} columns; at most ${MAX_BATCH_COLUMNS}`);
        const seen = new Set<string>();
        for (const h of header) {
          if (!h.trim()) throw new CsvHeaderError("a header cell is empty");
          if (seen.has(h)) throw new CsvHeaderError(`the column ${h} appears twice`);
          seen.add(h);
        }
        return header;
      },
      // Called for every cell, the header's included, as it is read: a cell over its limit stops the parse there.
      cast: (value: string, context: InfoField) => {
        if (context.header && value.length > MAX_COLUMN_NAME_CHARS)
          throw new CsvHeaderError(
            `column ${context.index + 1} is longer than ${MAX_COLUMN_NAME_CHARS} characters`,
          );
        if (value.length > MAX_CELL_CHARS)
          throw new CsvCellError(
            `Cell too long at line ${context.lines}, column ${context.index + 1}: at most ${MAX_CELL_CHARS} characters`,
          );
        return value;
      },
      skip_empty_lines: true,
      // One row past the limit is enough to say the body has too many.
      to: maxRows + 1,
    }) as Record<string, string>[];
  } catch (e) {
    if (e instanceof CsvHeaderError)
      throw new ValidationFailed([
        { field: "body", message: `Bad CSV header: ${e.message}`, code: "INVALID_CSV" },
      ]);
    if (e instanceof CsvCellError)
      throw new ValidationFailed(
        [{ field: "body", message: e.message, code: "INVALID_CSV" }],
        "Malformed CSV body",
      );
    if (e instanceof CsvError) {
      const line = (e as CsvError & { lines?: number }).lines;
      throw new ValidationFailed(
        [
          {
            field: "body",
            message: `Malformed CSV${line ? ` at line ${line}` : ""}: ${e.message}`,
            code: "INVALID_CSV",
          },
        ],
        "Malformed CSV body",
      );
    }
    throw e;
  }
};

class CsvHeaderError extends Error {}
class CsvCellError extends Error {}
