/**
 * A real local HTTP receiver for the v2 webhook tests and benchmark. `POST /hook/<box>` records the delivery
 * (headers, raw body, time) and answers as the query asks: `fail=N` answers `status` (default 500) to the first N
 * requests of the box, with `Retry-After: <retryAfter>` (or the HTTP date of epoch ms `retryAt`) when given; `redirect=1` always answers 302; `delay=<ms>`
 * waits first; otherwise 200. `GET /__box/<box>` answers what the box received (workerd cannot read this
 * process's memory; `?count` answers only how many, for cheap polling), `DELETE /__box/<box>` empties it.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface Received {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  /** What the receiver answered. */
  answered: number;
  at: number;
}

export interface Receiver {
  port: number;
  close: () => Promise<void>;
}

export const startReceiver = async (): Promise<Receiver> => {
  const boxes = new Map<string, Received[]>();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://receiver");
    const box = url.pathname.split("/")[2] ?? "";
    if (url.pathname.startsWith("/__box/")) {
      if (req.method === "DELETE") boxes.delete(box);
      res.setHeader("content-type", "application/json");
      const list = boxes.get(box) ?? [];
      return void res.end(JSON.stringify(url.searchParams.has("count") ? { count: list.length } : list));
    }
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const list = boxes.get(box) ?? [];
      boxes.set(box, list);
      const q = url.searchParams;
      const failing = list.length < Number(q.get("fail") ?? 0);
      const status = q.get("redirect") ? 302 : failing ? Number(q.get("status") ?? 500) : 200;
      list.push({
        id: String(req.headers["webhook-id"] ?? ""),
        timestamp: String(req.headers["webhook-timestamp"] ?? ""),
        signature: String(req.headers["webhook-signature"] ?? ""),
        body: Buffer.concat(chunks).toString("utf8"),
        answered: status,
        at: Date.now(),
      });
      const answer = () => {
        if (status === 302) res.setHeader("location", "http://127.0.0.1:1/elsewhere");
        if (failing && q.get("retryAfter")) res.setHeader("retry-after", q.get("retryAfter")!);
        if (failing && q.get("retryAt"))
          res.setHeader("retry-after", new Date(Number(q.get("retryAt"))).toUTCString());
        res.statusCode = status;
        res.end(status === 200 ? "ok" : "nope");
      };
      const delay = Number(q.get("delay") ?? 0);
      if (delay > 0) setTimeout(answer, delay);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
