/**
 * CSV batch bodies (RFC 4180 with the usual extensions: a UTF-8 BOM, CRLF or LF, quoted fields holding commas,
 * quotes and newlines), parsed by csv-parse. The first record is the header; every later record is one row of
 * column -> text. A malformed body is one error naming the line.
 */
import { CsvError, parse } from "csv-parse/sync";
import { ValidationFailed } from "../lib/errors";

export const parseCsvRows = (text: string, maxRows: number): Record<string, string>[] => {
  try {
    return parse(text, {
      bom: true,
      columns: (header: string[]) => {
        const seen = new Set<string>();
        for (const h of header) {
          if (!h.trim()) throw new CsvHeaderError("a header cell is empty");
          if (seen.has(h)) throw new CsvHeaderError(`the column ${h} appears twice`);
          seen.add(h);
        }
        return header;
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
