/**
 * The builder preview's compile step (web/src/builder/preview/compile.ts) with a config's scripts withheld (a config
 * from a link, until the user agrees): html layers are compiled as the service compiles them without
 * `enableLibraries` (the sandbox's policy admits only the page's own nonce scripts), whether the layer or the
 * config's defaults asked for scripts. The browser side is test/e2e/builder.test.ts.
 */
import { describe, expect, it } from "vitest";
import { drawConfig } from "../../../../src/builder/preview/compile.ts";

const origins = { origin: "http://127.0.0.1:8787", fileUrl: () => "data:," };
const html = (extra: Record<string, unknown> = {}) => ({
  type: "html",
  html: '<p id="r">pending</p><script>document.getElementById("r").dataset.ran = "1"</script>',
  ...extra,
});
/** Whether a compiled layer's document lets the user's inline scripts run (no nonce in its script-src). */
const runsScripts = (layer: string) =>
  /script-src &#39;unsafe-inline&#39;|script-src 'unsafe-inline'/.test(layer);

describe("the preview's compile step", () => {
  it("lets an html layer's own scripts run by default", () => {
    const drawing = drawConfig(
      { width: 100, height: 100, layers: [html({ enableLibraries: true })] },
      new Map(),
      origins,
    )!;
    expect(drawing.withheld).toBe(false);
    expect(runsScripts(drawing.parts.layers[0]!)).toBe(true);
  });

  it("withholds them without scripts, from the layer or from the defaults, and says so", () => {
    for (const config of [
      { width: 100, height: 100, layers: [html({ enableLibraries: true })] },
      {
        width: 100,
        height: 100,
        defaults: { layerType: { html: { enableLibraries: true } } },
        layers: [html()],
      },
      { width: 100, height: 100, defaults: { layer: { enableLibraries: true } }, layers: [html()] },
    ]) {
      const drawing = drawConfig(config, new Map(), origins, false)!;
      expect(drawing.withheld, JSON.stringify(config)).toBe(true);
      expect(drawing.parts.layers[0]).toContain("nonce-");
      expect(runsScripts(drawing.parts.layers[0]!)).toBe(false);
      expect(drawing.parts.scripted).toBe(false);
    }
  });

  it("withholds nothing from a layer that runs no scripts, and keeps a partly invalid config's valid layers", () => {
    const plain = drawConfig({ width: 100, height: 100, layers: [html()] }, new Map(), origins, false)!;
    expect(plain.withheld).toBe(false);
    const partial = drawConfig(
      { width: 100, height: 100, layers: [{ type: "nope" }, html({ enableLibraries: true })] },
      new Map(),
      origins,
      false,
    )!;
    expect(partial).toMatchObject({ skipped: [0], drawn: [1], withheld: true });
    expect(runsScripts(partial.parts.layers[0]!)).toBe(false);
  });
});
