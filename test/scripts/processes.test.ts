/** scripts/lib/processes.mjs: a service that dies while starting says why, even when its output is quiet. */
import { describe, expect, it } from "vitest";
import { startProcess, waitForUrl } from "../../scripts/lib/processes.mjs";

describe("waitForUrl", () => {
  it("names the exit code and the last lines of a quiet process that exits before it is ready", async () => {
    const lines = Array.from({ length: 50 }, (_, i) => `line ${i}`).join("; echo ");
    const child = startProcess(
      "svc",
      "sh",
      ["-c", `echo ${lines}; echo 'bind: address in use' >&2; exit 3`],
      {
        quiet: true,
      },
    );
    const error = await waitForUrl("http://127.0.0.1:9/health", 10_000, child).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    const message = (error as Error).message;
    expect(message).toMatch(/process exited with code 3; its last output:/);
    expect(message).toContain("[svc] bind: address in use");
    expect(message).toContain("[svc] line 49");
    // Only the last 40 lines are kept.
    expect(message).not.toContain("[svc] line 9\n");
    expect(message.split("\n").filter((l) => l.startsWith("[svc]"))).toHaveLength(40);
  });
});
