/**
 * The typed client's own helpers (client/src/index.ts) against a stand-in transport: `data` unwraps a success and
 * throws the error envelope, the upload sends a multipart form, and the event reader follows the text/event-stream
 * format (CRLF, comments, multi-line data, `id`, `retry`) and reconnects with Last-Event-ID until `done`. The
 * client against the real service: test/e2e/client.test.ts.
 */
import { describe, expect, it } from "vitest";
import { ApiError, createClient, data } from "../../src/index.ts";
import { at, job } from "../../../test/sample-job.ts";

/** A client whose requests go to `answer`, recording them. */
const clientWith = (answer: (request: Request, n: number) => Response | Promise<Response>) => {
  const requests: Request[] = [];
  const client = createClient({
    baseUrl: "http://api.test/",
    apiKey: "mrk_test",
    fetch: async (request) => {
      requests.push(request);
      return answer(request, requests.length);
    },
  });
  return { client, requests };
};

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

describe("the typed client", () => {
  it("answers an operation's data, with the key, and throws the error envelope as ApiError", async () => {
    const { client, requests } = clientWith((_, n) =>
      n === 1
        ? json(200, { success: true, data: job })
        : json(404, { success: false, error: "Job not found", details: { errors: [{ message: "m" }] } }),
    );
    const got = await data(client.api.GET("/api/v1/jobs/{jobId}", { params: { path: { jobId: "job_1" } } }));
    expect(got.outputFileId).toBe("file_1");
    expect(requests[0]!.url).toBe("http://api.test/api/v1/jobs/job_1");
    expect(requests[0]!.headers.get("x-api-key")).toBe("mrk_test");
    const failed = await data(
      client.api.GET("/api/v1/jobs/{jobId}", { params: { path: { jobId: "x" } } }),
    ).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(ApiError);
    expect(failed).toMatchObject({
      status: 404,
      message: "Job not found",
      details: { errors: [{ message: "m" }] },
    });
  });

  it("uploads a multipart form with the file and an Idempotency-Key", async () => {
    const { client, requests } = clientWith(() =>
      json(201, {
        success: true,
        data: {
          id: "f",
          filename: "a.png",
          originalName: "a.png",
          mimeType: "image/png",
          storageUrl: "/image/a.png",
          metadata: {},
          createdAt: at,
        },
      }),
    );
    const file = await client.upload(new Uint8Array([1, 2, 3]), "a.png", {
      ttlHours: 2,
      idempotencyKey: "k-1",
    });
    expect(file.storageUrl).toBe("/image/a.png");
    const sent = requests[0]!;
    expect(sent.method).toBe("POST");
    expect(sent.headers.get("idempotency-key")).toBe("k-1");
    expect(sent.headers.get("content-type")).toMatch(/^multipart\/form-data; boundary=/);
    const form = await sent.formData();
    expect(form.get("ttlHours")).toBe("2");
    expect(new Uint8Array(await (form.get("file") as File).arrayBuffer())).toEqual(new Uint8Array([1, 2, 3]));
  });

  it("reads events as EventSource does and reconnects with Last-Event-ID after `retry` until done", async () => {
    const progress = (percent: number) => ({
      id: "job_1",
      status: "PROCESSING",
      progress: { percent, stage: "encoding" },
      updatedAt: at,
    });
    // CRLF line ends, a comment, data split over lines, an id and a retry; the stream ends before `done`.
    const first = [
      ": keep-alive\r\n\r\n",
      "retry: 5\r\nid: 7\r\nevent: progress\r\n",
      `data: ${JSON.stringify(progress(10)).replace(",", ",\r\ndata: ")}\r\n\r\n`,
      "event: other\r\ndata: ignored\r\n\r\n",
    ];
    const second = [
      `event: progress\ndata: ${JSON.stringify(progress(90))}\nid: 8\n\n`,
      `event: done\ndata: ${JSON.stringify(job)}\n\n`,
    ];
    const stream = (chunks: string[]) =>
      new Response(
        new ReadableStream({
          start(c) {
            // Split mid-line, as a network would.
            for (const chunk of chunks)
              for (const part of [chunk.slice(0, 7), chunk.slice(7)])
                c.enqueue(new TextEncoder().encode(part));
            c.close();
          },
        }),
        { headers: { "content-type": "text/event-stream" } },
      );
    const { client, requests } = clientWith((_, n) => stream(n === 1 ? first : second));
    const events = [];
    for await (const e of client.events("job_1")) events.push(e);
    expect(events.map((e) => e.event)).toEqual(["progress", "progress", "done"]);
    expect(events[0]!.data).toEqual(progress(10));
    expect(events[2]!.data).toMatchObject({ id: "job_1", status: "COMPLETED" });
    expect(requests.map((r) => r.headers.get("last-event-id"))).toEqual([null, "7"]);
    expect(requests[0]!.headers.get("accept")).toBe("text/event-stream");
  });

  it("throws the error envelope when the stream cannot open, and downloads bytes", async () => {
    const { client } = clientWith((request) =>
      request.url.endsWith("/events")
        ? json(404, { success: false, error: "Job not found" })
        : new Response(new Uint8Array([9, 8]), { headers: { "content-type": "image/png" } }),
    );
    await expect(client.events("job_x").next()).rejects.toMatchObject({
      status: 404,
      message: "Job not found",
    });
    expect(await client.download("file_1")).toEqual(new Uint8Array([9, 8]));
  });
});
