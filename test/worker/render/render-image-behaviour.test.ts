import { describe, expect, it, vi } from "vitest";
import { validateJobConfig } from "@media-render/contract/config";
import { body, call, json, newAccount } from "../helpers.ts";
import { render } from "./harness.ts";
import { decode, distance } from "./pixels.ts";

const BG = [255, 255, 255, 255];
const white = (layers: unknown[], extra: Record<string, unknown> = {}) => ({
  width: 400,
  height: 200,
  backgroundColor: "#ffffff",
  layers,
  ...extra,
});
// U+2588 FULL BLOCK: solid glyph, so its bounding box is the text's ink box.
const BLOCK = "\u2588";

describe("text placement, measured on the pixels", () => {
  it("puts left text's ink right of x and below y", async () => {
    const px = await decode(
      await render(white([{ type: "text", text: BLOCK, x: 100, y: 50, fontSize: 40 }])),
    );
    const box = px.bbox(BG)!;
    expect(box.left).toBeGreaterThanOrEqual(100);
    expect(box.left).toBeLessThan(110);
    expect(box.top).toBeGreaterThanOrEqual(50);
    expect(box.bottom).toBeLessThan(50 + 40 * 1.2 + 2);
  });

  it("centres text on x with align center and ends it at x with align right", async () => {
    const centre = (
      await decode(await render(white([{ type: "text", text: "Centred", x: 200, y: 20, align: "center" }])))
    ).bbox(BG)!;
    expect(Math.abs((centre.left + centre.right) / 2 - 200)).toBeLessThanOrEqual(3);
    const right = (
      await decode(await render(white([{ type: "text", text: "Right", x: 300, y: 20, align: "right" }])))
    ).bbox(BG)!;
    expect(right.right).toBeLessThanOrEqual(300);
    expect(right.right).toBeGreaterThan(294);
  });

  it("breaks lines at \\n, spaced by fontSize x lineHeight", async () => {
    const one = (
      await decode(
        await render(white([{ type: "text", text: BLOCK, x: 10, y: 10, fontSize: 30, lineHeight: 2 }])),
      )
    ).bbox(BG)!;
    const two = (
      await decode(
        await render(
          white([{ type: "text", text: `${BLOCK}\n${BLOCK}`, x: 10, y: 10, fontSize: 30, lineHeight: 2 }]),
        ),
      )
    ).bbox(BG)!;
    expect(two.bottom - one.bottom).toBeGreaterThanOrEqual(59);
    expect(two.bottom - one.bottom).toBeLessThanOrEqual(61);
  });

  it("wraps at width and never paints past it", async () => {
    const text = "word ".repeat(30).trim();
    const box = (
      await decode(
        await render(white([{ type: "text", text, x: 20, y: 10, width: 150, wrap: true, fontSize: 16 }])),
      )
    ).bbox(BG)!;
    expect(box.right).toBeLessThanOrEqual(170);
    expect(box.bottom - box.top).toBeGreaterThan(16 * 4);
  });

  it("draws the default text black at 24px", async () => {
    const px = await decode(await render(white([{ type: "text", text: BLOCK, x: 10, y: 10 }])));
    const box = px.bbox(BG)!;
    expect(box.bottom - box.top).toBeGreaterThan(20);
    expect(box.bottom - box.top).toBeLessThan(30);
    expect(
      distance(
        px.at(Math.round((box.left + box.right) / 2), Math.round((box.top + box.bottom) / 2)),
        [0, 0, 0],
      ),
    ).toBeLessThan(10);
  });
});

describe("output formats", () => {
  const config = white([{ type: "rectangle", x: 0, y: 0, width: 200, height: 200, fill: "#ff0000" }], {
    backgroundColor: undefined,
  });

  it("keeps alpha in png and webp, fills jpeg white", async () => {
    for (const format of ["png", "webp"] as const) {
      const px = await decode(await render(config, format));
      expect(px.at(300, 100)[3]).toBe(0);
      expect(distance(px.at(100, 100), [255, 0, 0])).toBeLessThan(12);
    }
    const jpeg = await render(config, "jpeg", 80);
    expect([jpeg[0], jpeg[1]]).toEqual([0xff, 0xd8]);
    const px = await decode(jpeg);
    expect(distance(px.at(300, 100), [255, 255, 255])).toBeLessThan(6);
  });

  it("makes smaller jpegs at lower quality", async () => {
    const photo = white([
      { type: "image", path: "/image/render-test/img2.jpg", width: 400, height: 200, fit: "cover" },
    ]);
    expect((await render(photo, "jpeg", 20)).byteLength).toBeLessThan(
      (await render(photo, "jpeg", 95)).byteLength,
    );
  });
});

describe("html layers", () => {
  it("preloads all eight libraries and strips a duplicate CDN import", async () => {
    const html = `<script src="https://cdn.jsdelivr.net/npm/chart.js@4"></script><div id="o" style="width:100px;height:100px"></div>
<script>const ok=[typeof gsap,typeof lottie,typeof Chart,typeof Motion,typeof anime,typeof d3,typeof lucide].every(t=>t!=="undefined")&&!!document.querySelector("style");
document.getElementById("o").style.background=ok?"#00ff00":"#ff0000"</script>`;
    const px = await decode(await render(white([{ type: "html", html, enableLibraries: true }])));
    expect(distance(px.at(50, 50), [0, 255, 0])).toBeLessThan(10);
  });

  it("gives pages no network: fetch, XHR and WebSocket fail, storage is refused", async () => {
    const html = `<div id="o" style="width:100px;height:100px;background:#ff0000"></div><script>
(async()=>{let blocked=0;
try{await fetch("http://127.0.0.1:8787/health")}catch{blocked++}
try{const x=new XMLHttpRequest();x.open("GET","https://example.com/",false);x.send()}catch{blocked++}
await new Promise(r=>{try{const w=new WebSocket("ws://127.0.0.1:8787/");w.onerror=()=>{blocked++;r()};w.onopen=()=>r()}catch{blocked++;r()}});
try{localStorage.setItem("a","b")}catch{blocked++}
document.getElementById("o").style.width=blocked*25+"px";if(blocked===4)document.getElementById("o").style.background="#00ff00"})()</script>`;
    const px = await decode(await render(white([{ type: "html", html, wait: 0.3, enableLibraries: true }])));
    expect(distance(px.at(50, 50), [0, 255, 0])).toBeLessThan(10);
  });

  it("gives html and body the layer's height, so a root block of height 100% fills it", async () => {
    const root = (colour: string, extra = "") =>
      `<div style="height:100%;${extra}background:${colour}"></div>`;
    const px = await decode(
      await render(
        white([
          // The whole canvas; the left half painted from top to bottom.
          { type: "html", css: "body{margin:0}", html: root("#00ff00", "width:50%;") },
          // A layer of its own size, the page as JsonCut's docs write it (the browser's body margin kept).
          { type: "html", x: 300, y: 20, width: 80, height: 60, html: root("#ff0000") },
        ]),
      ),
    );
    expect(distance(px.at(100, 195), [0, 255, 0])).toBeLessThan(10);
    expect(distance(px.at(250, 195), [255, 255, 255])).toBeLessThan(10);
    // Red from the layer's 8 px margin down to its bottom edge, white below it.
    expect(distance(px.at(340, 75), [255, 0, 0])).toBeLessThan(10);
    expect(distance(px.at(340, 85), [255, 255, 255])).toBeLessThan(10);
  });

  it("keeps the background transparent where the page paints none", async () => {
    const px = await decode(
      await render(
        white([{ type: "html", html: "<p style='margin:0'>hi</p>" }], { backgroundColor: undefined }),
      ),
    );
    expect(px.at(300, 150)[3]).toBe(0);
  });
});

describe("catalogue fonts are validated", () => {
  it("lists the available families for an unknown family, and weights for an unknown weight", () => {
    const config = (googleFont: string) => white([{ type: "text", text: "a", googleFont }]);
    const family = validateJobConfig("image", config("Comic Neue"));
    expect(family).toMatchObject({ valid: false });
    expect("errors" in family && family.errors[0]!.message).toMatch(
      /unknown catalogue font family "Comic Neue"; available families: .*Montserrat.*Roboto/,
    );
    const weight = validateJobConfig("image", config("Lobster:700"));
    expect(weight).toMatchObject({
      valid: false,
      errors: [
        {
          field: "config.layers[0].googleFont",
          message: '"Lobster" has no weight 700; available weights: 400',
        },
      ],
    });
  });
});

describe("jobs the renderer cannot draw", () => {
  it("fails an html layer with src at once, saying why", async () => {
    const { key } = await newAccount();
    const res = await call(
      "/api/v1/jobs",
      json("POST", { type: "image", config: white([{ type: "html", src: "https://example.com/" }]) }, key),
    );
    expect(res.status).toBe(201);
    const { jobId } = (await body<{ jobId: string }>(res)).data!;
    const job = await vi.waitFor(
      async () => {
        const j = (
          await body<{ status: string; errorMessage: string }>(
            await call(`/api/v1/jobs/${jobId}`, { headers: { "x-api-key": key } }),
          )
        ).data!;
        if (j.status !== "FAILED" && j.status !== "COMPLETED") throw new Error(j.status);
        return j;
      },
      { timeout: 20_000, interval: 100 },
    );
    expect(job.status).toBe("FAILED");
    expect(job.errorMessage).toMatch(/no network access/);
  });
});
