import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { createJob } from "../../../src/jobs/create-job.ts";
import { asCaller, fixture, newAccount } from "../helpers.ts";
import { decode, distance } from "./pixels.ts";
import { withDns } from "../fake-internet.ts";

const PIC = "https://cdn.example.com/img/pic.png";

describe("image jobs with a public URL input", () => {
  it("draws the copy imported into storage at creation", async () => {
    const { userId } = await newAccount();
    // A stand-in internet for the import (local runs cannot prove the SSRF guard against real hosts).
    const fetcher = withDns(async (r: Request) =>
      r.url === PIC
        ? new Response(fixture("emoji.png"), { headers: { "content-type": "image/png" } })
        : new Response("no", { status: 404 }),
    );
    const config = {
      width: 200,
      height: 100,
      backgroundColor: "#0000ff",
      layers: [{ type: "image", path: PIC, x: 0, y: 0, width: 100, height: 100 }],
    };
    const { jobId } = await createJob(asCaller(userId), { type: "image", config }, fetcher);
    const job = await vi.waitFor(
      async () => {
        const row = await env.DB.prepare(
          "SELECT status, output_file_id, error_message FROM jobs WHERE id = ?",
        )
          .bind(jobId)
          .first<{ status: string; output_file_id: string; error_message: string | null }>();
        if (row!.status !== "COMPLETED" && row!.status !== "FAILED") throw new Error(row!.status);
        return row!;
      },
      { timeout: 25_000, interval: 100 },
    );
    expect(job.error_message).toBeNull();
    expect(job.status).toBe("COMPLETED");
    const out = await env.DB.prepare("SELECT storage_key FROM media_files WHERE id = ?")
      .bind(job.output_file_id)
      .first<{ storage_key: string }>();
    const png = await decode(new Uint8Array(await (await env.FILES.get(out!.storage_key))!.arrayBuffer()));
    // The emoji's yellow face fills the middle of the image layer; the right half stays background blue.
    expect(distance(png.at(50, 20), [0, 0, 255])).toBeGreaterThan(100);
    expect(distance(png.at(150, 50), [0, 0, 255])).toBeLessThan(5);
  });
});
