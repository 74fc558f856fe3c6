/**
 * The mrs command line before any command runs (client/src/cli/command-line.ts): a command and its arguments are
 * judged with the one-line message the user sees, and a malformed option is a UsageError naming it. The CLI as a
 * process: test/scripts/command-line.test.ts and test/e2e/cli.test.ts.
 */
import { describe, expect, it } from "vitest";
import { commandProblem, readCommandLine, UsageError } from "../../../src/cli/command-line.ts";

describe("what is wrong with a command", () => {
  it.each([
    [["render"], "render needs a job file"],
    [["validate"], "validate needs a job file"],
    [["templates", "render"], "templates render needs a template id"],
    [["templates", "delete", "t1"], "unknown command templates delete"],
    [["batches", "cancel"], "unknown command batches cancel"],
    [["files", "upload"], "files upload needs a file"],
    [["files", "delete"], "files delete needs a file id"],
    [["files", "rename", "f1"], "unknown command files rename"],
    [["jobs", "get"], "jobs get needs a job id"],
    [["jobs", "cancel"], "jobs cancel needs a job id"],
    [["jobs", "retry", "j1"], "unknown command jobs retry"],
    [["nosuchcommand"], "unknown command nosuchcommand"],
    [["toString"], "unknown command toString"],
  ])("%j: %s", ([command, sub, arg], says) => {
    expect(commandProblem(command!, sub, arg)).toBe(says);
  });

  it.each([
    [["render", "job.json"]],
    [["validate", "job.json"]],
    [["templates"]],
    [["templates", "list"]],
    [["templates", "render", "t1"]],
    [["batches", "list"]],
    [["files", "upload", "a.png"]],
    [["files", "delete", "f1"]],
    [["jobs"]],
    [["jobs", "get", "j1"]],
    [["callbacks"]],
    [["key"]],
  ])("%j is a command", ([command, sub, arg]) => {
    expect(commandProblem(command!, sub, arg)).toBeUndefined();
  });
});

describe("reading the command line", () => {
  it("answers the words and the options' values", () => {
    const { positionals, values } = readCommandLine([
      "templates",
      "render",
      "t1",
      "--var",
      "a=1",
      "--var",
      "b=2",
      "--no-wait",
      "-h",
    ]);
    expect(positionals).toEqual(["templates", "render", "t1"]);
    expect(values).toEqual({ var: ["a=1", "b=2"], "no-wait": true, help: true });
  });

  it.each([
    [["--no-such-option"], "unknown option --no-such-option"],
    [["render", "job.json", "--out"], "Option '--out <value>' argument missing"],
    [["key", "--help=yes"], "Option '-h, --help' does not take an argument"],
  ])("%j is a UsageError: %s", (argv, says) => {
    const read = () => readCommandLine(argv);
    expect(read).toThrow(UsageError);
    expect(read).toThrow(says);
  });
});
