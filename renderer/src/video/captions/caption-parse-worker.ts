/** The worker thread that parses one captions file's text (its workerData) and posts its cues (caption-file.ts). */
import { parentPort, workerData } from "node:worker_threads";
import type { WorkerAnswer } from "../../lib/worker-task.ts";
import { parseCaptionsText, type ParsedCue } from "./caption-parse.ts";

const post = (answer: WorkerAnswer<ParsedCue[]>) => parentPort!.postMessage(answer);

parseCaptionsText(workerData as string).then(
  (value) => post({ ok: true, value }),
  (e: unknown) => post({ ok: false, error: e instanceof Error ? e.message : String(e) }),
);
