/**
 * The n8n node's reader of the job event stream (integrations/n8n/nodes/MediaRender/event-stream.ts): the
 * text/event-stream format as the HTML standard interprets it, whatever the chunks a socket delivers.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { eventStreamReader, type StreamEvent } from "../integrations/n8n/nodes/MediaRender/event-stream.ts";

const readAll = (chunks: string[]) => {
  const reader = eventStreamReader();
  const events: StreamEvent[] = chunks.flatMap((c) => reader.push(c));
  return { events, retry: reader.retry };
};

/** What the job stream sends: a progress event with its retry, a keep-alive comment, then done. */
const STREAM =
  'event: progress\ndata: {"id":"job_1","status":"PROCESSING"}\nid: 0\nretry: 2000\n\n' +
  ": keep-alive\n\n" +
  'event: done\ndata: {"id":"job_1","status":"COMPLETED"}\nid: 1\n\n';

describe("the event stream reader", () => {
  it("reads the job stream's events, ids and retry, skipping comments", () => {
    const { events, retry } = readAll([STREAM]);
    expect(events).toEqual([
      { event: "progress", data: '{"id":"job_1","status":"PROCESSING"}', id: "0" },
      { event: "done", data: '{"id":"job_1","status":"COMPLETED"}', id: "1" },
    ]);
    expect(retry).toBe(2000);
  });

  it("joins multi-line data, defaults the event name, and takes CR and CRLF line ends", () => {
    const { events } = readAll(["data: a\r\ndata:b\rdata:  c\r\n\r\n", "event:x\ndata\n\n"]);
    expect(events).toEqual([
      { event: "message", data: "a\nb\n c", id: undefined },
      { event: "x", data: "", id: undefined },
    ]);
  });

  it("dispatches nothing for an event without data, or one the stream has not finished", () => {
    expect(readAll(["event: progress\n\n", "data: half"]).events).toEqual([]);
  });

  it("reads the same events however the stream is cut into chunks, CRLF split included", () => {
    const crlf = STREAM.replaceAll("\n", "\r\n");
    const whole = readAll([STREAM]);
    fc.assert(
      fc.property(
        fc.constantFrom(STREAM, crlf),
        fc.uniqueArray(fc.integer({ min: 1, max: crlf.length - 1 }), { maxLength: 12 }),
        (text, cuts) => {
          const at = [0, ...cuts.filter((c) => c < text.length).sort((a, b) => a - b), text.length];
          const chunks = at.slice(1).map((end, i) => text.slice(at[i], end));
          expect(readAll(chunks)).toEqual(whole);
        },
      ),
      { numRuns: 300 },
    );
  });
});
