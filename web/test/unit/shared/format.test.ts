/** Formatting for people (web/src/shared/format.ts): the parts that do not depend on the browser's locale. */
import { describe, expect, it } from "vitest";
import { formatBytes, formatSeconds } from "../../../src/shared/format.ts";

describe("format", () => {
  it("writes sizes in powers of 1024 with one decimal under ten", () => {
    expect([0, 1023, 1536, 10 * 1024, 5.5 * 1024 ** 2, 3 * 1024 ** 4].map(formatBytes)).toEqual([
      "0 B",
      "1023 B",
      "1.5 KB",
      "10 KB",
      "5.5 MB",
      "3072 GB",
    ]);
    expect([formatBytes(null), formatBytes(undefined)]).toEqual(["—", "—"]);
  });

  it("writes durations as minutes and seconds, rounded", () => {
    expect([0, 59.4, 59.6, 83.4, 3600].map(formatSeconds)).toEqual(["0:00", "0:59", "1:00", "1:23", "60:00"]);
    expect(formatSeconds(null)).toBe("—");
  });
});
