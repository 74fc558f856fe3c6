/**
 * Hostile html layers in image jobs, on the real Browser Rendering: the user's scripts run only with
 * enableLibraries and no frame gets a peer connection (nested frames a script creates included). Pages that never
 * finish, allocate without end or try every way out are in test/worker/faults/hostile-html.test.ts.
 */
import { describe, expect, it } from "vitest";
import { render } from "./harness.ts";
import { decode } from "./pixels.ts";

const page = (html: string, enableLibraries = false) => ({
  width: 64,
  height: 64,
  backgroundColor: "#0000ff",
  layers: [{ type: "html", html, width: 64, height: 64, enableLibraries }],
});
const centre = async (config: unknown) => (await decode(await render(config))).at(32, 32);

const PAINT_RED = "document.body.style.background='rgb(255,0,0)'";

describe("html layer scripts", () => {
  it("do not run without enableLibraries: inline scripts and handler attributes stay inert", async () => {
    const html = `<body style="margin:0;background:rgb(0,255,0)"><script>${PAINT_RED}</script><img src="x" onerror="${PAINT_RED}"></body>`;
    expect(await centre(page(html))).toEqual([0, 255, 0, 255]);
  });

  it("run with enableLibraries", async () => {
    const html = `<body style="margin:0;background:rgb(0,255,0)"><script>${PAINT_RED}</script></body>`;
    expect(await centre(page(html, true))).toEqual([255, 0, 0, 255]);
  });
});

describe("peer connections", () => {
  it("are gone in nested frames a script creates too", async () => {
    // Green when the nested frame has no RTCPeerConnection, red when it has one.
    const inner = `<body style='margin:0'><script>document.body.style.background = typeof RTCPeerConnection === 'undefined' && typeof webkitRTCPeerConnection === 'undefined' ? 'rgb(0,255,0)' : 'rgb(255,0,0)'</script></body>`;
    const html = `<body style="margin:0"><script>
      const f = document.createElement('iframe');
      f.style.cssText = 'border:0;width:64px;height:64px;display:block';
      f.srcdoc = ${JSON.stringify(inner)};
      document.body.appendChild(f);
    </script></body>`;
    const [r, g] = await centre(page(html, true));
    expect(r).toBeLessThan(40);
    // The nested frame either drew green or was refused (the page's blue shows): never red.
    expect(g > 200 || r + g < 40).toBe(true);
  });
});
