/**
 * A real S3-protocol server for the destination tests: @20minutes/s3rver (the maintained fork of s3rver, which
 * verifies SigV4 signatures: a wrong secret is a 403 SignatureDoesNotMatch), on a loopback port it takes itself,
 * storing into a folder of its own that is removed when it stops. Its one key pair and bucket are below. Also a
 * "dead" endpoint: a port of our own whose every connection is dropped at once, as an unreachable service's is.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRequire } from "node:module";

/** What a test needs to reach the server (workerd cannot read this process's memory). */
export interface S3Server {
  port: number;
  /** A port whose connections are dropped as soon as they open. */
  deadPort: number;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
}

export const S3_BUCKET = "renders";
export const S3_ACCESS_KEY_ID = "AKIATESTDESTINATIONS";
export const S3_SECRET_ACCESS_KEY = "test/Secret+Key0123456789abcdefghijklmnopq";

interface S3rverInstance {
  run: () => Promise<AddressInfo>;
  close: () => Promise<void>;
}

export const startS3Server = async (): Promise<S3Server & { close: () => Promise<void> }> => {
  const require = createRequire(import.meta.url);
  const S3rver = require("@20minutes/s3rver") as new (options: Record<string, unknown>) => S3rverInstance;
  // The server's accounts are a module-level registry: the test key pair joins its built-in account.
  const accounts = require("@20minutes/s3rver/lib/models/account") as {
    DUMMY_ACCOUNT: { createKeyPair: (id: string, secret: string) => void };
  };
  accounts.DUMMY_ACCOUNT.createKeyPair(S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY);
  const directory = mkdtempSync(join(tmpdir(), "s3rver-"));
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    directory,
    silent: true,
    vhostBuckets: false,
    configureBuckets: [{ name: S3_BUCKET }],
  });
  const { port } = await server.run();
  const dead = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => dead.listen(0, "127.0.0.1", resolve));
  return {
    port,
    deadPort: (dead.address() as AddressInfo).port,
    bucket: S3_BUCKET,
    accessKeyId: S3_ACCESS_KEY_ID,
    secretAccessKey: S3_SECRET_ACCESS_KEY,
    close: async () => {
      await new Promise<void>((resolve) => dead.close(() => resolve()));
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
};
