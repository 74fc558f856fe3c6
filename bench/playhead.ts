/**
 * The builder's frame at the playhead (`npm run bench playhead`): how long the frame of a video timeline at a given
 * time takes to reach the builder, through the service as the builder asks for it (web/src/builder/video/
 * frame-preview.ts: a `still` job in preview mode, `fast: true`, without audio), on a warm local service
 * (`scripts/start.mjs`, one renderer): from the job's creation to its PNG downloaded, polling the job every POLL_MS.
 *
 * The timeline is bench/_edit.ts's edit (Ken Burns photos with titles, HEVC cuts, fades; 7 s clips, as the API takes
 * at most 100) at 1920x1080, BENCH_MINUTES long (default 10), and the baseline is the same edit 22 s long, in the same run: the frame at 1 %, 25 %, 50 %, 75 %
 * and 99 % of each, BENCH_ROUNDS rounds (default 3), interleaved. Frame-addressable rendering's claim is that the
 * long timeline's frame costs what the short one's does, wherever the playhead is; the goal is under 1 s warm.
 */
import { join } from "node:path";
import { startLocalService } from "../scripts/lib/processes.mjs";
import { buildTimeline } from "@media-render/contract/timeline";
import { serviceApi } from "./_api.ts";
import { editConfig } from "./_edit.ts";
import { conditions, loadNow, median, quantile, spread } from "./_lib.ts";

const root = join(import.meta.dirname, "..");
const FIX = process.env.FIXTURES_DIR ?? join(import.meta.dirname, "..", "..", "shared", "fixtures");
const MINUTES = Number(process.env.BENCH_MINUTES ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const FRACTIONS = [0.01, 0.25, 0.5, 0.75, 0.99];
const POLL_MS = 20;
const GOAL_S = 1;

const main = async () => {
  console.log(conditions("playhead"));
  const local = await startLocalService(root, { quiet: !process.env.BENCH_VERBOSE });
  try {
    let accounts = 0;
    let key = "";
    const api = serviceApi(local.base, () => key);
    const size = { width: 1920, height: 1080, fps: 25 };
    const timelinesOf = (photo: string, video: string) => ({
      long: editConfig({ ...size, seconds: MINUTES * 60, clipSeconds: 7, photo, video }),
      short: editConfig({ ...size, seconds: 10, clipSeconds: 7, photo, video }),
    });
    let timelines = timelinesOf("", "");
    // A fresh account each round, its media uploaded: the per-key limits would otherwise count the benchmark's own
    // polls.
    const newAccount = async () => {
      key = await local.key({ email: `bench-playhead-${++accounts}@example.com`, plan: "business" });
      timelines = timelinesOf(
        await api.upload(join(FIX, "img2.jpg")),
        await api.upload(join(FIX, "kohlipe3.mp4")),
      );
    };
    await newAccount();
    /** The edit's length, as the service plans it (the contract's frame-exact timeline). */
    const lengthOf = (config: ReturnType<typeof editConfig>) =>
      buildTimeline(config as never, { videoLength: () => null }).duration;

    /** Seconds from the still job's creation to its PNG in hand. */
    const frameAt = async (config: ReturnType<typeof editConfig>, time: number) => {
      const still = { ...config, keepSourceAudio: false, fast: true, still: { time } };
      const { seconds, output } = await api.render(still, POLL_MS);
      if (output.byteLength < 100) throw new Error(`frame at ${time} s: ${output.byteLength} bytes`);
      return seconds;
    };

    // Warm: the renderer's modules, Chromium's text page, this account's inputs in its cache.
    const warm = async () => {
      for (const config of Object.values(timelines)) {
        const at = lengthOf(config);
        for (const f of [0.01, 0.99]) await frameAt(config, Math.round(at * f * 100) / 100);
      }
    };
    const seconds: Record<string, Record<number, number[]>> = { long: {}, short: {} };
    const ratios: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      if (round > 0) await newAccount();
      await warm();
      for (const f of FRACTIONS) {
        const pair: number[] = [];
        for (const [name, config] of Object.entries(timelines)) {
          const time = Math.round(lengthOf(config) * f * 100) / 100;
          const s = await frameAt(config, time);
          (seconds[name]![f] ??= []).push(s);
          pair.push(s);
        }
        ratios.push(pair[0]! / pair[1]!);
      }
    }
    const long = lengthOf(timelines.long);
    const short = lengthOf(timelines.short);
    for (const f of FRACTIONS)
      console.log(
        `frame at ${Math.round(f * 100)} %: ${long} s timeline ${spread(seconds.long![f]!, " s")}; ${short} s timeline ${spread(seconds.short![f]!, " s")}`,
      );
    const all = Object.values(seconds.long!).flat();
    console.log(
      `${long} s timeline, any playhead: median ${median(all).toFixed(2)} s, p95 ${quantile(all, 0.95).toFixed(2)} s (goal under ${GOAL_S} s warm)`,
    );
    console.log(`${long} s timeline over ${short} s timeline, same playhead share: ${spread(ratios)}`);
    console.log(`load average after: ${loadNow()}`);
  } finally {
    await local.stop();
  }
};

await main();
