/**
 * The visual builder (/builder, web/src/builder) in Debian's Chromium against the service `npm start` runs, signed
 * in as the suite's pro account through the sign-in page and the dev outbox, watched and audited like the console
 * (test/e2e/console/harness.ts: no other host, no policy violation, every API answer held to the OpenAPI document,
 * axe at 1280x800 and 390x844, screenshots into docs/builder/ with UPDATE_SCREENSHOTS=1):
 * - an image built by adding layers from the list and editing them in the panels;
 * - the canvas: drag to move (snapping to the centre), a handle to resize, arrow keys to nudge and resize;
 * - the JSON view both ways, undo and redo, a validation error at its field in the panel and in the JSON view;
 * - the render of the config compared with the preview's pixels, and so text fitted into its box (minFontSize and
 *   maxFontSize): the preview sizes it as the service does;
 * - a video: the timeline edited (duration by keyboard, a transition picked by its thumbnail, a clip and an audio
 *   track added), a frame at the playhead and a low-resolution render of the whole video, both by the service;
 * - saving as a template with a {{variable}}, and a layer's template condition;
 * - the preview frame's isolation: a user's html layer reaches neither the network nor the builder's session;
 * - a config from a link runs its html layers' scripts only once the user agrees; a typed config and the account's
 *   own job (the console's "Open in builder") run at once.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Frame, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { audit, openBrowser, signIn, text, type Harness } from "./console/harness.ts";
import { imageDifference } from "./pixels.ts";

const base = inject("baseUrl");
const key = inject("apiKey");
const fixtures = process.env.FIXTURES_DIR ?? join(process.cwd(), "..", "shared", "fixtures");
let h: Harness;
let page: Page;
let picture: string;
let audio: string;

const api = async <T = Record<string, unknown>>(path: string, init: RequestInit = {}) => {
  const res = await fetch(`${base}${path}`, { ...init, headers: { "x-api-key": key, ...init.headers } });
  return { status: res.status, body: (await res.json()) as { success: boolean; data: T } };
};
const uploadFixture = async (name: string) => {
  const form = new FormData();
  form.set("file", new File([readFileSync(join(fixtures, name))], name));
  const up = await api<{ storageUrl: string }>("/api/v1/files/upload", { method: "POST", body: form });
  expect(up.status).toBe(201);
  return up.body.data.storageUrl;
};

/** The builder with `config` handed over in its link, as the console's "Open in builder" does. */
const openWith = async (type: "image" | "video", config: unknown) => {
  const link = Buffer.from(JSON.stringify({ type, config })).toString("base64url");
  await page.goto(`${base}/builder#config=${link}`);
  await page.getByRole("heading", { name: type === "image" ? "Layers" : "Timeline" }).waitFor();
};
/** The config in the JSON view. */
const configNow = async () => JSON.parse(await page.locator("#config").inputValue());
const layersNow = async () => (await configNow()).layers as Record<string, unknown>[];
/**
 * Waits for the builder's verdict to become `expected`: right after an edit the panel may still show the verdict of
 * the config before it (validation is debounced), so the verdict is polled for, never read once.
 */
const verdictBecomes = (expected: RegExp) =>
  expect.poll(() => text(page.locator("#estimate")), { timeout: 15_000 }).toMatch(expected);
/** What the builder's live region last told a screen reader. */
const announced = () => text(page.locator("#announcer"));
const previewFrame = (): Frame => page.frames().find((f) => f.url().endsWith("/builder/preview"))!;
/** Fonts and pictures of the preview loaded. */
const previewSettled = () =>
  expect
    .poll(() =>
      previewFrame().evaluate(
        () =>
          document.fonts.status === "loaded" &&
          [...document.images].every((i) => i.complete && i.naturalWidth > 0) &&
          document.body.children.length > 0,
      ),
    )
    .toBe(true);
/**
 * axe at both sizes and the screenshots, from the top of the page: Chromium stops painting a frame scrolled out of
 * view, so a full-page screenshot taken further down shows an empty preview the user would never see.
 */
const shoot = async (name: string) => {
  await page.evaluate(() => scrollTo(0, 0));
  if (await page.locator(".frame iframe").count()) await previewSettled();
  await page.evaluate(() => new Promise(requestAnimationFrame));
  await audit(page, name, "builder");
};
const boxOf = async (n: number) => (await page.locator(".overlay .box").nth(n).boundingBox())!;
/** Where layer n's box is on the canvas, in canvas pixels at 100 %. */
const onCanvas = async (n: number) => {
  const frame = (await page.locator(".frame").boundingBox())!;
  const box = await boxOf(n);
  return { x: Math.round(box.x - frame.x), y: Math.round(box.y - frame.y) };
};

/**
 * The preview at 100 % (nothing focused or hovered) as a PNG, and the service's render of the same config through the
 * builder's Render button.
 */
const previewAndRender = async (width: number, height: number) => {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.getByLabel("Zoom").first().selectOption("1");
  await page.evaluate(() => scrollTo(0, 0));
  await page.mouse.move(1, 1);
  await previewSettled();
  const frame = (await page.locator(".frame iframe").boundingBox())!;
  const preview = await page.screenshot({
    clip: { x: Math.round(frame.x), y: Math.round(frame.y), width, height },
  });
  await page.locator("#render").click();
  const output = page.locator("img#rendered");
  await expect
    .poll(() => output.evaluate((img: HTMLImageElement) => img.naturalWidth), { timeout: 60_000 })
    .toBe(width);
  const rendered = Uint8Array.from(
    Buffer.from(
      await page.evaluate(
        async (src) => {
          const bytes = new Uint8Array(await (await fetch(src!)).arrayBuffer());
          let s = "";
          for (const b of bytes) s += String.fromCharCode(b);
          return btoa(s);
        },
        await output.getAttribute("src"),
      ),
      "base64",
    ),
  );
  return { preview, rendered };
};

beforeAll(async () => {
  picture = await uploadFixture("img2.jpg");
  audio = await uploadFixture("sample1.m4a");
  h = await openBrowser(base);
  page = h.page;
  const { body } = await api<{ email: string }>("/api/v1/account");
  await signIn(page, base, body.data.email);
});
afterAll(async () => {
  await h?.close();
});

describe("an image", () => {
  it("is built by adding layers from the list and editing them in the panels", async () => {
    await openWith("image", {
      width: 600,
      height: 340,
      backgroundColor: "#0f172a",
      layers: [{ type: "rectangle", x: 0, y: 0, width: 600, height: 90, fill: "#1d4ed8" }],
    });
    await page.locator(".overlay .box").first().waitFor();
    await page.getByLabel("New layer").selectOption("text");
    await page.getByRole("button", { name: "Add layer" }).click();
    // The new layer is selected: its panel edits it.
    await page.locator("#p-config-layers-1--text").fill("Summer sale");
    await page.locator("#p-config-layers-1--fontSize").fill("48");
    await page.locator("#p-config-layers-1--color").fill("#fde68a");
    await page.locator("#p-config-layers-1--googleFont").fill("Poppins:700");
    await page.getByLabel("New layer").selectOption("image");
    await page.getByRole("button", { name: "Add layer" }).click();
    expect(await announced()).toBe("Layer 3 added and selected.");
    // An image layer takes a picture uploaded on the spot (through the session, with its progress)...
    await page.locator("#p-config-layers-2--path-upload").setInputFiles({
      name: "spot.png",
      mimeType: "image/png",
      buffer: readFileSync(join(fixtures, "emoji.png")),
    });
    await expect.poll(async () => (await layersNow())[2]!.path).toMatch(/^\/image\/.+\.png$/);
    const spot = (await layersNow())[2]!.path as string;
    expect(await page.locator("#p-config-layers-2--path option:checked").textContent()).toMatch(/^spot\.png/);
    // ...or picks from the account's pictures.
    await page.locator("#p-config-layers-2--path").selectOption(picture);
    expect(spot).not.toBe(picture);
    await page.locator("#p-config-layers-2--fit").selectOption("cover");
    await page.getByLabel("New layer").selectOption("circle");
    await page.getByRole("button", { name: "Add layer" }).click();
    await page.locator("#p-config-layers-3--opacity").fill("0.8");
    const layers = await layersNow();
    expect(layers.map((l) => l.type)).toEqual(["rectangle", "text", "image", "circle"]);
    expect(layers[1]).toMatchObject({
      text: "Summer sale",
      fontSize: 48,
      color: "#fde68a",
      googleFont: "Poppins:700",
    });
    expect(layers[2]).toMatchObject({ path: picture, fit: "cover" });
    expect(layers[3]).toMatchObject({ opacity: 0.8 });
    await expect.poll(() => page.locator(".overlay .box").count()).toBe(4);
    await verdictBecomes(/^Valid · 6 tokens estimated/);
    // The list: reorder, hide (in the editor only), remove.
    await page.getByRole("button", { name: "Move layer 4 down (towards the bottom)" }).click();
    expect((await layersNow()).map((l) => l.type)).toEqual(["rectangle", "text", "circle", "image"]);
    expect(await announced()).toBe("Layer 4 moved to position 3 of 4.");
    await page.getByRole("button", { name: "Hide layer 3 in the preview" }).click();
    await expect.poll(() => page.locator(".overlay .box").count()).toBe(3);
    expect(
      await previewFrame().evaluate(() => (document.body.children[2] as HTMLElement).style.visibility),
    ).toBe("hidden");
    expect((await layersNow()).length).toBe(4);
    await page.getByRole("button", { name: "Hide layer 3 in the preview" }).click();
    await page.getByRole("button", { name: "Remove layer 3" }).click();
    expect((await layersNow()).map((l) => l.type)).toEqual(["rectangle", "text", "image"]);
    expect(await announced()).toBe("Layer 3 removed.");
    await shoot("image");
  });

  it("moves a layer by dragging it (snapping to the centre), resizes it by a handle, nudges it by keyboard", async () => {
    await page.getByLabel("Zoom").first().selectOption("1");
    const image = await boxOf(2);
    const before = (await layersNow())[2]!;
    expect(Math.round(image.width)).toBe(before.width);
    // Drag by (+41, +23) screen pixels at 100 %: the layer moves as far.
    await page.getByLabel("Snap to centre and edges").uncheck();
    await page.mouse.move(image.x + 20, image.y + 20);
    await page.mouse.down();
    await page.mouse.move(image.x + 40, image.y + 30, { steps: 3 });
    await page.mouse.move(image.x + 61, image.y + 43, { steps: 3 });
    await page.mouse.up();
    expect((await layersNow())[2]).toMatchObject({
      x: (before.x as number) + 41,
      y: (before.y as number) + 23,
    });
    // With snapping, a drag that ends near the centre puts the layer's centre on the canvas's.
    await page.getByLabel("Snap to centre and edges").check();
    const moved = await boxOf(2);
    const frame = (await page.locator(".frame").boundingBox())!;
    const toCentre = frame.x + 300 - (moved.x + moved.width / 2) + 3;
    await page.mouse.move(moved.x + 10, moved.y + 10);
    await page.mouse.down();
    await page.mouse.move(moved.x + 10 + toCentre / 2, moved.y + 10, { steps: 2 });
    await page.mouse.move(moved.x + 10 + toCentre, moved.y + 10, { steps: 2 });
    await expect.poll(() => page.locator(".guide.x").count()).toBeGreaterThan(0);
    await page.mouse.up();
    const centred = (await layersNow())[2]!;
    // Whole pixels: an odd width centres to within half a pixel.
    expect(Math.abs((centred.x as number) + (centred.width as number) / 2 - 300)).toBeLessThanOrEqual(0.5);
    // The south-east handle: 30 wider, 20 taller.
    await page.getByLabel("Snap to centre and edges").uncheck();
    const handle = (await page.locator(".box.selected .h-se").boundingBox())!;
    await page.mouse.move(handle.x + 6, handle.y + 6);
    await page.mouse.down();
    await page.mouse.move(handle.x + 36, handle.y + 26, { steps: 4 });
    await page.mouse.up();
    const resized = (await layersNow())[2]!;
    expect(resized).toMatchObject({
      width: (centred.width as number) + 30,
      height: (centred.height as number) + 20,
    });
    expect(resized).toMatchObject({ x: centred.x, y: centred.y });
    // Keyboard: the focused box moves with the arrows (Shift: 10 px) and grows with Alt.
    await page.locator(".box.selected").focus();
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("Shift+ArrowDown");
    // Each change is spoken by the live region: a screen reader hears where the layer went.
    expect(await announced()).toBe(
      `Layer 3: x ${(resized.x as number) + 2}, y ${(resized.y as number) + 10}.`,
    );
    await page.keyboard.press("Alt+ArrowRight");
    expect((await layersNow())[2]).toMatchObject({
      x: (resized.x as number) + 2,
      y: (resized.y as number) + 10,
      width: (resized.width as number) + 1,
    });
    expect(await announced()).toBe(
      `Layer 3: width ${(resized.width as number) + 1}, height ${resized.height as number}.`,
    );
    // Tab reaches every layer's box, and focus selects it.
    await page.keyboard.press("Shift+Tab");
    await expect.poll(() => text(page.locator("#properties-title"))).toMatch(/^Layer 2: text/);
  });

  it("keeps the JSON view and the canvas in sync both ways, with undo and redo", async () => {
    const json = await configNow();
    json.layers[1].x = 40;
    json.layers[1].y = 200;
    json.layers[1].align = "left";
    await page.locator("#config").fill(JSON.stringify(json, null, 2));
    await expect.poll(() => onCanvas(1)).toEqual({ x: 40, y: 200 });
    // Text that is not JSON is reported at its line and changes nothing.
    await page.locator("#config").fill('{ "width": 600, ');
    await expect.poll(() => text(page.locator(".json-problems"))).toMatch(/^Line 1: not JSON/);
    expect(await onCanvas(1)).toEqual({ x: 40, y: 200 });
    // Back from the panel: the JSON view follows every change made elsewhere.
    await page.locator(".overlay .box").nth(1).click();
    await page.locator("#p-config-layers-1--x").fill("64");
    expect((await layersNow())[1]).toMatchObject({ x: 64, y: 200 });
    await page.getByRole("button", { name: "Undo" }).click();
    expect((await layersNow())[1]).toMatchObject({ x: 40 });
    expect(await announced()).toMatch(/^Undone; \d+ more steps? to undo\.$/);
    await page.keyboard.press("Control+Shift+z");
    expect((await layersNow())[1]).toMatchObject({ x: 64 });
    await page.keyboard.press("Control+z");
    await page.keyboard.press("Control+z");
    // Before the JSON edit: the text layer where the panel put it.
    expect((await layersNow())[1]!.x).not.toBe(40);
    await page.getByRole("button", { name: "Redo" }).click();
    expect((await layersNow())[1]).toMatchObject({ x: 40, y: 200 });
  });

  it("shows a validation error at its field, in the panel and in the JSON view, until it is fixed", async () => {
    await page.locator(".overlay .box").nth(1).click();
    await page.locator("#p-config-layers-1--fontSize").fill("-5");
    await verdictBecomes(/^1 error/);
    const field = page.locator("#p-config-layers-1--fontSize");
    await expect.poll(() => field.getAttribute("aria-invalid")).toBe("true");
    expect(await text(page.locator("#p-config-layers-1--fontSize-error"))).toBe("must be greater than 0");
    const line =
      (await page.locator("#config").inputValue())
        .split("\n")
        .findIndex((l) => l.includes('"fontSize": -5')) + 1;
    expect(await text(page.locator(".json-problems li"))).toBe(
      `Line ${line} config.layers[1].fontSize: must be greater than 0`,
    );
    expect(await page.locator(".gutter .error").allTextContents()).toEqual([String(line)]);
    await page.getByLabel("Zoom").first().selectOption("fit");
    await shoot("image-error");
    await page.locator("#p-config-layers-1--fontSize").fill("48");
    await verdictBecomes(/^Valid/);
    expect(await page.locator(".gutter .error").count()).toBe(0);
  });

  it("renders the config through the API, and the service's picture is the preview's, pixel for pixel", async () => {
    // Nothing selected, nothing focused, nothing hovered: the overlay draws nothing over the preview.
    await page.locator(".overlay .box").nth(1).focus();
    await page.keyboard.press("Escape");
    await expect.poll(() => text(page.locator("#properties-title"))).toBe("Canvas");
    const { preview, rendered } = await previewAndRender(600, 340);
    const { mean, over } = imageDifference(preview, rendered);
    // The same compile step and fonts on both sides: only the odd antialiased edge may differ.
    expect(mean).toBeLessThan(1);
    expect(over).toBeLessThan(0.005);
  });

  it("saves the config as a template with its {{variables}}", async () => {
    await page.locator(".overlay .box").nth(1).click();
    await page.locator("#p-config-layers-1--text").fill("{{headline}}");
    await page.getByLabel("Template name").fill("Sale card from the builder");
    const variable = page.getByRole("group", { name: "Variable headline" });
    await variable.getByLabel("Default").fill("Summer sale");
    await page.getByRole("button", { name: "Save as template" }).click();
    const saved = page.getByText(/Saved template “Sale card from the builder” with 1 variable/);
    await saved.waitFor();
    const id = /\/console\/templates\/([\w-]+)$/.exec(
      (await page.getByRole("link", { name: "Open it in the console" }).getAttribute("href"))!,
    )![1]!;
    const stored = await api<{ config: { layers: { text?: string }[] }; variables: unknown[] }>(
      `/api/v2/templates/${id}`,
    );
    expect(stored.body.data.config.layers[1]!.text).toBe("{{headline}}");
    expect(stored.body.data.variables).toEqual([
      expect.objectContaining({ name: "headline", type: "string", required: true, default: "Summer sale" }),
    ]);
    await shoot("template");
    expect(await h.problems()).toEqual([]);
  });
});

describe("a template condition", () => {
  it("is set in a layer's panel, shown in the layer list, set aside by checks and preview, and kept per render", async () => {
    await page.locator(".overlay .box").nth(0).click();
    const condition = page.getByRole("group", { name: "Template condition" });
    await condition.getByLabel("Show").selectOption("equals");
    await condition.getByLabel("Variable").fill("badge");
    await condition.getByLabel("Value").fill("sale");
    expect((await layersNow())[0]!.when).toEqual({ var: "badge", equals: "sale" });
    await expect.poll(() => text(page.locator(".layers .layer-list"))).toContain("if badge = sale");
    // The job grammar knows no `when`: the builder's own checks and preview show every layer.
    await verdictBecomes(/^Valid/);
    expect(await page.locator(".overlay .box").count()).toBe((await layersNow()).length);
    await page.getByLabel("Template name").fill("Conditional card");
    const badge = page.getByRole("group", { name: "Variable badge" });
    await badge.waitFor();
    await page.getByRole("button", { name: "Save as template" }).click();
    await page.getByText(/Saved template “Conditional card” with 2 variables/).waitFor();
    const id = /\/console\/templates\/([\w-]+)$/.exec(
      (await page.getByRole("link", { name: "Open it in the console" }).getAttribute("href"))!,
    )![1]!;
    const stored = await api<{ variables: unknown[] }>(`/api/v2/templates/${id}`);
    expect(stored.body.data.variables).toEqual(
      expect.arrayContaining([{ name: "badge", type: "string", required: false }]),
    );
    const layers = (await layersNow()).length;
    const render = async (variables: Record<string, string>) => {
      const res = await api<{ jobId: string }>(`/api/v2/templates/${id}/renders`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ variables }),
      });
      expect(res.status).toBe(201);
      const job = await api<{ config: { layers: unknown[] } }>(`/api/v1/jobs/${res.body.data.jobId}`);
      return job.body.data.config.layers.length;
    };
    expect(await render({ badge: "sale" })).toBe(layers);
    expect(await render({})).toBe(layers - 1);
    // Back to always: the condition is gone from the layer.
    await condition.getByLabel("Show").selectOption("always");
    expect((await layersNow())[0]).not.toHaveProperty("when");
    expect(await h.problems()).toEqual([]);
  });
});

describe("a video", () => {
  it("is edited on the timeline, its frame and a low-resolution render come from the service", async () => {
    await openWith("video", {
      width: 640,
      height: 360,
      fps: 25,
      defaults: { transition: { name: "fade", duration: 0.5 } },
      clips: [
        {
          duration: 2,
          layers: [
            { type: "fill-color", color: "#1d4ed8" },
            { type: "title", text: "First" },
          ],
        },
        {
          duration: 2,
          layers: [
            { type: "fill-color", color: "#b91c1c" },
            { type: "title", text: "Second" },
          ],
        },
      ],
    });
    await expect.poll(() => text(page.locator(".timeline-head .muted"))).toMatch(/^2 clips · 3\.48 s/);
    // Clip 1: longer, by its panel.
    await page.getByRole("button", { name: /^Clip 1 / }).click();
    await page.locator("#p-config-clips-0--duration").fill("3");
    // Clip 2: 0.2 s longer, by keyboard.
    await page.getByRole("button", { name: /^Clip 2 / }).focus();
    await page.keyboard.press("Alt+ArrowRight");
    await page.keyboard.press("Alt+ArrowRight");
    expect(await announced()).toBe("Clip 2: duration 2.2.");
    const clips = (await configNow()).clips as { duration: number; transition?: unknown }[];
    expect(clips.map((c) => c.duration)).toEqual([3, 2.2]);
    // Clip 1's own transition, picked by its thumbnail.
    await page.getByRole("button", { name: /^Clip 1 / }).click();
    await page.getByRole("radio", { name: "its own" }).check();
    await page.getByRole("button", { name: "Browse thumbnails" }).click();
    await page.getByRole("searchbox", { name: "Filter" }).fill("circle");
    const thumb = page.getByRole("button", { name: "circleopen", exact: true });
    expect(await thumb.locator(".thumb-t").evaluate((el) => getComputedStyle(el).backgroundImage)).toMatch(
      /\/web\/assets\/transitions-[\w-]+\.(webp|png)/,
    );
    await thumb.click();
    expect(((await configNow()).clips as { transition: unknown }[])[0]!.transition).toEqual({
      name: "circleopen",
      duration: 0.5,
    });
    await expect
      .poll(() => page.locator(".transition-chip").getAttribute("aria-label"))
      .toMatch(/circleopen/);
    // A third clip, and an audio track from the account's files.
    await page.getByRole("button", { name: "Add clip" }).click();
    await page.getByRole("button", { name: "Video settings" }).click();
    await page.getByRole("button", { name: "Add an audio track" }).click();
    await page.locator("#p-config-audioTracks-0--path").selectOption(audio);
    const config = await configNow();
    expect(config.clips).toHaveLength(3);
    expect(config.audioTracks).toEqual([{ path: audio }]);
    await expect
      .poll(() => page.getByRole("list", { name: "Audio tracks" }).getByRole("button").count())
      .toBe(1);
    await verdictBecomes(/^Valid/);
    await shoot("video");

    // The frame at 1 s, drawn by the renderer.
    await page.getByLabel("Playhead").evaluate((el: HTMLInputElement) => {
      el.value = "1";
      el.dispatchEvent(new Event("input", { bubbles: true }));
    });
    await page.getByRole("button", { name: "Render the frame at the playhead" }).click();
    const still = page.locator("img#frame-preview");
    await expect
      .poll(() => still.evaluate((img: HTMLImageElement) => img.naturalWidth), { timeout: 60_000 })
      .toBeGreaterThan(100);
    // Clip 1's picture: its blue fill, at the preview's size.
    const centre = await still.evaluate((img: HTMLImageElement) => {
      const c = document.createElement("canvas");
      c.width = img.naturalWidth;
      c.height = img.naturalHeight;
      const g = c.getContext("2d")!;
      g.drawImage(img, 0, 0);
      return [...g.getImageData(4, 4, 1, 1).data];
    });
    expect(centre[2]).toBeGreaterThan(150);
    expect(centre[0]).toBeLessThan(80);
    const status = await text(page.locator(".frame-status"));
    expect(status).toMatch(/^Frame at 1 s, \d+x\d+ \(preview size\), job job_/);
    // One still job of the whole config at 1 s (not a video cut from it), its output the frame as a PNG.
    const stillJob = await api<{ config: { still?: unknown; clips: unknown[] }; outputFormat: string }>(
      `/api/v1/jobs/${/job (job_\w+)/.exec(status)![1]}`,
    );
    expect(stillJob.body.data.config.still).toEqual({ time: 1 });
    expect(stillJob.body.data.config.clips).toHaveLength(3);
    expect(stillJob.body.data.outputFormat).toBe("png");

    // The whole video at low resolution, in a player.
    await page.getByRole("button", { name: "Preview the whole video (low resolution)" }).click();
    const player = page.locator("video#rendered");
    await expect
      .poll(() => player.evaluate((v: HTMLVideoElement) => v.videoWidth), { timeout: 90_000 })
      .toBeGreaterThan(0);
    const { width, duration } = await player.evaluate((v: HTMLVideoElement) => ({
      width: v.videoWidth,
      duration: v.duration,
    }));
    expect(width).toBeLessThan(400);
    const total = Number(/· ([\d.]+) s ·/.exec(await text(page.locator(".timeline-head .muted")))![1]);
    expect(Math.abs(duration - total)).toBeLessThan(0.2);
    await shoot("video-rendered");
    expect(await h.problems()).toEqual([]);
  });
});

describe("a video layer's keyframes", () => {
  it("are added at the playhead, dragged, given an easing and deleted on the timeline, and the frame draws their value", async () => {
    await openWith("video", {
      width: 320,
      height: 180,
      fps: 10,
      clips: [
        {
          duration: 2,
          layers: [
            { type: "pause", color: "black" },
            { type: "fill-color", color: "white" },
          ],
        },
      ],
    });
    await page.getByRole("button", { name: /^Clip 1 / }).click();
    await page.getByRole("button", { name: "2. fill-color" }).click();
    const lane = page.getByRole("list", { name: "Keyframes of opacity" });
    const playheadAt = (seconds: number) =>
      page.getByLabel("Playhead").evaluate((el: HTMLInputElement, s) => {
        el.value = String(s);
        el.dispatchEvent(new Event("input", { bubbles: true }));
      }, seconds);
    const opacityNow = async () =>
      ((await configNow()).clips as { layers: { opacity?: unknown }[] }[])[0]!.layers[1]!.opacity;
    // Two keyframes: at 0 s (value 0, typed) and at 1.5 s (holding the value shown there, 0, then typed 1).
    const value = page.getByLabel("Value", { exact: true });
    await playheadAt(0);
    await page.getByRole("button", { name: "Add keyframe at the playhead" }).click();
    await value.fill("0");
    await value.press("Tab");
    await playheadAt(1.5);
    await page.getByRole("button", { name: "Add keyframe at the playhead" }).click();
    await expect.poll(() => value.inputValue()).toBe("0");
    await value.fill("1");
    await value.press("Tab");
    expect(await opacityNow()).toEqual([
      { time: 0, value: 0 },
      { time: 1.5, value: 1 },
    ]);
    // The second dragged 0.5 s earlier, then nudged a frame later by keyboard.
    const second = lane.getByRole("button").nth(1);
    const box = (await second.boundingBox())!;
    const pps =
      (await lane
        .getByRole("button")
        .nth(1)
        .evaluate((el) => el.parentElement!.offsetLeft)) / 1.5;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 - pps * 0.5, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    await second.focus();
    await page.keyboard.press("ArrowRight");
    // The first eases in.
    await lane.getByRole("button").nth(0).click();
    await page.getByLabel("Easing", { exact: true }).selectOption("ease-in");
    expect(await opacityNow()).toEqual([
      { time: 0, value: 0, easing: "ease-in" },
      { time: 1.1, value: 1 },
    ]);
    // The value the lane shows at the playhead is the contract's.
    await playheadAt(0.5);
    await expect
      .poll(() => text(page.locator(".keyframe-value")))
      .toMatch(/^opacity at 0\.5 s of the layer: 0\.2\d+$/);
    await verdictBecomes(/^Valid/);
    await shoot("video-keyframes");
    // The frame at 0.5 s, drawn by the renderer, is as grey as the curve says there.
    await page.getByRole("button", { name: "Render the frame at the playhead" }).click();
    const still = page.locator("img#frame-preview");
    await expect
      .poll(() => still.evaluate((img: HTMLImageElement) => img.naturalWidth), { timeout: 60_000 })
      .toBeGreaterThan(100);
    const grey = await still.evaluate((img: HTMLImageElement) => {
      const c = document.createElement("canvas");
      c.width = img.naturalWidth;
      c.height = img.naturalHeight;
      const g = c.getContext("2d")!;
      g.drawImage(img, 0, 0);
      return g.getImageData(c.width / 2, c.height / 2, 1, 1).data[0]!;
    });
    const expected = 255 * Number(/: ([\d.]+)$/.exec(await text(page.locator(".keyframe-value")))![1]);
    expect(Math.abs(grey - expected)).toBeLessThan(12);
    // Deleted by the Delete key: one keyframe left; deleting it leaves its value.
    await lane.getByRole("button").nth(1).focus();
    await page.keyboard.press("Delete");
    expect(await opacityNow()).toEqual([{ time: 0, value: 0, easing: "ease-in" }]);
    await lane.getByRole("button").nth(0).click();
    await page.getByRole("button", { name: "Delete keyframe" }).click();
    expect(await opacityNow()).toBe(0);
    expect(await h.problems()).toEqual([]);
  });
});

describe("the preview frame", () => {
  /** The html layer `#r` in any frame of `p` once its document has loaded: its text and whether its script ran. */
  const layerOf = async (p: Page) => {
    for (const f of p.frames()) {
      const found = await f
        .evaluate(() => {
          const r = document.getElementById("r");
          return r && document.readyState === "complete"
            ? { text: r.textContent, ran: r.dataset.ran === "1" }
            : null;
        })
        .catch(() => null);
      if (found) return found;
    }
    return null;
  };
  /** An image config whose html layer marks `#r` when its own script runs (`enableLibraries`). */
  const scripted = (script = "") => ({
    width: 400,
    height: 200,
    layers: [
      {
        type: "html",
        enableLibraries: true,
        html: `<p id="r">pending</p><script>document.getElementById("r").dataset.ran = "1";${script}</script>`,
      },
    ],
  });
  const withheld = (p: Page) => p.locator("#scripts-withheld");

  it("draws a link's html without its scripts until the user agrees, then runs them without the network, the builder's page or its session", async () => {
    const probe = await h.context.newPage();
    const config = scripted(
      "const out = [];" +
        'try { out.push(document.cookie ? "cookie:" + document.cookie : "no-cookie"); } catch { out.push("cookie-blocked"); }' +
        'try { out.push(parent.parent.document.title ? "parent-readable" : "?"); } catch { out.push("parent-blocked"); }' +
        'try { top.location.href = "https://example.com/"; } catch {}' +
        'fetch("/api/v1/account").then(() => out.push("fetch-ok"), () => out.push("fetch-blocked"))' +
        '.finally(() => { document.getElementById("r").textContent = out.join(","); });',
    );
    const asked: string[] = [];
    probe.on("request", (r) => asked.push(r.url()));
    await probe.goto(
      `${base}/builder#config=${Buffer.from(JSON.stringify({ type: "image", config })).toString("base64url")}`,
    );
    // Anyone can make such a link: the layer is drawn, its script has not run, and the builder asks first.
    await withheld(probe).waitFor();
    expect(await text(withheld(probe))).toMatch(/This config came from a link/);
    await expect.poll(() => layerOf(probe), { timeout: 15_000 }).toEqual({ text: "pending", ran: false });
    // Drawn again by an edit (the canvas's width), it still has not.
    await probe.locator("#config").fill(JSON.stringify({ ...config, width: 420 }, null, 2));
    await expect.poll(async () => (await probe.locator(".frame").boundingBox())?.width).toBe(420);
    expect(await layerOf(probe)).toEqual({ text: "pending", ran: false });

    await probe.getByRole("button", { name: "Run the scripts" }).click();
    await expect.poll(() => withheld(probe).count()).toBe(0);
    await expect
      .poll(async () => (await layerOf(probe))?.text ?? "", { timeout: 15_000 })
      .not.toMatch(/^(pending)?$/);
    const result = (await layerOf(probe))!.text!.split(",");
    expect(result).toContain("parent-blocked");
    expect(result).toContain("fetch-blocked");
    expect(result.filter((r) => r.startsWith("cookie:"))).toEqual([]);
    expect(probe.url()).toMatch(/\/builder#config=/);
    expect(
      asked.filter((u) => u.endsWith("/api/v1/account") || (!u.startsWith(base) && !/^(data|blob):/.test(u))),
    ).toEqual([]);
    await probe.close();
  });

  it("runs the scripts of a config the user types at once, without asking", async () => {
    const own = await h.context.newPage();
    await own.goto(`${base}/builder`);
    await own.getByRole("heading", { name: "Layers" }).waitFor();
    await own.locator("#config").fill(JSON.stringify(scripted(), null, 2));
    await expect.poll(() => layerOf(own), { timeout: 15_000 }).toEqual({ text: "pending", ran: true });
    expect(await withheld(own).count()).toBe(0);
    await own.close();
  });

  it("opens the account's own job from the console's 'Open in builder' and runs its scripts as before", async () => {
    const created = await api<{ jobId: string }>("/api/v1/jobs", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ type: "image", config: scripted() }),
    });
    expect(created.status).toBe(201);
    const { jobId } = created.body.data;
    const own = await h.context.newPage();
    await own.goto(`${base}/console/jobs/${jobId}`);
    await own.getByRole("link", { name: "Open in builder" }).click();
    await own.waitForURL(`${base}/builder#job=${jobId}`);
    await own.getByRole("heading", { name: "Layers" }).waitFor();
    await expect.poll(() => layerOf(own), { timeout: 15_000 }).toEqual({ text: "pending", ran: true });
    expect(await withheld(own).count()).toBe(0);
    expect(JSON.parse(await own.locator("#config").inputValue())).toMatchObject(scripted());
    // A job link to a job that is not the account's opens nothing.
    await own.goto(`${base}/builder#job=job_notthisaccount0000000`);
    await expect
      .poll(() => text(own.locator(".notice.error")))
      .toMatch(/^Job job_notthisaccount0000000 could not be opened: Job not found/);
    await own.close();
  });
});

describe("text fitted into its box", () => {
  it("is sized in the preview as the service sizes it: short values at maxFontSize, long ones smaller, the same picture", async () => {
    const LONG = "Bartholomew Featherstonehaugh-Worthington";
    const fitted = { type: "text", x: 20, width: 560, minFontSize: 12, maxFontSize: 80, color: "#fde68a" };
    await openWith("image", {
      width: 600,
      height: 340,
      backgroundColor: "#0f172a",
      layers: [
        { ...fitted, text: "Ann", y: 10, height: 100 },
        { ...fitted, text: LONG, y: 120, height: 100, googleFont: "Poppins:700" },
        { ...fitted, text: LONG, x: 340, y: 200, width: 240, height: 130, wrap: true, lineHeight: 1.1 },
      ],
    });
    await expect.poll(() => page.locator(".overlay .box").count()).toBe(3);
    await previewSettled();
    // The sizes the preview's fitting gave (fonts loaded: fitted again when they arrived).
    const sizes = await previewFrame().evaluate(() =>
      [...document.querySelectorAll<HTMLElement>("[data-fit-max]")].map((e) => parseFloat(e.style.fontSize)),
    );
    expect(sizes[0]).toBe(80);
    expect(sizes[1]).toBeLessThan(40);
    expect(sizes[2]).toBeGreaterThan(sizes[1]!);
    expect(sizes[2]).toBeLessThan(80);
    const { preview, rendered } = await previewAndRender(600, 340);
    const { mean, over } = imageDifference(preview, rendered);
    // A size one pixel apart moves whole words; only the odd antialiased edge may differ.
    expect(mean).toBeLessThan(1);
    expect(over).toBeLessThan(0.005);
  });
});
