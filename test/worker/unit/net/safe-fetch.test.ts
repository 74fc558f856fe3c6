/**
 * The SSRF guard as a unit: miniflare lets a Worker reach private addresses, so the guard's refusals are
 * proven here, and redirect chains are served by a stand-in transport that records every hop it was asked for.
 */
import { describe, expect, it } from "vitest";
import { ValidationFailed, NotFound, UnprocessableMedia } from "../../../../src/lib/errors.ts";
import { readBody, safeFetch } from "../../../../src/net/safe-fetch.ts";
import { checkUrl, refusalOf } from "../../../../src/net/url-guard.ts";
import { withDns } from "../../fake-internet.ts";

const refused = (url: string) => refusalOf(new URL(url));

describe("url guard", () => {
  it.each([
    "http://127.0.0.1/a.mp4",
    "http://127.1.2.3/a.mp4",
    "http://2130706433/a.mp4", // decimal form of 127.0.0.1
    "http://0x7f.1/a.mp4",
    "http://0.0.0.0/a.mp4",
    "http://169.254.169.254/latest/meta-data/",
    "http://10.0.0.1/a.mp4",
    "http://10.255.255.255/a.mp4",
    "http://172.16.5.4/a.mp4",
    "http://172.31.255.1/a.mp4",
    "http://192.168.1.1/a.mp4",
    "http://100.64.0.1/a.mp4",
    "http://224.0.0.1/a.mp4",
    "http://[::1]/a.mp4",
    "http://[::]/a.mp4",
    "http://[::ffff:127.0.0.1]/a.mp4",
    "http://[::ffff:a9fe:a9fe]/a.mp4",
    "http://[fd00:ec2::254]/latest/",
    "http://[fe80::1]/a.mp4",
    "http://[64:ff9b::a00:1]/a.mp4",
    "http://[2002:7f00:1::]/a.mp4",
    "http://[::ffff:0:7f00:1]/a.mp4", // IPv4-translated 127.0.0.1 (RFC 2765)
    "http://[::ffff:0:a00:1]/a.mp4",
    "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/a.mp4", // Teredo
    "http://[2001::1]/a.mp4",
    "http://localhost/a.mp4",
    "http://foo.localhost/a.mp4",
    "http://printer.local/a.mp4",
    "http://metadata.google.internal/computeMetadata/v1/",
    "http://intranet/a.mp4",
    "ftp://example.com/a.mp4",
    "file:///etc/passwd",
    "http://user:pass@example.com/a.mp4",
  ])("refuses %s", (url) => {
    expect(refused(url)).not.toBeNull();
  });

  it.each([
    "https://example.com/a.mp4",
    "http://cdn.example.org:8080/v/a.mp3",
    "https://8.8.8.8/a.mp4",
    "https://172.32.0.1/a.mp4",
    "https://[2606:4700::1111]/a.mp4",
  ])("allows %s", (url) => {
    expect(refused(url)).toBeNull();
  });

  it("throws a 400 naming the field", () => {
    expect(() => checkUrl("http://10.0.0.1/x.png", "config.layers[0].src")).toThrowError(ValidationFailed);
    expect(() => checkUrl("not a url")).toThrowError(
      expect.objectContaining({ errors: [expect.objectContaining({ field: "url", code: "INVALID_URL" })] }),
    );
  });
});

/** A stand-in transport: a map of URL -> response factory, recording the requests it saw. */
const transport = (routes: Record<string, () => Response>) => {
  const seen: string[] = [];
  const fetcher = withDns(async (r: Request) => {
    seen.push(r.url);
    expect(r.redirect).toBe("manual");
    const route = routes[r.url];
    return route ? route() : new Response("nope", { status: 404 });
  });
  return { seen, fetcher };
};

const redirect =
  (to: string, status = 302) =>
  () =>
    new Response(null, { status, headers: { location: to } });

describe("safe fetch", () => {
  it("follows public redirects and returns the body", async () => {
    const t = transport({
      "https://a.example.com/x.mp3": redirect("/y.mp3", 301),
      "https://a.example.com/y.mp3": redirect("https://b.example.com/z.mp3"),
      "https://b.example.com/z.mp3": () =>
        new Response(new Uint8Array([1, 2, 3]), { headers: { "content-type": "audio/mpeg" } }),
    });
    const fetched = await safeFetch("https://a.example.com/x.mp3", { maxBytes: 10, fetcher: t.fetcher });
    expect(fetched.url.toString()).toBe("https://b.example.com/z.mp3");
    expect(await readBody(fetched)).toEqual(new Uint8Array([1, 2, 3]));
    expect(t.seen).toHaveLength(3);
  });

  it.each([
    "http://127.0.0.1/x",
    "http://169.254.169.254/latest/meta-data/",
    "http://[::1]/x",
    "http://10.0.0.8/x",
  ])("refuses a redirect to %s without requesting it", async (target) => {
    const t = transport({ "https://a.example.com/x.mp3": redirect(target) });
    await expect(
      safeFetch("https://a.example.com/x.mp3", { maxBytes: 10, fetcher: t.fetcher }),
    ).rejects.toThrowError(ValidationFailed);
    expect(t.seen).toEqual(["https://a.example.com/x.mp3"]);
  });

  it("stops after 5 redirects", async () => {
    const routes: Record<string, () => Response> = {};
    for (let i = 0; i < 10; i++) routes[`https://a.example.com/${i}`] = redirect(`/${i + 1}`);
    const t = transport(routes);
    await expect(
      safeFetch("https://a.example.com/0", { maxBytes: 10, fetcher: t.fetcher }),
    ).rejects.toThrowError(/Too many redirects/);
    expect(t.seen).toHaveLength(6);
  });

  it("refuses a declared length over the limit, and cuts off an undeclared one while streaming", async () => {
    const big = () => new Response(new Uint8Array(100), { headers: { "content-length": "100" } });
    const t1 = transport({ "https://a.example.com/big": big });
    await expect(
      safeFetch("https://a.example.com/big", { maxBytes: 50, fetcher: t1.fetcher }),
    ).rejects.toThrowError(UnprocessableMedia);
    const chunked = () =>
      new Response(
        new ReadableStream({
          pull(c) {
            c.enqueue(new Uint8Array(30));
          },
        }),
      );
    const t2 = transport({ "https://a.example.com/endless": chunked });
    const fetched = await safeFetch("https://a.example.com/endless", { maxBytes: 50, fetcher: t2.fetcher });
    await expect(readBody(fetched)).rejects.toThrowError(/larger than the 50-byte limit/);
  });

  it("refuses HTML pages, maps 404 to not found and other errors to 422", async () => {
    const t = transport({
      "https://a.example.com/page.mp4": () =>
        new Response("<html>", { headers: { "content-type": "text/html; charset=utf-8" } }),
      "https://a.example.com/err.mp4": () => new Response("x", { status: 500 }),
    });
    await expect(
      safeFetch("https://a.example.com/page.mp4", { maxBytes: 99, fetcher: t.fetcher }),
    ).rejects.toThrowError(/web page/);
    await expect(
      safeFetch("https://a.example.com/gone.mp4", { maxBytes: 99, fetcher: t.fetcher }),
    ).rejects.toThrowError(NotFound);
    await expect(
      safeFetch("https://a.example.com/err.mp4", { maxBytes: 99, fetcher: t.fetcher }),
    ).rejects.toThrowError(/status 500/);
  });

  it("gives up at the deadline", async () => {
    const hang = withDns(
      (r: Request) =>
        new Promise<Response>((_, reject) =>
          r.signal.addEventListener("abort", () => reject(r.signal.reason)),
        ),
    );
    await expect(
      safeFetch("https://a.example.com/slow.mp4", { maxBytes: 99, timeoutMs: 50, fetcher: hang }),
    ).rejects.toThrowError(/timed out/);
  });
});

describe("safe fetch: names are resolved and every address must be public", () => {
  const ok = async () => new Response(new Uint8Array(4), { headers: { "content-type": "audio/mpeg" } });

  it.each([
    ["127.0.0.1.nip.io", ["127.0.0.1"]],
    ["metadata.example.com", ["169.254.169.254"]],
    ["mixed.example.com", ["93.184.215.14", "10.0.0.7"]],
    ["v6.example.com", ["::1"]],
    ["mapped.example.com", ["::ffff:192.168.0.1"]],
    ["teredo.example.com", ["2001:0:4136:e378:8000:63bf:3fff:fdd2"]],
    ["nothing.example.com", []],
  ])("refuses %s resolving to %j", async (host, addresses) => {
    const fetcher = withDns(ok, { [host]: addresses });
    await expect(safeFetch(`https://${host}/a.mp3`, { maxBytes: 99, fetcher })).rejects.toSatisfy(
      (e) => e instanceof ValidationFailed && e.errors[0]!.code === "URL_NOT_ALLOWED",
    );
  });

  it("refuses a redirect to a name that resolves privately, and accepts a public one", async () => {
    const hops: string[] = [];
    const fetcher = withDns(
      async (r) => {
        hops.push(r.url);
        if (r.url === "https://public.example.com/a.mp3")
          return new Response(null, {
            status: 302,
            headers: { location: "https://rebind.example.com/a.mp3" },
          });
        return ok();
      },
      { "rebind.example.com": ["192.168.1.10"] },
    );
    await expect(safeFetch("https://public.example.com/a.mp3", { maxBytes: 99, fetcher })).rejects.toSatisfy(
      (e) =>
        e instanceof ValidationFailed && /resolves to a private.*192\.168\.1\.10/.test(e.errors[0]!.message),
    );
    expect(hops).toEqual(["https://public.example.com/a.mp3"]);
    const fine = withDns(ok, { "cdn.example.net": ["2606:4700::6810:84e5"] });
    expect((await safeFetch("https://cdn.example.net/a.mp3", { maxBytes: 99, fetcher: fine })).url.host).toBe(
      "cdn.example.net",
    );
  });

  it("fails closed when the resolver cannot be reached", async () => {
    const down = async (r: Request) => {
      if (r.url.includes("dns-query")) throw new Error("network down");
      return ok();
    };
    await expect(safeFetch("https://example.com/a.mp3", { maxBytes: 99, fetcher: down })).rejects.toSatisfy(
      (e) => e instanceof ValidationFailed && /could not be resolved/.test(e.errors[0]!.message),
    );
  });
});
