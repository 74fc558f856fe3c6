/**
 * The callback fields `mrs render` and `mrs templates render` add to the job (client/src/cli/jobs.ts): only the
 * options given, --metadata parsed as JSON, and metadata that is not JSON refused as a usage mistake.
 */
import { describe, expect, it } from "vitest";
import { UsageError } from "../../../src/cli/command-line.ts";
import { callbackFields } from "../../../src/cli/jobs.ts";

describe("a job's callback fields", () => {
  it("sets only the fields whose options are given", () => {
    expect(callbackFields({})).toEqual({});
    expect(callbackFields({ "webhook-url": "https://hooks.example/a" })).toEqual({
      webhookUrl: "https://hooks.example/a",
    });
    expect(
      callbackFields({ "webhook-url": "https://hooks.example/a", metadata: '{"order":42,"tags":["x"]}' }),
    ).toEqual({ webhookUrl: "https://hooks.example/a", metadata: { order: 42, tags: ["x"] } });
  });

  it("refuses metadata that is not JSON, naming it", () => {
    expect(() => callbackFields({ metadata: "{order: 42}" })).toThrow(UsageError);
    expect(() => callbackFields({ metadata: "{order: 42}" })).toThrow("--metadata is not JSON: {order: 42}");
  });
});
