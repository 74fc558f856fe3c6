/**
 * A template batch of VIDEO jobs on the running service: rows merged into a video template, rendered by the real
 * renderer through the video queue, announced by the batch's state, and downloaded as one ZIP of playable MP4s
 * whose frames show each row's values.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { unzipSync } from "fflate";
import { describe, expect, inject, it } from "vitest";
import { decodeImage, distance } from "./pixels.ts";

const base = inject("baseUrl");
const key = inject("apiKey");

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${base}${path}`, { ...init, headers: { "x-api-key": key, ...init.headers } });
const post = (path: string, payload: unknown) =>
  api(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(payload),
  });

const ROWS = [
  { bg: "#d62828", label: "Red", file: "red" },
  { bg: "#1d3557", label: "Navy", file: "navy" },
];
const rgb = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));

describe("a template batch of video jobs, end to end", () => {
  it(
    "renders each row to an MP4 with its own colour and length, zipped under the row's name",
    { timeout: 150_000 },
    async () => {
      const template = await post("/api/v2/templates", {
        name: "e2e video card",
        type: "video",
        config: {
          width: 160,
          height: 90,
          fps: 25,
          clips: [
            {
              duration: 1,
              layers: [
                { type: "fill-color", color: "{{bg}}" },
                { type: "title", text: "{{label}}", position: "bottom" },
              ],
            },
          ],
        },
      });
      const templateBody = (await template.json()) as { data: { id: string } };
      expect(template.status, JSON.stringify(templateBody)).toBe(201);

      const created = await post(`/api/v2/templates/${templateBody.data.id}/batches`, {
        rows: ROWS,
        nameColumn: "file",
      });
      const batch = (await created.json()) as { data: { batchId: string; accepted: number } };
      expect(created.status, JSON.stringify(batch)).toBe(201);
      expect(batch.data.accepted).toBe(2);

      let state: { status: string; counts: Record<string, number> } | undefined;
      const deadline = Date.now() + 120_000;
      while (Date.now() < deadline) {
        state = (
          (await (await api(`/api/v2/batches/${batch.data.batchId}`)).json()) as { data: typeof state }
        ).data;
        if (state!.status !== "RUNNING") break;
        await new Promise((r) => setTimeout(r, 250));
      }
      expect(state).toMatchObject({ status: "COMPLETED", counts: { COMPLETED: 2, FAILED: 0 } });

      const zip = await api(`/api/v2/batches/${batch.data.batchId}/output`);
      expect(zip.status).toBe(200);
      const entries = unzipSync(new Uint8Array(await zip.arrayBuffer()));
      const dir = mkdtempSync(join(tmpdir(), "mrs-e2e-vbatch-"));
      for (const row of ROWS) {
        const bytes = entries[`${row.file}.mp4`];
        expect(bytes, `${row.file}.mp4 in ${Object.keys(entries).join(", ")}`).toBeDefined();
        const file = join(dir, `${row.file}.mp4`);
        writeFileSync(file, bytes!);
        const duration = execFileSync(
          "ffprobe",
          ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", file],
          { encoding: "utf8" },
        );
        expect(Math.abs(Number(duration) - 1)).toBeLessThanOrEqual(0.08);
        const frame = join(dir, `${row.file}.png`);
        execFileSync("ffmpeg", ["-v", "error", "-ss", "0.5", "-i", file, "-frames:v", "1", "-y", frame]);
        const px = decodeImage(readFileSync(frame), 160, 90);
        expect(distance(px.at(10, 10), rgb(row.bg))).toBeLessThan(30);
      }
    },
  );
});
