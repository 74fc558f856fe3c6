/**
 * Any catalogue font in video jobs: validation of `googleFont` (and its alias) at the field, with the hosted catalogue
 * off and on, and the render request carrying a family the bundle lacks, fetched once through the image path's font
 * cache (R2 `fonts/`, the SSRF guard, files only from the font host) from the stand-in catalogue (font-catalogue.ts:
 * real @fontsource files), each file a signed input URL that serves its bytes.
 */
import { env, exports } from "cloudflare:workers";
import fc from "fast-check";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { validateJobConfig } from "@media-render/contract/config";
import { CATALOG_FAMILIES } from "@media-render/contract/fonts/catalog";
import { MAX_HOSTED_FONTS_PER_JOB } from "@media-render/contract/fonts/hosted";
import { RenderVideoRequest } from "@media-render/contract/wire";
import { createContext, withCaller } from "../../src/context.ts";
import type { Env } from "../../src/env.ts";
import { hostedCssKey } from "../../src/fonts/hosted-source.ts";
import { createJob } from "../../src/jobs/create-job.ts";
import { getJobById } from "../../src/jobs/lookup.ts";
import { finishJob } from "../../src/jobs/lifecycle.ts";
import { UnprocessableMedia } from "../../src/lib/errors.ts";
import { buildVideoRequest } from "../../src/queues/dispatch-video.ts";
import { fontCatalogue, fontsourceFamily } from "./font-catalogue.ts";
import { body, call, FULL, json, newAccount } from "./helpers.ts";

const video = (layer: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  width: 320,
  height: 180,
  clips: [{ duration: 1, layers: [{ type: "fill-color", color: "#000000" }, layer] }],
  ...extra,
});
const title = (font: Record<string, string>) => ({ type: "title", text: "مرحبا", ...font });
const online = { catalogueOnline: true };

const errorsOf = (type: "video" | "image", config: unknown, options = {}) => {
  const r = validateJobConfig(type, config, options);
  return r.valid ? [] : r.errors.map((e) => [e.field, e.message]);
};

describe("googleFont in video jobs: validation", () => {
  it("offline, refuses a family the bundle lacks, or a weight it lacks, at the field as written", () => {
    const families = CATALOG_FAMILIES.map((f) => f.family).join(", ");
    expect(errorsOf("video", video(title({ googleFont: "Noto Sans Arabic" })))).toEqual([
      [
        "config.clips[0].layers[1].googleFont",
        `unknown catalogue font family "Noto Sans Arabic"; available families: ${families}`,
      ],
    ]);
    expect(errorsOf("video", video(title({ catalogFont: "Lobster:700" })))).toEqual([
      ["config.clips[0].layers[1].catalogFont", '"Lobster" has no weight 700; available weights: 400'],
    ]);
    // Wherever a font may go: defaults, a type's defaults, global layers, the caption style.
    const everywhere = {
      ...video(title({})),
      defaults: {
        layer: { googleFont: "Comic Neue" },
        layerType: { title: { catalogFont: "Comic Neue:700" } },
      },
      globalLayers: [{ type: "subtitle", text: "x", googleFont: "Lato:1000" }],
      autoSubtitles: true,
      autoSubtitlesStyle: { googleFont: "Noto Sans Hebrew:700" },
    };
    expect(errorsOf("video", everywhere).map(([field]) => field)).toEqual([
      // The syntax error is the grammar's own; the others name the bundle.
      "config.globalLayers[0].googleFont",
      "config.defaults.layer.googleFont",
      "config.defaults.layerType.title.catalogFont",
      "config.autoSubtitlesStyle.googleFont",
    ]);
    expect(errorsOf("video", video(title({ googleFont: "Lobster" })))).toEqual([]);
  });

  it("online, accepts any family of the right form, and at most a few outside the bundle per job", () => {
    expect(errorsOf("video", video(title({ googleFont: "Noto Sans Arabic:700" })), online)).toEqual([]);
    expect(errorsOf("video", video(title({ googleFont: "Noto Sans Arabic:750" })), online)).toEqual([
      [
        "config.clips[0].layers[1].googleFont",
        'must be "Family" or "Family:weight" with a weight of 100..900 in steps of 100 (e.g. "Montserrat:700")',
      ],
    ]);
    const many = Array.from({ length: MAX_HOSTED_FONTS_PER_JOB + 1 }, (_, i) => ({
      type: "title",
      text: "x",
      googleFont: `Family ${"ABCDEFGHIJ"[i]}`,
    }));
    // Bundled families do not count; the same font twice counts once.
    const config = {
      clips: [{ duration: 1, layers: [...many, { ...many[0]!, googleFont: "Lobster" }, many[0]!] }],
    };
    expect(errorsOf("video", config, online)).toEqual([
      [
        `config.clips[0].layers[${MAX_HOSTED_FONTS_PER_JOB}].googleFont`,
        `a video job may use at most ${MAX_HOSTED_FONTS_PER_JOB} catalogue fonts outside the bundled families; "Family ${"ABCDEFGHIJ"[MAX_HOSTED_FONTS_PER_JOB]}" is one more`,
      ],
    ]);
  });

  it("agrees with the image grammar on every well-formed family, offline and online (generated)", () => {
    const bundled = CATALOG_FAMILIES.map((f) => f.family);
    const family = fc.oneof(
      fc.constantFrom(...bundled),
      fc.stringMatching(/^[A-Z][a-z]{2,8}(?: [A-Z][a-z]{2,8})?$/),
    );
    const value = fc
      .tuple(family, fc.option(fc.integer({ min: 1, max: 9 })))
      .map(([f, w]) => (w ? `${f}:${w}00` : f));
    fc.assert(
      fc.property(value, fc.boolean(), (font, on) => {
        const options = { catalogueOnline: on };
        const image = validateJobConfig(
          "image",
          { width: 10, height: 10, layers: [{ type: "text", text: "x", googleFont: font }] },
          options,
        );
        const vid = validateJobConfig("video", video(title({ googleFont: font })), options);
        const messages = (r: typeof vid) => (r.valid ? [] : r.errors.map((e) => e.message));
        expect(vid.valid).toBe(image.valid);
        expect(messages(vid)).toEqual(messages(image));
      }),
      { numRuns: 200 },
    );
  });

  it("answers 400 VALIDATION_ERROR at the field through the API (the tests' catalogue is off)", async () => {
    const { key } = await newAccount({ tokens: 1000 });
    const res = await call(
      "/api/v1/jobs",
      json("POST", { type: "video", config: video(title({ googleFont: "Noto Sans Arabic:700" })) }, key),
    );
    expect(res.status).toBe(400);
    const answer = await body(res);
    expect(answer.details?.errors).toEqual([
      {
        field: "config.clips[0].layers[1].googleFont",
        message: expect.stringMatching(
          /^unknown catalogue font family "Noto Sans Arabic"; available families: Arimo/,
        ),
        code: "VALIDATION_ERROR",
      },
    ]);
  });
});

/** A caller on bindings with the hosted catalogue on, whose video queue keeps what is sent. */
const onlineCaller = (userId: string) => {
  const queue = { send: async () => undefined };
  const bindings = { ...env, FONT_CATALOGUE_ONLINE: "true", VIDEO_QUEUE: queue } as unknown as Env;
  return withCaller(createContext(bindings), { userId, keyId: null, permissions: FULL, scopes: [] });
};

describe("googleFont in video jobs: the render request", () => {
  it("carries a family the bundle lacks, fetched once into the font cache, each file a signed input", async () => {
    const [arabic, family] = fontsourceFamily("noto-sans-arabic");
    const { calls, source } = fontCatalogue({ [arabic]: family });
    const { userId } = await newAccount({ tokens: 1000 });
    const ctx = onlineCaller(userId);
    const config = video(title({ googleFont: `${arabic}:700` }), {
      defaults: { layer: { catalogFont: "Lobster" } },
    });
    const created = await createJob(ctx, { type: "video", config });
    const job = await getJobById(ctx, created.jobId);
    const built = (await buildVideoRequest(ctx, job, source))!;
    // The stylesheet, then one file per subset (the italic face skipped), from the font host only.
    const subsets = Object.keys(family.subsets);
    expect(calls.filter((u) => !u.includes("dns-query"))).toEqual([
      "https://fonts.googleapis.com/css2?family=Noto+Sans+Arabic:wght@700&display=block",
      ...subsets.map((s) => `https://fonts.gstatic.com/s/notosansarabic/v9/700-${s}.woff2`),
    ]);
    expect(await env.FILES.head(hostedCssKey(arabic, 700))).not.toBeNull();
    // Only the font the bundle lacks travels; Lobster is the renderer's own.
    const fonts = built.request.fonts!;
    expect(Object.keys(fonts)).toEqual([`${arabic}:700`]);
    const font = fonts[`${arabic}:700`]!;
    expect(font.weight).toBe(700);
    expect(font.faces).toEqual(
      subsets.map((s) => ({
        ref: `fonts/files/s/notosansarabic/v9/700-${s}.woff2`,
        unicodeRange: family.subsets[s],
      })),
    );
    // What crosses the wire is the renderer's request schema.
    const wire = JSON.parse(JSON.stringify({ ...built.request, attempt: 1 }));
    expect(v.safeParse(RenderVideoRequest, wire).success).toBe(true);
    // Each face's signed URL serves the catalogue's bytes (the real woff2 of that subset).
    const arabicFace = font.faces.find((f) => f.ref.endsWith("700-arabic.woff2"))!;
    const url = wire.inputs[arabicFace.ref] as string;
    expect(url).toMatch(
      /\/storage\/fonts\/files\/s\/notosansarabic\/v9\/700-arabic\.woff2\?expires=\d+&signature=/,
    );
    const served = await exports.default.fetch(new Request(url));
    expect(served.status).toBe(200);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(await family.file("arabic", 700));
    // Unsigned, or signed for another file: refused.
    expect((await exports.default.fetch(new Request(url.split("?")[0]!))).status).toBe(403);

    // Every later request of the job (a hand-over, a chunk, the join) reads the cache: no catalogue call.
    const again = fontCatalogue({ [arabic]: family });
    const rebuilt = (await buildVideoRequest(ctx, job, again.source))!;
    expect(again.calls).toEqual([]);
    expect(rebuilt.request.fonts).toEqual(fonts);
    await finishJob(ctx, job, { status: "CANCELLED" });
  });

  it("fails the job for good, naming the field, when the catalogue lacks the family or the weight", async () => {
    const [arabic, family] = fontsourceFamily("noto-sans-arabic");
    const { source } = fontCatalogue({ [arabic]: family });
    const { userId } = await newAccount({ tokens: 1000 });
    const ctx = onlineCaller(userId);
    for (const [font, field] of [
      [{ googleFont: "No Such Family:700" }, "clips[0].layers[1].googleFont"],
      // The stand-in has 400 and 700 only.
      [{ catalogFont: `${arabic}:300` }, "clips[0].layers[1].googleFont"],
    ] as const) {
      const created = await createJob(ctx, { type: "video", config: video(title(font)) });
      const job = await getJobById(ctx, created.jobId);
      const value = Object.values(font)[0];
      const failure = buildVideoRequest(ctx, job, source);
      await expect(failure).rejects.toBeInstanceOf(UnprocessableMedia);
      await expect(failure).rejects.toThrow(
        `${field}: the hosted font catalogue has no "${value}" (check the family's spelling and casing, and its weights)`,
      );
      await finishJob(ctx, job, { status: "CANCELLED" });
    }
  });

  it("fails a job accepted online that reaches a renderer while the catalogue is off, naming the field", async () => {
    const { userId } = await newAccount({ planId: "pro", tokens: 1000 });
    const ctx = onlineCaller(userId);
    const created = await createJob(ctx, {
      type: "video",
      config: video(
        { type: "title", text: "x" },
        { autoSubtitles: true, autoSubtitlesStyle: { googleFont: "Heebo" } },
      ),
    });
    const job = await getJobById(ctx, created.jobId);
    await expect(buildVideoRequest(ctx, job, null)).rejects.toThrow(
      'autoSubtitlesStyle.googleFont: "Heebo" is not one of the bundled fonts, and the hosted font catalogue is off here',
    );
    await finishJob(ctx, job, { status: "CANCELLED" });
  });

  it("refuses a stylesheet naming files on another host: nothing fetched from it, nothing cached", async () => {
    const [hebrew, family] = fontsourceFamily("noto-sans-hebrew");
    const evil = fontCatalogue({ [hebrew]: family }, "evil.example.com");
    const { userId } = await newAccount({ tokens: 1000 });
    const ctx = onlineCaller(userId);
    const created = await createJob(ctx, { type: "video", config: video(title({ googleFont: hebrew })) });
    const job = await getJobById(ctx, created.jobId);
    await expect(buildVideoRequest(ctx, job, evil.source)).rejects.toThrow(
      /googleFont" refused|outside https:\/\/fonts\.gstatic\.com\/: evil\.example\.com/,
    );
    expect(
      evil.calls
        .filter((u) => !u.includes("dns-query"))
        .every((u) => u.startsWith("https://fonts.googleapis.com/")),
    ).toBe(true);
    expect(await env.FILES.head(hostedCssKey(hebrew, 400))).toBeNull();
    await finishJob(ctx, job, { status: "CANCELLED" });
  });
});
