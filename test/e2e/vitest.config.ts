/**
 * End-to-end tests: the service started exactly as `npm start` starts it (global-setup.ts), driven over HTTP on
 * loopback; every answer checked against the OpenAPI document (contract.ts). The files run one at a time, the fault
 * suites (faults/: they kill and freeze the renderers) after every other.
 */
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { defineConfig } from "vitest/config";

class FaultsLast extends BaseSequencer {
  override async sort(files: TestSpecification[]) {
    const sorted = await super.sort(files);
    const faults = (f: TestSpecification) => f.moduleId.includes("/test/e2e/faults/");
    return [...sorted.filter((f) => !faults(f)), ...sorted.filter(faults)];
  }
}

export default defineConfig({
  test: {
    include: ["test/e2e/**/*.test.ts"],
    globalSetup: ["test/e2e/global-setup.ts"],
    // Every answer the tests receive is held to the OpenAPI document.
    setupFiles: ["test/e2e/contract.ts"],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    fileParallelism: false,
    // One module graph for all files (they run one after another anyway): the OpenAPI document, its checker and the
    // helpers are loaded once, not once per file.
    isolate: false,
    sequence: { sequencer: FaultsLast },
  },
});
