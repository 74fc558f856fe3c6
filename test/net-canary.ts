/**
 * A loopback canary for "nothing reaches the network": an HTTP server and a UDP socket that count everything
 * they receive. Hostile pages aim fetches, frames, WebSockets and STUN/TURN at them; a sealed browser leaves both
 * counts at zero. `GET /__hits` on the HTTP port answers the counts (and is not counted), for tests that run
 * where the canary's memory is not (workerd).
 */
import { createSocket } from "node:dgram";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface Hits {
  http: number;
  udp: number;
  /** What was asked for, for the failure message. */
  seen: string[];
}

export interface Canary {
  httpPort: number;
  udpPort: number;
  hits: () => Hits;
  close: () => Promise<void>;
}

export const startCanary = async (): Promise<Canary> => {
  const hits: Hits = { http: 0, udp: 0, seen: [] };
  const udp = createSocket("udp4");
  udp.on("message", (_msg, from) => {
    hits.udp++;
    hits.seen.push(`udp from ${from.address}:${from.port}`);
  });
  await new Promise<void>((resolve) => udp.bind(0, "127.0.0.1", resolve));
  const server = createServer((req, res) => {
    if (req.url === "/__hits") return void res.end(JSON.stringify(hits));
    hits.http++;
    hits.seen.push(`${req.method} ${req.url}`);
    res.end("canary");
  });
  // WebSocket upgrades are requests too.
  server.on("upgrade", (req, socket) => {
    hits.http++;
    hits.seen.push(`upgrade ${req.url}`);
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    httpPort: (server.address() as AddressInfo).port,
    udpPort: (udp.address() as AddressInfo).port,
    hits: () => ({ ...hits, seen: [...hits.seen] }),
    close: async () => {
      udp.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
};
