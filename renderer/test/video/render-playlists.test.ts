/**
 * A playlist dressed as media (issue 42, finding A): an HLS playlist named .mp4, bare or behind an ID3 tag (ffmpeg
 * skips one before probing, so the playlist's signature is what it sees), whose segments are a local file outside the
 * job and a loopback URL. Neither the probe nor the render may open it with the hls demuxer: the job fails saying
 * what the file is, no segment is fetched, and POST /probe refuses it the same way.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeBrowser } from "../../src/video/raster/browser.ts";
import { startTestServer, type TestServer } from "../helpers/start-test-server.ts";
import { startWorkerStandIn, type WorkerStandIn } from "../helpers/worker-stand-in.ts";
import { FIXTURES } from "./media-helpers.ts";

let server: TestServer;
let worker: WorkerStandIn;

const REFUSED = "Unreadable media: the file is hls, not a picture, video or sound this service reads";

/** A two-segment playlist: a file of the renderer's machine, then a URL of the stand-in's. */
const playlist = () =>
  new TextEncoder().encode(
    [
      "#EXTM3U",
      "#EXT-X-TARGETDURATION:10",
      "#EXTINF:2,",
      `${FIXTURES}/kohlipe3.mp4`,
      "#EXTINF:2,",
      `${worker.base}/files/segment.mp4`,
      "#EXT-X-ENDLIST",
      "",
    ].join("\n"),
  );

/** An ID3v2.4 tag of no frames, then `body`. */
const id3 = (body: Uint8Array) =>
  new Uint8Array([...new TextEncoder().encode("ID3"), 4, 0, 0, 0, 0, 0, 0, ...body]);

beforeAll(async () => {
  server = await startTestServer({}, { tools: { ffmpeg: "5.1", ffprobe: "5.1", chromium: null } });
  worker = await startWorkerStandIn();
  worker.serve("playlist.mp4", playlist());
  worker.serve("id3-playlist.mp4", id3(playlist()));
});

afterAll(async () => {
  await server.close();
  await worker.close();
  await closeBrowser();
});

describe("an HLS playlist named .mp4", () => {
  for (const name of ["playlist.mp4", "id3-playlist.mp4"]) {
    it(`${name}: a video layer's job fails saying what the file is, and no segment is opened`, async () => {
      const jobId = `job_${name.replace(/\W/g, "_")}`;
      const ref = `/video/2026-01-15/u1/${name}`;
      const res = await server.signedFetch("/render/video", {
        method: "POST",
        body: JSON.stringify({
          jobId,
          config: {
            width: 64,
            height: 36,
            fps: 5,
            clips: [{ duration: 2, layers: [{ type: "video", path: ref }] }],
          },
          inputs: { [ref]: `${worker.base}/files/${name}?sig=1` },
          output: { uploadUrl: `${worker.base}/out/${jobId}.mp4`, format: "mp4" },
          callbackUrl: `${worker.base}/callback`,
        }),
      });
      expect(res.status).toBe(202);
      const final = await worker.final(jobId);
      expect(final).toMatchObject({ status: "failed", retryable: false, error: REFUSED });
      expect(worker.requests).not.toContain("GET /files/segment.mp4");
      expect(worker.puts.has(`/out/${jobId}.mp4`)).toBe(false);
    });

    it(`${name}: POST /probe answers 422 saying what the file is`, async () => {
      const bytes = name.startsWith("id3") ? id3(playlist()) : playlist();
      const res = await server.signedFetch("/probe", {
        method: "POST",
        headers: { "x-filename": name },
        body: bytes,
      });
      expect(res.status).toBe(422);
      expect(await res.json()).toEqual({ error: REFUSED });
      expect(worker.requests).not.toContain("GET /files/segment.mp4");
    });
  }
});
