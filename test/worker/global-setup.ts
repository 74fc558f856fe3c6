/**
 * Global setup of both Worker test projects: the loopback canary, webhook receiver and S3-protocol server, and the
 * shared fixtures.
 * The renderer is started by renderer-setup.ts, for the `worker-render` project only.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { fontsourceFamily, fontsourceFile, STAND_IN_FAMILIES } from "../fonts/fontsource.ts";
import { startCanary } from "../net-canary.ts";
import { startReceiver } from "../webhook-receiver.ts";
import { startS3Server, type S3Server } from "../s3-server.ts";

declare module "vitest" {
  interface ProvidedContext {
    /** The shared test media (../shared/fixtures), base64 by file name: workerd cannot read the host's files. */
    fixtures: Record<string, string>;
    /** "full" under `npm run faults`, "short" otherwise (test/worker/faults/scale.ts). */
    faultsScale: string;
    /** Ports of the loopback canary hostile pages aim at (test/net-canary.ts); GET /__hits answers its counts. */
    canary: { httpPort: number; udpPort: number };
    /** Port of the loopback webhook receiver (test/webhook-receiver.ts). */
    webhookReceiverPort: number;
    /** The loopback S3-protocol server of the destination tests (test/s3-server.ts). */
    s3: S3Server;
    /** @fontsource families by id (../fonts/fontsource.ts), their woff2 files base64 by `<subset>-<weight>`. */
    fontsource: Record<
      string,
      { family: string; weights: number[]; subsets: Record<string, string>; files: Record<string, string> }
    >;
  }
}

export default async function setup(project: TestProject) {
  project.provide("faultsScale", process.env.FAULTS_SCALE === "full" ? "full" : "short");
  const canary = await startCanary();
  project.provide("canary", { httpPort: canary.httpPort, udpPort: canary.udpPort });
  const receiver = await startReceiver();
  project.provide("webhookReceiverPort", receiver.port);
  const s3 = await startS3Server();
  const { close: closeS3, ...s3Server } = s3;
  project.provide("s3", s3Server);
  // FIXTURES_DIR: a checkout that is not beside ../shared (a git worktree elsewhere) names the folder itself.
  const dir = process.env.FIXTURES_DIR ?? join(process.cwd(), "..", "shared", "fixtures");
  project.provide(
    "fixtures",
    Object.fromEntries(readdirSync(dir).map((f) => [f, readFileSync(join(dir, f)).toString("base64")])),
  );
  // The stand-in font catalogue's families (font-catalogue.ts), at the two weights the tests ask for.
  project.provide(
    "fontsource",
    Object.fromEntries(
      STAND_IN_FAMILIES.map((id) => {
        const f = fontsourceFamily(id);
        const files = Object.fromEntries(
          Object.keys(f.subsets).flatMap((subset) =>
            [400, 700].map((w) => [
              `${subset}-${w}`,
              readFileSync(fontsourceFile(id, subset, w)).toString("base64"),
            ]),
          ),
        );
        return [id, { family: f.family, weights: f.weights, subsets: f.subsets, files }];
      }),
    ),
  );
  return async () => {
    await canary.close();
    await receiver.close();
    await closeS3();
  };
}
