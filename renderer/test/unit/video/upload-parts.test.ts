/** How a file is cut into parts, and which answers a request is sent again for (src/video/upload-parts.ts). */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { partRanges, withRetries } from "../../../src/video/upload-parts.ts";

describe("partRanges", () => {
  it("covers every byte once, in order, each part the part size but the last", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 36 }),
        fc.integer({ min: 5 * 2 ** 20, max: 64 * 2 ** 20 }),
        (size, partSize) => {
          fc.pre(Math.ceil(size / partSize) <= 5000);
          const ranges = partRanges(size, partSize);
          expect(ranges.length).toBe(Math.ceil(size / partSize));
          expect(ranges[0]!.start).toBe(0);
          expect(ranges.at(-1)!.end).toBe(size - 1);
          const joined = ranges.every(
            (r, i) =>
              r.partNumber === i + 1 &&
              (i === 0 || r.start === ranges[i - 1]!.end + 1) &&
              (i === ranges.length - 1 ? r.end - r.start + 1 <= partSize : r.end - r.start + 1 === partSize),
          );
          expect(joined).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe("withRetries", () => {
  const answers = (...steps: (number | Error)[]) => {
    let calls = 0;
    const send = async () => {
      const step = steps[Math.min(calls++, steps.length - 1)]!;
      if (step instanceof Error) throw step;
      return new Response(null, { status: step });
    };
    return { send, calls: () => calls };
  };

  it("sends again after a network error or a 5xx, and returns the first answer below 500", async () => {
    const a = answers(new TypeError("fetch failed"), 503, 200);
    expect((await withRetries(a.send, [1, 1, 1])).status).toBe(200);
    expect(a.calls()).toBe(3);
  });

  it("returns a refusal (4xx) at once, and the last 5xx or network error once the delays run out", async () => {
    const refused = answers(413);
    expect((await withRetries(refused.send, [1, 1])).status).toBe(413);
    expect(refused.calls()).toBe(1);
    const down = answers(502);
    expect((await withRetries(down.send, [1, 1])).status).toBe(502);
    expect(down.calls()).toBe(3);
    const gone = answers(new TypeError("fetch failed"));
    await expect(withRetries(gone.send, [1])).rejects.toThrow("fetch failed");
    expect(gone.calls()).toBe(2);
  });

  it("stops waiting, and sending, once its signal is aborted", async () => {
    const job = new AbortController();
    const a = answers(503);
    const sent = withRetries(a.send, [60_000], job.signal);
    setTimeout(() => job.abort(new Error("cancelled")), 10);
    await expect(sent).rejects.toMatchObject({ name: "AbortError" });
    expect(a.calls()).toBe(1);
  });
});
