/**
 * The console's working pages in Debian's Chromium, signed in (through the sign-in page and the dev outbox) as the
 * suite's pro account: jobs (the example rendered and compared with the landing page's picture, a captioned video
 * followed over its event stream and played, filters and search, cancelling a job that has not started, "open in
 * builder"), files (a dropped upload with its progress bar, preview, storageUrl, expiry, delete, a refused file),
 * webhooks (a real local receiver: the secret shown once verifies the signature, the delivery log with attempts
 * and response codes, a dead letter replayed, rotation, deletion) and a template's CSV batch, refused rows
 * reported per row, then followed to its ZIP. Every page is audited (test/e2e/console/harness.ts).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { unzipSync } from "fflate";
import type { Page } from "playwright-core";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { until } from "../poll.ts";
import { startReceiver, type Received, type Receiver } from "../webhook-receiver.ts";
import { audit, openBrowser, signIn, text, type Harness } from "./console/harness.ts";
import { imageDifference } from "./pixels.ts";

const base = inject("baseUrl");
const key = inject("apiKey");
const fixtures = process.env.FIXTURES_DIR ?? join(process.cwd(), "..", "shared", "fixtures");
const marker = `needle${Date.now()}`;
let h: Harness;
let page: Page;
let receiver: Receiver;

const api = async <T = Record<string, unknown>>(path: string, init: RequestInit = {}) => {
  const res = await fetch(`${base}${path}`, { ...init, headers: { "x-api-key": key, ...init.headers } });
  return { status: res.status, body: (await res.json()) as { success: boolean; data: T } };
};
const postJson = <T>(path: string, payload: unknown) =>
  api<T>(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(payload),
  });

beforeAll(async () => {
  receiver = await startReceiver();
  h = await openBrowser(base);
  page = h.page;
  const { body } = await api<{ email: string }>("/api/v1/account");
  await signIn(page, base, body.data.email);
});
afterAll(async () => {
  await h?.close();
  await receiver?.close();
});

/** The bytes at a same-origin path, fetched by the page (with its session cookie). */
const pageBytes = async (path: string) =>
  Uint8Array.from(
    Buffer.from(
      await page.evaluate(async (p) => {
        const buf = new Uint8Array(await (await fetch(p)).arrayBuffer());
        let s = "";
        for (const b of buf) s += String.fromCharCode(b);
        return btoa(s);
      }, path),
      "base64",
    ),
  );

describe("jobs", () => {
  it("renders the example from the Jobs page, follows it to the picture, the same as the landing page's", async () => {
    await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Jobs" }).click();
    await page.waitForURL(`${base}/console/jobs`);
    await page.getByRole("button", { name: "Render the example" }).click();
    await page.waitForURL(/\/console\/jobs\/job_/);
    const output = page.locator("img.preview");
    await expect
      .poll(() => output.evaluate((img: HTMLImageElement) => img.naturalWidth), { timeout: 30_000 })
      .toBe(1200);
    await expect.poll(() => text(page.locator(".badge").first())).toBe("Completed");
    const href = (await page.getByRole("link", { name: "Download WEBP" }).getAttribute("href"))!;
    expect(href).toMatch(/^\/api\/v1\/files\/[\w-]+\/download$/);
    const rendered = await pageBytes(href);
    const committed = readFileSync(join(process.cwd(), "web", "src", "console", "assets", "example.webp"));
    // The same config, the same renderer: the committed picture is what the config makes today.
    expect(imageDifference(rendered, committed).mean).toBeLessThan(1.5);
    await audit(page, "job");
    // "Open in builder" names the job in the link; the builder reads its config through the API.
    await page.getByRole("link", { name: "Open in builder" }).click();
    await page.waitForURL(/\/builder#job=job_/);
    await expect.poll(() => page.locator("#config").inputValue()).toContain("Summer sale");
    expect(await page.locator("#type").inputValue()).toBe("image");
    await page.goBack();
  });

  it("follows a captioned video over the event stream and plays it with its captions", async () => {
    const form = new FormData();
    form.set("file", new File([readFileSync(join(fixtures, "speech-en.wav"))], "speech-en.wav"));
    const up = await api<{ storageUrl: string }>("/api/v1/files/upload", { method: "POST", body: form });
    expect(up.status).toBe(201);
    const created = await postJson<{ jobId: string }>("/api/v1/jobs", {
      type: "video",
      config: {
        width: 320,
        height: 180,
        fps: 10,
        clips: [{ duration: 5, layers: [{ type: "title", text: marker }] }],
        audioTracks: [{ path: up.body.data.storageUrl }],
        autoSubtitles: true,
      },
    });
    expect(created.status).toBe(201);
    const streams: string[] = [];
    page.on("request", (r) => r.url().endsWith("/events") && streams.push(r.url()));
    await page.goto(`${base}/console/jobs/${created.body.data.jobId}`);
    // Progress arrives live while it renders, then the whole job.
    const seen = new Set<string>();
    const deadline = Date.now() + 90_000;
    while (Date.now() < deadline) {
      const status = await text(page.locator("h2 + div .badge"));
      seen.add(status);
      if (status === "Completed" || status === "Failed") break;
      await page.waitForTimeout(100);
    }
    expect([...seen]).toContain("Completed");
    expect(streams).toEqual([`${base}/api/v1/jobs/${created.body.data.jobId}/events`]);
    const video = page.locator("video.preview");
    await expect
      .poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 15_000 })
      .toBeGreaterThan(0);
    expect(await video.evaluate((v: HTMLVideoElement) => Math.round(v.duration))).toBe(5);
    expect(await page.locator("video.preview track").getAttribute("kind")).toBe("captions");
    const captions = page.getByRole("region", { name: "Captions" });
    await expect.poll(() => text(captions)).toMatch(/words in \d+ cues/);
    const vtt = (await captions.getByRole("link", { name: "VTT" }).getAttribute("href"))!;
    expect(new TextDecoder().decode(await pageBytes(vtt))).toMatch(/^WEBVTT/);
    for (const name of ["SRT", "Transcript (JSON)"]) await captions.getByRole("link", { name }).waitFor();
    await audit(page, "job-video");
  });

  it("filters the list by status and type and searches the configs, in the address bar", async () => {
    await page.goto(`${base}/console/jobs`);
    await page.getByLabel("Search").fill(marker);
    await page.waitForURL(`${base}/console/jobs?search=${marker}`);
    await expect.poll(() => page.locator("tbody tr").count()).toBe(1);
    await expect.poll(() => text(page.locator("tbody tr"))).toMatch(/video · mp4/);
    await page.getByLabel("Search").fill("");
    await page.getByLabel("Type").selectOption("IMAGE");
    await page.getByLabel("Status").selectOption("COMPLETED");
    await page.waitForURL(/type=IMAGE/);
    await expect
      .poll(async () =>
        (await page.locator("tbody tr td:nth-child(2)").allTextContents()).every((t) =>
          t.startsWith("image"),
        ),
      )
      .toBe(true);
    expect((await page.locator("tbody .badge").allTextContents()).every((t) => t === "Completed")).toBe(true);
    await audit(page, "jobs");
    await page.getByLabel("Search").fill("no-such-job-anywhere");
    await page.getByText("No job matches these filters.").waitFor();
  });

  it("cancels a job that has not started (a batch's row waiting for its turn)", async () => {
    const template = await postJson<{ id: string }>("/api/v2/templates", {
      name: "slow rows",
      type: "video",
      config: {
        width: 160,
        height: 90,
        fps: 10,
        clips: [{ duration: 4, layers: [{ type: "title", text: "{{n}}" }] }],
      },
    });
    const rows = Array.from({ length: 16 }, (_, i) => ({ n: `row ${i + 1}` }));
    const batch = await postJson<{ batchId: string }>(`/api/v2/templates/${template.body.data.id}/batches`, {
      rows,
    });
    expect(batch.status).toBe(201);
    const state = await api<{ jobs: { jobId: string; status: string }[] }>(
      `/api/v2/batches/${batch.body.data.batchId}`,
    );
    const waiting = state.body.data.jobs.at(-1)!;
    expect(waiting.status).toBe("PENDING");
    await page.goto(`${base}/console/jobs/${waiting.jobId}`);
    await page.getByRole("button", { name: "Cancel job" }).click();
    await page.getByRole("button", { name: "Yes" }).click();
    await expect.poll(() => text(page.locator("h2 + div .badge"))).toBe("Cancelled");
    // The rest of the batch is cancelled from its page.
    await page.goto(`${base}/console/batches/${batch.body.data.batchId}`);
    await audit(page, "batch-running");
    await page.getByRole("button", { name: "Cancel batch" }).click();
    await page.getByRole("button", { name: "Yes" }).click();
    await expect
      .poll(() => text(page.locator("h2 .badge")), { timeout: 60_000 })
      .toMatch(/Cancelled|Completed/);
  });
});

describe("files", () => {
  it("uploads a dropped file with a progress bar, lists, previews, copies its storageUrl, shows its expiry, deletes it", async () => {
    await page.goto(`${base}/console/files`);
    await page.getByLabel("Keep for").selectOption("72");
    // A slow uplink, so the progress bar is seen moving.
    const cdp = await h.context.newCDPSession(page);
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: 400 * 1024,
    });
    const bytes = readFileSync(join(fixtures, "img2.jpg")).toString("base64");
    const name = `${marker}.jpg`;
    const drop = await page.evaluateHandle(
      ({ b64, name }) => {
        const data = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
        const transfer = new DataTransfer();
        transfer.items.add(new File([data], name, { type: "image/jpeg" }));
        return transfer;
      },
      { b64: bytes, name },
    );
    await page.dispatchEvent(".dropzone", "dragover", { dataTransfer: drop });
    await page.dispatchEvent(".dropzone", "drop", { dataTransfer: drop });
    const bar = page.getByRole("progressbar", { name: `Uploading ${name}` });
    await bar.waitFor();
    await expect
      .poll(async () => Number(await bar.getAttribute("value")), { timeout: 10_000 })
      .toBeGreaterThan(5);
    await audit(page, "files-uploading");
    await page.getByText("Uploaded", { exact: true }).waitFor({ timeout: 30_000 });
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });

    const row = page
      .getByRole("row")
      .filter({ hasText: name })
      .filter({ has: page.getByRole("button", { name: "Delete" }) });
    await row.waitFor();
    await expect.poll(() => text(row)).toMatch(/image\/jpeg/);
    await expect.poll(() => text(row)).toMatch(/in (3 days|72 hours|2 days)/);
    const storageUrl = (await row.locator("code").textContent())!;
    expect(storageUrl).toMatch(/^\/image\/[\w/-]+\.jpg$/);
    await row.getByRole("button", { name: "Copy storageUrl" }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(storageUrl);
    await row.getByRole("button", { name: "Preview" }).click();
    const preview = page.getByRole("img", { name: `Preview of ${name}` });
    await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    await audit(page, "files");
    await row.getByRole("button", { name: "Delete" }).click();
    await page.getByRole("button", { name: "Yes" }).click();
    await expect.poll(() => page.locator("table").getByText(name).count()).toBe(0);

    // A file the service refuses: its reason next to its name.
    await page
      .locator("#file-input")
      .setInputFiles({ name: "notes.png", mimeType: "image/png", buffer: Buffer.from("not a picture") });
    await expect.poll(() => text(page.getByRole("alert"))).toMatch(/notes\.png|file|type/i);
  });
});

describe("webhooks", () => {
  it("creates an endpoint (secret once), logs deliveries with attempts and codes, replays a dead letter, rotates, deletes", async () => {
    const box = `console-${Date.now()}`;
    // The first attempt fails and asks for its retry 20 s later (Retry-After), so the endpoint is switched off before
    // it however slow the machine: the schedule's own 5 s were sometimes gone before the page had saved the switch.
    const url = `http://127.0.0.1:${receiver.port}/hook/${box}?fail=1&retryAfter=20`;
    await page.goto(`${base}/console/webhooks`);
    await page.getByLabel("Name").fill("Local receiver");
    await page.getByLabel("URL").fill("ftp://example.com/x");
    await page.getByRole("button", { name: "Create endpoint" }).click();
    await expect.poll(() => text(page.locator("#f-url-error"))).toMatch(/http/);
    await page.getByLabel("URL").fill(url);
    await page.getByRole("button", { name: "Create endpoint" }).click();
    const secret = await page
      .getByRole("textbox", { name: /Signing secret of "Local receiver"/ })
      .inputValue();
    expect(secret).toMatch(/^whsec_/);
    await audit(page, "webhooks");
    await page.getByRole("link", { name: "Open the endpoint" }).click();
    await page.waitForURL(/\/console\/webhooks\/[\w-]+$/);

    // A test event: the receiver answers 500 to the first attempt.
    await page.getByRole("button", { name: "Send test event" }).click();
    await page.getByText(/Queued as/).waitFor();
    const log = page.getByRole("region", { name: "Deliveries" });
    await expect
      .poll(() => text(log.locator("tbody tr").first()), { timeout: 15_000 })
      .toMatch(/webhook\.test.*Pending.*1\s*500/s);
    await log.getByRole("button", { name: "Attempts" }).click();
    await expect.poll(() => text(log.locator("table table"))).toMatch(/1\s*Failed\s*500/);
    await audit(page, "webhook");

    // Switched off before its retry (20 s later), the delivery is dead-lettered; on again, a replay delivers it.
    await page.getByLabel("Active (send events to it)").uncheck();
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByText("Saved.").waitFor();
    await expect
      .poll(() => text(log.locator("tbody tr").first()), { timeout: 60_000, interval: 500 })
      .toMatch(/Dead letter/);
    await page.getByLabel("Active (send events to it)").check();
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByText("Saved.").waitFor();
    await log.getByRole("button", { name: "Replay" }).click();
    await page.getByRole("button", { name: "Yes" }).click();
    await expect
      .poll(() => text(log.locator("tbody tr").first()), { timeout: 15_000 })
      .toMatch(/Delivered.*200/s);
    const received = (await (
      await fetch(`http://127.0.0.1:${receiver.port}/__box/${box}`)
    ).json()) as Received[];
    expect(received.map((r) => r.answered)).toEqual([500, 200]);
    const last = received.at(-1)!;
    // The secret shown once verifies the signature (Standard Webhooks).
    new Webhook(secret).verify(last.body, {
      "webhook-id": last.id,
      "webhook-timestamp": last.timestamp,
      "webhook-signature": last.signature,
    });

    // Rotation: a new secret, shown once, that signs the next delivery.
    await page.getByLabel("Old secret keeps signing for").selectOption("0");
    await page.getByRole("button", { name: "Rotate secret" }).click();
    const rotated = await page.getByRole("textbox", { name: "New signing secret:" }).inputValue();
    expect(rotated).not.toBe(secret);
    await page.getByRole("button", { name: "Send test event" }).click();
    await expect
      .poll(
        async () =>
          ((await (await fetch(`http://127.0.0.1:${receiver.port}/__box/${box}`)).json()) as Received[])
            .length,
        { timeout: 15_000 },
      )
      .toBe(3);
    const third = (
      (await (await fetch(`http://127.0.0.1:${receiver.port}/__box/${box}`)).json()) as Received[]
    )[2]!;
    new Webhook(rotated).verify(third.body, {
      "webhook-id": third.id,
      "webhook-timestamp": third.timestamp,
      "webhook-signature": third.signature,
    });

    await page.getByRole("button", { name: "Delete endpoint" }).click();
    await page.getByRole("button", { name: "Yes" }).click();
    await page.waitForURL(`${base}/console/webhooks`);
    await expect.poll(() => page.getByRole("row", { name: /Local receiver/ }).count()).toBe(0);
  }, 150_000);

  it("shows the job-callback secret on request, and logs the deliveries to a job's own webhookUrl with its metadata", async () => {
    const box = `console-callback-${Date.now()}`;
    const url = `http://127.0.0.1:${receiver.port}/hook/${box}`;
    const created = await postJson<{ jobId: string }>("/api/v1/jobs", {
      type: "image",
      config: { width: 40, height: 20, backgroundColor: "#123456", layers: [{ type: "text", text: "cb" }] },
      webhookUrl: url,
      metadata: { order: "console-42" },
    });
    expect(created.status).toBe(201);
    await page.goto(`${base}/console/webhooks`);
    await page.getByRole("link", { name: "Secret and deliveries" }).click();
    await page.waitForURL(`${base}/console/webhooks/job-callbacks`);
    // Hidden until asked for: the page shows the masked field (once its data is in), never the readable one. The
    // names are matched exactly: the masked field's label holds the readable one's.
    const secretBox = page.getByRole("textbox", { name: "Job-callback signing secret", exact: true });
    await page.getByLabel("Job-callback signing secret (hidden)", { exact: true }).waitFor();
    expect(await secretBox.count()).toBe(0);
    await page.getByRole("button", { name: "Show" }).click();
    const secret = await secretBox.inputValue();
    expect(secret).toMatch(/^whsec_/);
    const got = await until(
      "two job callbacks",
      async () => {
        const list = (await (
          await fetch(`http://127.0.0.1:${receiver.port}/__box/${box}`)
        ).json()) as Received[];
        return list.length >= 2 ? list : undefined;
      },
      30_000,
    );
    // The secret the page shows verifies them; the job's metadata rides in each.
    const events = got.map(
      (r) =>
        new Webhook(secret).verify(r.body, {
          "webhook-id": r.id,
          "webhook-timestamp": r.timestamp,
          "webhook-signature": r.signature,
        }) as { type: string; data: { jobId: string; metadata: unknown } },
    );
    expect(events.map((e) => e.type)).toEqual(["render.started", "render.completed"]);
    for (const e of events)
      expect(e.data).toMatchObject({ jobId: created.body.data.jobId, metadata: { order: "console-42" } });
    await page.getByRole("button", { name: "Reload" }).click();
    const log = page.getByRole("region", { name: "Deliveries" });
    await expect.poll(() => text(log.locator("tbody"))).toMatch(/render\.completed.*Delivered/s);
    await audit(page, "job-callbacks");
    // The job's page shows its callback and metadata.
    await page.goto(`${base}/console/jobs/${created.body.data.jobId}`);
    await expect.poll(() => text(page.locator(".facts"))).toContain("console-42");
    expect(await h.problems()).toEqual([]);
  }, 90_000);
});

describe("templates and batches", () => {
  it("edits a template, reports refused CSV rows per row, runs the batch and downloads its ZIP", async () => {
    await page.goto(`${base}/console/templates`);
    await page.locator("#f-name").fill(`Cards ${marker}`);
    await audit(page, "templates");
    await page.getByRole("button", { name: "Create template" }).click();
    await page.waitForURL(/\/console\/templates\/tpl_/);
    // An invalid edit: the service's message at the config field, with its path.
    const config = page.getByLabel("Config (JSON)");
    const valid = await config.inputValue();
    await config.fill(valid.replace('"width": 800', '"width": 0'));
    await page.getByRole("button", { name: "Save template" }).click();
    await expect.poll(() => text(page.locator("#f-config-error"))).toMatch(/config\.width/);
    await config.fill(valid.replace('"fontSize": 64', '"fontSize": 72'));
    await page.getByRole("button", { name: "Save template" }).click();
    await page.getByText("Saved").first().waitFor();

    // Row 2's colour is not one: the whole batch is refused, row by row, nothing charged.
    const rows = page.getByLabel("Rows (CSV)");
    await rows.fill("name,background\nAda,#112233\nGrace,not-a-colour\nLinus,#445566\n");
    await page.getByLabel("Name outputs by column (optional)").fill("name");
    await page.getByRole("button", { name: "Validate and run" }).click();
    const report = page.getByRole("region", { name: "Rows refused (nothing was charged)" });
    await expect.poll(() => text(report)).toMatch(/2\s*background/);
    await audit(page, "template");

    await rows.fill("name,background\nAda,#112233\nGrace,#0f766e\nLinus,#445566\n");
    await page.getByRole("button", { name: "Validate and run" }).click();
    await page.getByRole("link", { name: "Follow the batch" }).click();
    await page.waitForURL(/\/console\/batches\//);
    await page.getByRole("link", { name: "Download ZIP" }).waitFor({ timeout: 60_000 });
    await expect.poll(() => text(page.locator("h2 .badge"))).toBe("Completed");
    await audit(page, "batch");
    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download ZIP" }).click();
    const zip = unzipSync(new Uint8Array(readFileSync((await (await download).path())!)));
    expect(Object.keys(zip).sort()).toEqual(["Ada.png", "Grace.png", "Linus.png"]);
    for (const png of Object.values(zip)) expect([...png.subarray(1, 4)]).toEqual([0x50, 0x4e, 0x47]);
    expect(await h.problems()).toEqual([]);
  });
});
