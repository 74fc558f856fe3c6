/**
 * Generated configs rendered for real (issue 40): configs drawn from the published JSON Schema at tiny sizes
 * (test/config-arbitrary.ts: at most 96 px, 5 fps, 2 s a clip) with the shared fixtures as their files,
 * accepted and planned as the Worker does at creation, then posted to the real renderer in normal form with their
 * planned timeline. Every one must end: completed with its file stored, or failed as the job's fault with a message
 * a user can act on; never a defect ("internal error"), never an infrastructure fault, never silence. The property
 * over thousands of configs without rendering is in the unit tier (test/generated-configs.test.ts).
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validateJobConfig, type VideoConfig } from "@media-render/contract/config";
import { thumbnailTimes } from "@media-render/contract/config/outputs";
import { configJsonSchema } from "../../../src/schemas/json-schemas.ts";
import { plannedVideo, type VideoPlan } from "../../../src/jobs/planned-length.ts";
import { ValidationFailed } from "../../../src/lib/errors.ts";
import {
  arbitraryOf,
  withTinyCanvas,
  type MediaChoices,
  type Schema,
} from "../../../test/config-arbitrary.ts";
import { closeBrowser } from "../../src/video/raster/browser.ts";
import { startTestServer, type TestServer } from "../helpers/start-test-server.ts";
import { startWorkerStandIn, type WorkerStandIn } from "../helpers/worker-stand-in.ts";

const SEED = Number(process.env.FC_SEED ?? 40_2026);
const RENDERS = Number(process.env.FC_RENDERS ?? 10);

/** Reference in the config -> the file the stand-in serves for it, and its length as the upload's probe said. */
const FILES: Record<string, { file: string; kind: keyof MediaChoices; duration: number | null }> = {
  "/storage/u/photo.jpg": { file: "img2.jpg", kind: "image", duration: null },
  "/storage/u/emoji.png": { file: "emoji.png", kind: "image", duration: null },
  "/storage/u/clip.mp4": { file: "kohlipe3.mp4", kind: "video", duration: 34.91 },
  "/storage/u/music.mp3": { file: "winxp.mp3", kind: "audio", duration: 4.879625 },
  "/storage/u/voice.wav": { file: "speech-en.wav", kind: "audio", duration: 4.63425 },
  "/storage/u/font.ttf": { file: "PatuaOne-Regular.ttf", kind: "font", duration: null },
  "/storage/u/cues.srt": { file: "cues.srt", kind: "captions", duration: null },
  "/storage/u/wave.glsl": { file: "wave.glsl", kind: "shader", duration: null },
};
const EXTRA = {
  "cues.srt":
    "1\n00:00:00,000 --> 00:00:01,000\nHello there\n\n2\n00:00:01,000 --> 00:00:02,000\nSecond cue\n",
  "wave.glsl":
    "uniform float time; uniform vec2 resolution;\nvoid main() { gl_FragColor = vec4(gl_FragCoord.xy / resolution, sin(time), 1.0); }",
};
const MEDIA: MediaChoices = { image: [], video: [], audio: [], font: [], captions: [], shader: [] };
for (const [ref, f] of Object.entries(FILES)) MEDIA[f.kind].push(ref);

/** A failure a user can act on: it names a field of the config, or the deadline or memory share it passed. */
const ACTIONABLE =
  /(?:clips|globalLayers|audioTracks|defaults|autoSubtitlesStyle|captionsFile|audioFilePath)(?:\[\d+\])?[.:\s]|deadline of \d+ s|MB of memory/;

/**
 * Configs the generator found failing, shrunk, kept as they were found (each fixed at its cause): a contain-blur
 * box too small for its blur; a webm whose Opus audio ffmpeg refused at 5 fps; a preview starting at a time written
 * with an exponent; thumbnails closer together than a frame; a gl layer in a captioned still; a speech voice the
 * offline voice lacks (now a message naming the entry).
 */
const REGRESSIONS: unknown[] = [
  {
    width: 6,
    height: 85,
    fps: 5,
    clips: [
      {
        duration: 0.37090923109525287,
        transition: { audioOutCurve: "qua", audioInCurve: "par", easing: null, params: {} },
        layers: [
          {
            type: "audio",
            path: "/storage/u/voice.wav",
            cutTo: 0.06264037974758808,
            mixVolume: 252,
            start: 1.2080356476863012e-280,
          },
        ],
      },
      {
        duration: 0.23882215049590563,
        layers: [
          {
            type: "video",
            path: "/storage/u/clip.mp4",
            left: 5.3348396048997426e-300,
            top: 1e-323,
            zoomAmount: 3.9726181091478886e-48,
          },
        ],
      },
    ],
    audioTracks: [{ path: "/storage/u/music.mp3", cutFrom: 2.0216587625623132e-45 }],
  },
  {
    width: 49,
    height: 59,
    fps: 5,
    format: "webm",
    clips: [
      {
        transition: {
          name: "kaleidoscope",
          duration: 2.882644341623078e-37,
          audioOutCurve: "iqsin",
          audioInCurve: "iqsin",
          easing: null,
        },
        layers: [{ type: "rainbow-colors" }],
      },
    ],
    clipsAudioVolume: 1e-323,
    audioNorm: {},
    autoSubtitles: false,
  },
  {
    width: 92,
    height: 75,
    fps: 3,
    preview: { scale: 0.21866678851440685, from: 2.867859054728996e-255 },
    clips: [
      {
        layers: [
          {
            type: "title",
            text: ",vF",
            style: "letter-by-letter",
            outlineStyle: "glow",
            stop: 0.6723268114426969,
          },
          {
            type: "image-overlay",
            path: "/storage/u/photo.jpg",
            position: "bottom-right",
            width: 8.643957194814177e-19,
            start: 2.183680845501131e-166,
            stop: 0.0015109387213555153,
          },
        ],
      },
      {
        transition: {
          audioOutCurve: "cbr",
          easing: "linear",
          params: {
            "+a:2Co": 3.692244639802078e-130,
            s: -1.3615617143351407e-126,
            "q\\": 5.613013223883044e-139,
          },
        },
        layers: [{ type: "pause", stop: 0.013527527460021806 }],
      },
    ],
    audioTracks: [
      { path: "/storage/u/music.mp3", start: 3.02571473324283e-234 },
      {
        path: "/storage/u/voice.wav",
        mixVolume: 286.12293790513,
        start: 1.5253160346400552e-97,
        cutTo: 0.005697604878718476,
      },
      { path: "/storage/u/music.mp3", mixVolume: 28, cutTo: 1.2218773949923774 },
    ],
    autoSubtitles: false,
  },
  {
    width: 37,
    height: 75,
    fps: 5,
    poster: { time: 2.8957764731054916e-14 },
    thumbnails: { interval: 0.05228508883281993, format: "png" },
    clips: [
      {
        duration: 0.2480518817219148,
        layers: [{ type: "linear-gradient", direction: "vertical", stop: 0.004095599602161684 }],
      },
    ],
    defaults: {},
  },
  {
    width: 36,
    height: 92,
    fps: 4,
    still: { time: 5e-324, format: "jpeg" },
    fast: false,
    clips: [
      { layers: [{ type: "gl", fragmentPath: "/storage/u/wave.glsl", start: 2.640177649137256e-291 }] },
      {
        duration: 0.6878548933207248,
        layers: [
          { type: "title-background", text: "A", zoomDirection: null, outlineWidth: 6.033108501944337e-258 },
        ],
      },
      {
        duration: 0.6268577685036728,
        layers: [
          {
            type: "news-title",
            text: "~a]",
            fontSize: 18.86539336263031,
            fontFamily: "i_KU-R1-rb_",
            delay: 1.1009193815735485e-149,
            start: 4.1477311565350194e-101,
            stop: 0.18652434420565725,
          },
        ],
      },
    ],
    audioFilePath: "/storage/u/voice.wav",
    autoSubtitles: true,
    logTimes: false,
  },
  {
    width: 5,
    height: 4,
    fps: 5,
    clips: [
      {
        layers: [
          {
            type: "speech",
            text: "}m]~jyOD@(V]",
            language: "kq",
            rate: 1.8017835615057136,
            start: 5.132382283980769e-274,
            stop: 1.4237851913662978,
          },
        ],
      },
      {
        duration: 0.902498481987104,
        transition: { name: "directionalwarp", audioOutCurve: "hsin", params: {} },
        layers: [
          {
            type: "title",
            text: "[/nkF$'tZb",
            fontFamily: "S--lm_",
            outlineColor: "GREen",
            start: 1.3116263764791163e-138,
          },
        ],
      },
      { duration: 1.5860676645632923, layers: [{ type: "detached-audio", path: "/storage/u/music.mp3" }] },
    ],
    verbose: false,
  },
];

/** Accepted and planned as creation does (src/jobs/create-job.ts); null when creation would refuse it. */
const accept = (raw: unknown): { config: VideoConfig; plan: VideoPlan; format: string } | null => {
  const checked = validateJobConfig("video", raw);
  if (!checked.valid || checked.type !== "video") return null;
  try {
    const plan = plannedVideo(checked.config, (ref) => FILES[ref]?.duration ?? null);
    return { config: checked.config, plan, format: checked.outputFormat };
  } catch (e) {
    if (e instanceof ValidationFailed) return null;
    throw e;
  }
};

/** The first `count` accepted configs of the seeded generator. */
const acceptedConfigs = (count: number) => {
  const raws = fc.sample(withTinyCanvas(arbitraryOf(configJsonSchema("video") as unknown as Schema, MEDIA)), {
    seed: SEED,
    numRuns: count * 6,
  });
  return raws.flatMap((raw) => accept(raw) ?? []).slice(0, count);
};

let server: TestServer;
let worker: WorkerStandIn;

beforeAll(async () => {
  server = await startTestServer();
  worker = await startWorkerStandIn(EXTRA);
});

afterAll(async () => {
  await server.close();
  await worker.close();
  await closeBrowser();
});

/** The request dispatch builds for a job (src/queues/dispatch-video.ts), every URL at the stand-in. */
const requestFor = (jobId: string, a: NonNullable<ReturnType<typeof accept>>) => {
  const url = (name: string) => `${worker.base}/out/${jobId}/${name}?sig=1`;
  const { config, plan } = a;
  const thumbs = config.thumbnails ? thumbnailTimes(config.thumbnails, plan.seconds) : [];
  return {
    jobId,
    config,
    timeline: plan.timeline,
    inputs: Object.fromEntries(
      Object.entries(FILES).map(([ref, f]) => [ref, `${worker.base}/files/${f.file}?sig=1`]),
    ),
    output: {
      uploadUrl: url("output"),
      format: a.format,
      ...(config.autoSubtitles && {
        captions: { transcript: url("transcript"), vtt: url("vtt"), srt: url("srt") },
      }),
      ...(config.poster && { poster: url("poster") }),
      ...(config.thumbnails && {
        thumbnails: {
          frames: thumbs.map((_, i) => url(`thumb${i}`)),
          ...(config.thumbnails.sprite && { sprite: url("sprite"), vtt: url("sprite-vtt") }),
        },
      }),
    },
    callbackUrl: `${worker.base}/callback`,
    limits: { maxDurationSeconds: plan.seconds, deadlineSeconds: plan.deadlineSeconds },
    attempt: 1,
  };
};

describe("generated configs, rendered by the real renderer", () => {
  const regressions = REGRESSIONS.flatMap((raw) => accept(raw) ?? []);
  const configs = [...regressions, ...acceptedConfigs(RENDERS)];

  it("draws enough accepted configs to be worth it, and every regression case is still accepted", () => {
    expect(regressions.length).toBe(REGRESSIONS.length);
    expect(configs.length).toBe(REGRESSIONS.length + RENDERS);
  });

  it.each(configs.map((c, i) => [i, c] as const))(
    "config %i ends completed, or failed by its own fault with a message to act on",
    async (i, accepted) => {
      const jobId = `job_generated_${i}`;
      const res = await server.signedFetch("/render/video", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(requestFor(jobId, accepted)),
      });
      expect(res.status, await res.clone().text()).toBe(202);
      const report = await worker.final(jobId);
      const what = `${report.status}: ${report.error ?? ""}\n${JSON.stringify(accepted.config)}`;
      const completed = report.status === "completed";
      // Completed with its file stored; or failed as the job's own fault, in words written for the config's author:
      // naming the field to change (or the limit the job passed), never an internal error, a stack, a host path or
      // a tool's complaint about a graph we compiled.
      const outcome = completed
        ? { status: report.status, stored: (worker.puts.get(`/out/${jobId}/output`)?.bytes.length ?? 0) > 0 }
        : {
            status: report.status,
            fault: report.fault,
            retryable: report.retryable,
            actionable: ACTIONABLE.test(report.error ?? ""),
            internal: /internal error|TypeError|at .*\.ts:\d+|\/tmp\/|could not render the video/.test(
              report.error ?? "",
            ),
          };
      expect(outcome, what).toEqual(
        completed
          ? { status: "completed", stored: true }
          : { status: "failed", fault: "job", retryable: false, actionable: true, internal: false },
      );
    },
    120_000,
  );
});
