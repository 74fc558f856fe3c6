import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { decodeImage, distance, pngSize } from "./pixels.ts";

const base = inject("baseUrl");
const key = inject("apiKey");
const fixtures = process.env.FIXTURES_DIR ?? join(process.cwd(), "..", "shared", "fixtures");

const api = async (path: string, init: RequestInit = {}) => {
  const res = await fetch(`${base}${path}`, { ...init, headers: { "x-api-key": key, ...init.headers } });
  return res;
};

describe("a user's first image job, end to end", () => {
  it("uploads a photo, creates an image job, watches it complete and downloads the PNG", async () => {
    const form = new FormData();
    form.set("file", new File([readFileSync(join(fixtures, "emoji.png"))], "emoji.png"));
    const up = await api("/api/v1/files/upload", { method: "POST", body: form });
    expect(up.status).toBe(201);
    const file = ((await up.json()) as { data: { storageUrl: string; id: string } }).data;

    const config = {
      width: 640,
      height: 360,
      backgroundColor: "#1e90ff",
      layers: [
        { type: "image", path: file.storageUrl, x: 40, y: 40, width: 200, height: 200 },
        // U+2588 FULL BLOCK: a glyph whose inside is solid, so a pixel inside it must be the text colour.
        { type: "text", text: "\u2588", x: 400, y: 80, fontSize: 120, color: "#ff0000" },
        { type: "text", text: "Hello", x: 320, y: 280, fontSize: 40, color: "#ffffff", align: "center" },
      ],
    };
    const created = await api("/api/v1/jobs", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ type: "image", config }),
    });
    expect(created.status).toBe(201);
    const { jobId, status, estimatedTokens } = (
      (await created.json()) as { data: { jobId: string; status: string; estimatedTokens: number } }
    ).data;
    expect(status).toBe("PENDING");
    expect(estimatedTokens).toBe(5);

    const seen = new Set<string>();
    let job:
      | { status: string; outputFileId: string | null; tokensUsed: number; errorMessage: string | null }
      | undefined;
    const deadline = Date.now() + 45_000;
    while (Date.now() < deadline) {
      job = ((await (await api(`/api/v1/jobs/${jobId}`)).json()) as { data: typeof job }).data;
      seen.add(job!.status);
      if (job!.status === "COMPLETED" || job!.status === "FAILED") break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(job?.errorMessage).toBeNull();
    expect(job?.status).toBe("COMPLETED");
    expect(job?.tokensUsed).toBe(5);

    const dl = await api(`/api/v1/files/${job!.outputFileId}/download`);
    expect(dl.status).toBe(200);
    expect(dl.headers.get("content-type")).toBe("image/png");
    const png = new Uint8Array(await dl.arrayBuffer());
    // KEEP_RENDERS=<folder>: the image is written there for a human look.
    if (process.env.KEEP_RENDERS) writeFileSync(join(process.env.KEEP_RENDERS, "e2e-image.png"), png);
    expect(pngSize(png)).toEqual({ width: 640, height: 360 });
    const px = decodeImage(png, 640, 360);
    // Background far from every layer.
    expect(distance(px.at(620, 10), [0x1e, 0x90, 0xff])).toBeLessThan(3);
    // Inside the image layer: emoji.png is not the background colour there, and is opaque at its centre.
    const centre = px.at(140, 140);
    expect(distance(centre, [0x1e, 0x90, 0xff])).toBeGreaterThan(60);
    // Inside the block glyph: pure red.
    expect(distance(px.at(430, 160), [255, 0, 0])).toBeLessThan(10);
    // The centred white "Hello" straddles x = 320 on the baseline band.
    let white = 0;
    for (let x = 260; x < 380; x++)
      for (let y = 285; y < 320; y++) if (distance(px.at(x, y), [255, 255, 255]) < 40) white++;
    expect(white).toBeGreaterThan(100);
  });
});
