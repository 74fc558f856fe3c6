/** The hosted catalogue's stylesheet parser (pure): which faces it keeps and which it refuses. */
import { describe, expect, it } from "vitest";
import { hostedFileKey, pageCss, parseHostedCss } from "../../../../src/fonts/hosted-css.ts";

const HOST = "fonts.gstatic.com";
const face = (src: string, extra = "font-style: normal; font-weight: 700;") =>
  `@font-face { font-family: 'X'; ${extra} src: ${src}; unicode-range: U+0000-00FF, U+0131; }`;

describe("parseHostedCss", () => {
  it("keeps normal faces of the weight, with their unicode ranges", () => {
    const css = [
      face("url(https://fonts.gstatic.com/s/x/v1/a.woff2) format('woff2')"),
      face(
        "url(https://fonts.gstatic.com/s/x/v1/i.woff2) format('woff2')",
        "font-style: italic; font-weight: 700;",
      ),
      face(
        "url(https://fonts.gstatic.com/s/x/v1/b.woff2) format('woff2')",
        "font-style: normal; font-weight: 400;",
      ),
    ].join("\n");
    expect(parseHostedCss(css, HOST, 700)).toEqual([
      { weight: 700, url: "https://fonts.gstatic.com/s/x/v1/a.woff2", unicodeRange: "U+0000-00FF, U+0131" },
    ]);
  });

  it("drops a unicode-range that is not one (the face then draws every character)", () => {
    const css = face("url(https://fonts.gstatic.com/s/x/v1/a.woff2)").replace(
      "U+0000-00FF, U+0131",
      "U+0-FF, \\66 ont-size:99px",
    );
    expect(parseHostedCss(css, HOST, 700)).toEqual([
      { weight: 700, url: "https://fonts.gstatic.com/s/x/v1/a.woff2" },
    ]);
  });

  it("refuses files on other hosts, over http, on another port, or not woff2", () => {
    for (const [src, reason] of [
      [
        "url(https://evil.example.com/a.woff2)",
        /outside https:\/\/fonts\.gstatic\.com\/: evil\.example\.com/,
      ],
      ["url(http://fonts.gstatic.com/a.woff2)", /outside/],
      ["url(https://fonts.gstatic.com:8443/a.woff2)", /outside/],
      ["url(https://fonts.gstatic.com.evil.example/a.woff2)", /outside/],
      ["url(https://fonts.gstatic.com/a.ttf) format('truetype')", /not woff2/],
      ["url(not a url)", /malformed/],
      ["local('X')", /no url\(\)/],
    ] as const)
      expect(() => parseHostedCss(face(src), HOST, 700), src).toThrow(reason);
  });

  it("writes page rules with R2-backed URLs and drops a unicode-range that is not one", () => {
    const faces = [
      { weight: 700, url: "https://fonts.gstatic.com/s/x/v1/a b.woff2", unicodeRange: "U+0-FF" },
      { weight: 700, url: "https://fonts.gstatic.com/s/x/v1/c.woff2", unicodeRange: "}body{color:red" },
    ];
    expect(hostedFileKey(faces[0]!.url)).toBe("fonts/files/s/x/v1/a_20b.woff2");
    const css = pageCss(faces, "hf-x", (key) => `https://assets.local/${key}`);
    expect(css).toBe(
      `@font-face{font-family:"hf-x";font-style:normal;font-weight:700;font-display:block;src:url(https://assets.local/fonts/files/s/x/v1/a_20b.woff2) format("woff2");unicode-range:U+0-FF}\n` +
        `@font-face{font-family:"hf-x";font-style:normal;font-weight:700;font-display:block;src:url(https://assets.local/fonts/files/s/x/v1/c.woff2) format("woff2")}`,
    );
  });
});
