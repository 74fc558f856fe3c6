/**
 * Text fitted into its box (minFontSize/maxFontSize) in image jobs, measured on the pixels: a template batch whose CSV
 * rows carry short and long names (the real batch path: rows merged, jobs queued, rendered by the image consumer in
 * Browser Rendering, downloaded as a ZIP), on one line and wrapped under a height bound with a line height; and a
 * single render that shows the size found is the largest: the same text one pixel larger no longer fits its box.
 */
import { unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { body, call, json, newAccount } from "../helpers.ts";
import { render } from "./harness.ts";
import { compareWithReference, decode, type Decoded } from "./pixels.ts";

type Box = { left: number; top: number; right: number; bottom: number };

const RED = [220, 0, 0];
const BLUE = [0, 0, 220];

/** The bounding box of the pixels near `rgb` (inked text of that colour) inside `within`. */
const inkOf = (px: Decoded, rgb: number[], within: Box = { left: 0, top: 0, right: 9999, bottom: 9999 }) => {
  let box: Box | null = null;
  for (let y = Math.max(0, within.top); y <= Math.min(px.height - 1, within.bottom); y++)
    for (let x = Math.max(0, within.left); x <= Math.min(px.width - 1, within.right); x++) {
      const [r, g, b] = px.at(x, y);
      // Antialiased edges blend towards the white ground: every channel of the colour's own stays near it.
      if (Math.abs(r - rgb[0]!) + Math.abs(g - rgb[1]!) + Math.abs(b - rgb[2]!) > 120) continue;
      if (!box) box = { left: x, top: y, right: x, bottom: y };
      else {
        box.left = Math.min(box.left, x);
        box.right = Math.max(box.right, x);
        box.top = Math.min(box.top, y);
        box.bottom = Math.max(box.bottom, y);
      }
    }
  return box;
};
const width = (b: Box) => b.right - b.left + 1;
/** The render matches its committed reference (test/fixtures/reference/<name>.png; KEEP_RENDERS keeps it for a look). */
const expectReference = async (name: string, png: Uint8Array) => {
  const result = await compareWithReference(name, png);
  expect(result.missing, `no reference ${name}.png (UPDATE_REFERENCES=1 writes it)`).toBe(false);
  expect(result.sameSize).toBe(true);
  expect(result.meanDiff).toBeLessThan(1.5);
  expect(result.badShare).toBeLessThan(0.005);
};
const height = (b: Box) => b.bottom - b.top + 1;

/**
 * A name badge: `{{name}}` fitted on one line into a 560 x 100 box at (20, 20) in black, and wrapped into a 220 x 110
 * box at (360, 170) in blue, over the same name in red at the maximum size (80) without a box, as a yardstick.
 */
const BADGE = {
  name: "Fitted badge",
  type: "image",
  config: {
    width: 600,
    height: 300,
    backgroundColor: "#ffffff",
    layers: [
      {
        type: "text",
        text: "{{name}}",
        x: 20,
        y: 20,
        width: 560,
        height: 100,
        minFontSize: 12,
        maxFontSize: 80,
        color: "#000000",
      },
      { type: "text", text: "{{name}}", x: 20, y: 170, fontSize: 80, color: "#dc0000" },
      {
        type: "text",
        text: "{{name}}",
        x: 360,
        y: 170,
        width: 220,
        height: 110,
        wrap: true,
        lineHeight: 1.1,
        minFontSize: 10,
        maxFontSize: 80,
        color: "#0000dc",
      },
    ],
  },
};
const SHORT = "Ann";
const LONG = "Bartholomew Featherstonehaugh-Worthington";

describe("a template batch of name badges with short and long names", () => {
  it(
    "draws the short name at maxFontSize and the long one smaller, inside its box, filling its width",
    { timeout: 120_000 },
    async () => {
      const { key } = await newAccount({ planId: "pro", tokens: 1000 });
      const saved = await call("/api/v2/templates", json("POST", BADGE, key));
      expect(saved.status).toBe(201);
      const templateId = (await body<{ id: string }>(saved)).data!.id;
      const csv = `name,file\r\n${SHORT},short\r\n"${LONG}",long\r\n`;
      const created = await call(`/api/v2/templates/${templateId}/batches?nameColumn=file`, {
        method: "POST",
        headers: { "content-type": "text/csv", "x-api-key": key },
        body: csv,
      });
      expect(created.status).toBe(201);
      const { batchId } = (await body<{ batchId: string }>(created)).data!;
      const batch = async () =>
        (
          await body<{ status: string; counts: Record<string, number> }>(
            await call(`/api/v2/batches/${batchId}`, { headers: { "x-api-key": key } }),
          )
        ).data!;
      await expect
        .poll(async () => (await batch()).status, { timeout: 90_000, interval: 250 })
        .not.toBe("RUNNING");
      expect(await batch()).toMatchObject({ status: "COMPLETED", counts: { COMPLETED: 2 } });
      const zip = await call(`/api/v2/batches/${batchId}/output`, { headers: { "x-api-key": key } });
      const files = unzipSync(new Uint8Array(await zip.arrayBuffer()));
      const short = await decode(files["short.png"]!);
      const long = await decode(files["long.png"]!);
      const top = { left: 0, top: 0, right: 599, bottom: 150 };
      const bottomLeft = { left: 0, top: 151, right: 340, bottom: 299 };
      const bottomRight = { left: 350, top: 151, right: 599, bottom: 299 };

      // The short name fits at the maximum: its ink is the yardstick's, moved up by 150 px.
      const shortFitted = inkOf(short, [0, 0, 0], top)!;
      const shortAtMax = inkOf(short, RED, bottomLeft)!;
      expect([width(shortFitted), height(shortFitted)]).toEqual([width(shortAtMax), height(shortAtMax)]);
      expect(shortAtMax.top - shortFitted.top).toBe(150);
      // Wrapped into the other box, it fits at the maximum too.
      const shortWrapped = inkOf(short, BLUE, bottomRight)!;
      expect([width(shortWrapped), height(shortWrapped)]).toEqual([width(shortAtMax), height(shortAtMax)]);

      // The long name is drawn smaller, inside its box, nearly filling its width (one pixel of size more would not
      // fit: the property test holds that exactly), on one line.
      const longFitted = inkOf(long, [0, 0, 0], top)!;
      const longAtMax = inkOf(long, RED, { ...bottomLeft, right: 599 })!;
      expect(height(longFitted)).toBeLessThan(height(longAtMax) * 0.5);
      expect(longFitted.left).toBeGreaterThanOrEqual(20);
      expect(longFitted.right).toBeLessThanOrEqual(580);
      expect(width(longFitted)).toBeGreaterThan(560 * 0.93);
      expect(longFitted.bottom).toBeLessThanOrEqual(120);
      // Wrapped: on more than one line, inside its 220 x 110 box, larger than on one line.
      const longWrapped = inkOf(long, BLUE, bottomRight)!;
      expect(longWrapped.left).toBeGreaterThanOrEqual(360);
      expect(longWrapped.right).toBeLessThanOrEqual(580);
      expect(longWrapped.top).toBeGreaterThanOrEqual(170);
      expect(longWrapped.bottom).toBeLessThanOrEqual(280);
      expect(height(longWrapped)).toBeGreaterThan(height(longFitted) * 2);
      await expectReference("fit-text-short", files["short.png"]!);
      await expectReference("fit-text-long", files["long.png"]!);
    },
  );
});

describe("the size a text is fitted to", () => {
  it("is the largest that fits: the same text one pixel larger, wrapped in the same width, takes two lines", async () => {
    // Row 0: the long name fitted on one line into 560 px. Rows 1..: the same name at fixed sizes, wrapping in the same
    // 560 px, one band of BAND px each; the band whose ink is the fitted text's gives the size it was fitted to.
    const SIZES = Array.from({ length: 13 }, (_, i) => 20 + i);
    const BAND = 90;
    const layer = { type: "text", text: LONG, x: 20, width: 560, color: "#000000" };
    const png = await render({
      width: 600,
      height: BAND * (SIZES.length + 1),
      backgroundColor: "#ffffff",
      layers: [
        { ...layer, y: 10, minFontSize: 8, maxFontSize: 80 },
        ...SIZES.map((size, i) => ({ ...layer, y: 10 + BAND * (i + 1), fontSize: size, wrap: true })),
      ],
    });
    const px = await decode(png);
    const band = (i: number) =>
      inkOf(px, [0, 0, 0], { left: 0, top: BAND * i, right: 599, bottom: BAND * (i + 1) - 1 })!;
    const fitted = band(0);
    expect(fitted.right).toBeLessThanOrEqual(580);
    const rows = SIZES.map((_, i) => band(i + 1));
    const at = rows.findIndex((r) => width(r) === width(fitted) && height(r) === height(fitted));
    expect(at, `no fixed size draws the fitted text's ink (${JSON.stringify(fitted)})`).toBeGreaterThan(0);
    expect(at).toBeLessThan(SIZES.length - 1);
    // At the fitted size the text is on one line; one pixel larger it wraps onto a second.
    expect(height(rows[at]!)).toBeLessThan(SIZES[at]! * 1.2);
    expect(height(rows[at + 1]!)).toBeGreaterThan(SIZES[at + 1]! * 1.5);
    await expectReference("fit-text-largest", png);
  });
});
