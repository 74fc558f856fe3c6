/** The one spawner: input given as a promise lets a process start before its input exists. */
import { describe, expect, it } from "vitest";
import { ProcessError, run } from "../src/lib/process.ts";
import { inputLast } from "../src/video/compile.ts";

const later = <T>(value: T, ms: number) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

describe("run", () => {
  it("feeds stdin that arrives after the process started", async () => {
    const started = Date.now();
    const { stdout } = await run("cat", [], { stdin: later(new TextEncoder().encode("sheet bytes"), 150) });
    expect(stdout.toString()).toBe("sheet bytes");
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it("kills the process and rejects with the input's own failure", async () => {
    const failing = Promise.reject(new Error("the screenshot failed"));
    await expect(run("cat", [], { stdin: failing })).rejects.toThrow("the screenshot failed");
  });

  it("still reports the process's failure when it exits before reading its input", async () => {
    await expect(run("false", [], { stdin: later(new Uint8Array(10), 50) })).rejects.toBeInstanceOf(
      ProcessError,
    );
  });
});

describe("inputLast", () => {
  it("moves the input reading a path to the end and renumbers the graph's references", () => {
    const graph = {
      inputs: [
        ["-f", "png_pipe", "-i", "pipe:0"],
        ["-i", "a.jpg"],
        ["-ss", "5", "-i", "b.mp4"],
      ],
      filterGraph: "[0:v]crop=10:10:0:0[t];[1:v]scale=4:4[i];[2:v]null[v];[2:a]anull[a];[i][t]overlay[o]",
      transitions: [],
    };
    expect(inputLast(graph, "pipe:0")).toEqual({
      inputs: [
        ["-i", "a.jpg"],
        ["-ss", "5", "-i", "b.mp4"],
        ["-f", "png_pipe", "-i", "pipe:0"],
      ],
      filterGraph: "[2:v]crop=10:10:0:0[t];[0:v]scale=4:4[i];[1:v]null[v];[1:a]anull[a];[i][t]overlay[o]",
      transitions: [],
    });
    expect(inputLast(graph, "missing")).toBe(graph);
  });
});
