/**
 * Parallel rendering's pure parts (src/video/chunks.ts): a chunk render's pipes (its windows: the contract's
 * windows.test.ts), the queue ids
 * and the join's progress (a chunk's graph is a window's: compile.window.test.ts). The renders themselves: renderer/test/video/render-chunks.test.ts.
 */
import { brokenPipe } from "../../../src/lib/process.ts";
import { describe, expect, it } from "vitest";
import { cancelRenders, joinPercent, queueId } from "../../../src/video/chunks.ts";

describe("brokenPipe: a writer whose reader stopped reading is not a failure", () => {
  const closed = (code: string) => Object.assign(new Error(`write ${code}`), { code });

  it("is a closed pipe (ffmpeg ended at its last frame, or stopped reading a layer)", () => {
    for (const code of ["EPIPE", "ECANCELED", "ECONNRESET", "ERR_STREAM_DESTROYED"])
      expect(brokenPipe(closed(code))).toBe(true);
    expect(brokenPipe({ signal: "SIGPIPE" })).toBe(true);
  });

  it("is not any other failure of a writer (a shader that cannot be drawn, a full disk)", () => {
    expect(brokenPipe(new Error("gl layer fragmentShader could not be drawn"))).toBe(false);
    expect(brokenPipe(closed("ENOSPC"))).toBe(false);
    expect(brokenPipe(undefined)).toBe(false);
  });
});

describe("a split job's renders on one renderer", () => {
  it("queue each chunk under its own id, beside the job's own render", () => {
    expect(queueId("job_1")).toBe("job_1");
    expect(queueId("job_1", 0)).not.toBe(queueId("job_1", 1));
  });

  it("are cancelled one chunk at a time, or all with the job when no attempt is named", () => {
    const held = new Set([queueId("job_1", 0), queueId("job_1", 1), queueId("job_2", 0)]);
    const queue = {
      held: () => [...held].map((id) => ({ id })),
      cancel: (id: string) => held.delete(id),
    };
    expect(cancelRenders(queue, "job_1", 1, 1)).toBe(true);
    expect([...held]).toEqual([queueId("job_1", 0), queueId("job_2", 0)]);
    expect(cancelRenders(queue, "job_1")).toBe(true);
    expect([...held]).toEqual([queueId("job_2", 0)]);
    expect(cancelRenders(queue, "job_1")).toBe(false);
  });

  it("report a join's progress as the job's last tenth, a chunk's as its own", () => {
    expect(joinPercent({ join: {} }, 0)).toBe(90);
    expect(joinPercent({ join: {} }, 100)).toBe(100);
    expect(joinPercent({}, 40)).toBe(40);
  });
});
