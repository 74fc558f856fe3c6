/**
 * A real S3-protocol server for the destination tests: @20minutes/s3rver (the maintained fork of s3rver, which
 * verifies SigV4 signatures: a wrong secret is a 403 SignatureDoesNotMatch), on a loopback port it takes itself,
 * storing into a folder of its own that is removed when it stops. Its one key pair and bucket are below. It notes
 * the framing of every request it gets (`GET /__requests` answers method, path, Content-Length, Transfer-Encoding:
 * workerd cannot read this process's memory). Also a "dead" endpoint: a port of our own whose every connection is
 * dropped at once, as an unreachable service's is.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer as createHttpServer } from "node:http";
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

/** How one request reached the server. */
export interface SeenRequest {
  method: string;
  path: string;
  contentLength: string | null;
  transferEncoding: string | null;
}

interface S3rverInstance {
  configureBuckets: () => Promise<void>;
  callback: () => (req: unknown, res: unknown) => void;
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
  await server.configureBuckets();
  // The server's own handler, behind a listener that notes each request's framing first.
  const handle = server.callback();
  const seen: SeenRequest[] = [];
  const http = createHttpServer((req, res) => {
    if (req.url === "/__requests") {
      res.setHeader("content-type", "application/json");
      return void res.end(JSON.stringify(seen));
    }
    seen.push({
      method: req.method ?? "",
      path: (req.url ?? "").split("?")[0]!,
      contentLength: req.headers["content-length"] ?? null,
      transferEncoding: req.headers["transfer-encoding"] ?? null,
    });
    handle(req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const port = (http.address() as AddressInfo).port;
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
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
      rmSync(directory, { recursive: true, force: true });
    },
  };
};
