import { describe, expect, it } from "vitest";
import { render } from "./harness.ts";
import { compareWithReference } from "./pixels.ts";
import { REFERENCE_CONFIGS } from "./reference-configs.ts";

describe("image rendering matches the committed reference renders", () => {
  for (const [name, config] of Object.entries(REFERENCE_CONFIGS)) {
    it(`renders ${name} like test/fixtures/reference/${name}.png`, async () => {
      const png = await render(config);
      const result = await compareWithReference(name, png);
      expect(result.missing, `no reference ${name}.png (UPDATE_REFERENCES=1 writes it)`).toBe(false);
      expect(result.sameSize).toBe(true);
      // Anti-aliasing may move by a shade between runs; a changed layout moves whole regions.
      expect(result.meanDiff).toBeLessThan(1.5);
      expect(result.badShare).toBeLessThan(0.005);
    });
  }
});
