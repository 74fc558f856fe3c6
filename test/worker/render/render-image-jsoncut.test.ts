/**
 * An image job written the way JsonCut's documentation writes them (its "social media post": a gradient, a
 * card, a photo and texts in catalogue fonts named with `googleFont`), posted to the API and rendered by the
 * image queue: the answer carries no warnings, the output shows every layer, and the alias `catalogFont` draws
 * exactly the same picture.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { body, call, fixture, json, newAccount, upload } from "../helpers.ts";
import { decode, distance, type Decoded } from "./pixels.ts";

type Font = "googleFont" | "catalogFont";

const post = (font: Font, photo: string) => ({
  width: 540,
  height: 540,
  format: "png",
  layers: [
    {
      type: "gradient",
      x: 0,
      y: 0,
      width: 540,
      height: 540,
      gradient: { type: "linear", colors: ["#ff0000", "#0000ff"], direction: "horizontal" },
    },
    { type: "rectangle", x: 40, y: 40, width: 460, height: 460, fill: "#ffffff", borderRadius: 24 },
    { type: "image", path: photo, x: 70, y: 70, width: 400, height: 220, fit: "cover", borderRadius: 12 },
    {
      type: "text",
      text: "Weekend Sale",
      position: { x: 0.5, y: 0.62, originX: "center", originY: "center" },
      fontSize: 44,
      color: "#111111",
      align: "center",
      [font]: "Montserrat:700",
    },
    {
      type: "text",
      text: "Up to 50% off everything",
      x: 270,
      y: 380,
      fontSize: 22,
      color: "#444444",
      align: "center",
      [font]: "Open Sans:400",
    },
  ],
});

const renderJob = async (key: string, config: unknown) => {
  const res = await call("/api/v1/jobs", json("POST", { type: "image", config }, key));
  const created = await body<{ jobId: string; warnings: unknown[] }>(res);
  expect(res.status).toBe(201);
  expect(created.data!.warnings).toEqual([]);
  const jobId = created.data!.jobId;
  const job = await vi.waitFor(
    async () => {
      const row = await env.DB.prepare("SELECT status, output_file_id, error_message FROM jobs WHERE id = ?")
        .bind(jobId)
        .first<{ status: string; output_file_id: string; error_message: string | null }>();
      if (row!.status !== "COMPLETED" && row!.status !== "FAILED") throw new Error(row!.status);
      return row!;
    },
    { timeout: 25_000, interval: 100 },
  );
  expect(job.error_message).toBeNull();
  const out = await env.DB.prepare("SELECT storage_key FROM media_files WHERE id = ?")
    .bind(job.output_file_id)
    .first<{ storage_key: string }>();
  return decode(new Uint8Array(await (await env.FILES.get(out!.storage_key))!.arrayBuffer()));
};

/** Left- and rightmost dark pixel inside the card between rows `top` and `bottom`. */
const inkRows = (px: Decoded, top: number, bottom: number) => {
  let left = px.width;
  let right = -1;
  for (let y = top; y < bottom; y++)
    for (let x = 60; x < 480; x++) {
      if (px.at(x, y)[0] > 128) continue;
      left = Math.min(left, x);
      right = Math.max(right, x);
    }
  return { left, right };
};

/** Pixels that differ between two renders of the same size. */
const differing = (a: Decoded, b: Decoded) => {
  let n = 0;
  for (let y = 0; y < a.height; y++)
    for (let x = 0; x < a.width; x++) if (a.at(x, y).some((v, c) => v !== b.at(x, y)[c])) n++;
  return n;
};

describe("a JsonCut image config, as its documentation writes it", () => {
  it("renders every layer, and draws googleFont and its alias catalogFont alike", async () => {
    const { key } = await newAccount();
    const stored = await body<{ storageUrl: string }>(await upload(key, "img2.jpg", fixture("img2.jpg")));
    const photo = stored.data!.storageUrl;
    const google = await renderJob(key, post("googleFont", photo));
    // The gradient runs red to blue outside the card; the card is white; the photo is not.
    expect(distance(google.at(10, 270), [255, 0, 0])).toBeLessThan(40);
    expect(distance(google.at(530, 270), [0, 0, 255])).toBeLessThan(40);
    expect(distance(google.at(60, 480), [255, 255, 255])).toBeLessThan(5);
    expect(distance(google.at(270, 180), [255, 255, 255])).toBeGreaterThan(60);
    // Dark ink across both text lines.
    const title = inkRows(google, 300, 370);
    const line = inkRows(google, 375, 420);
    expect(title.right - title.left).toBeGreaterThan(200);
    expect(line.right - line.left).toBeGreaterThan(150);

    const alias = await renderJob(key, post("catalogFont", photo));
    expect(differing(alias, google)).toBe(0);
  });
});
