/**
 * What a hostile html layer or gl shader could reach if it took over the Chromium it runs in, checked on real
 * renders of the renderer's start command (`node renderer/src/server.ts`, RENDERER_SECRET in its environment, run
 * as root like the image): every Chromium process runs as the unprivileged browser user (no groups, no
 * capabilities, no_new_privs), with nothing of the renderer's environment, inside Chromium's sandbox where it
 * starts here; a process with those credentials cannot read the renderer's environment, PID 1's, a job's temp
 * files or a 0600 secrets file. Every GPU entry point of an html layer's script is closed (pixels of the rendered
 * video), and of the text and html browsers even without the page's policy and prelude; the WebGL page keeps its
 * WebGL and nothing more.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureDevVars } from "../../../scripts/lib/secrets.mjs";
import { DEFAULT_RENDER_TOOLS } from "../../src/settings.ts";
import {
  closeBrowser,
  getBrowser,
  getCaptureBrowser,
  launchOwnBrowser,
} from "../../src/video/raster/browser.ts";
import { lookupUser } from "../../src/lib/run-as.ts";
import { launchChromium } from "../../src/video/raster/launch-chromium.ts";
import { chromiumProcessesUnder, type ChromiumProcess } from "../helpers/chromium-processes.ts";
import { signedFetcher } from "../helpers/start-test-server.ts";
import { startWorkerStandIn, type WorkerStandIn } from "../helpers/worker-stand-in.ts";
import { colorAt, near } from "./media-helpers.ts";

const ENTRY = fileURLToPath(new URL("../../src/server.ts", import.meta.url));
const SECRET = `isolation-${randomBytes(12).toString("hex")}`;
const BROWSER_USER = lookupUser(DEFAULT_RENDER_TOOLS.chromiumUser);
/** Whether this kernel lets an unprivileged user create namespaces (what Chromium's sandbox needs here). */
const USER_NAMESPACES =
  Number(readFileSync("/proc/sys/user/max_user_namespaces", "utf8")) > 0 &&
  (() => {
    try {
      return readFileSync("/proc/sys/kernel/apparmor_restrict_unprivileged_userns", "utf8").trim() !== "1";
    } catch {
      return true;
    }
  })();

/**
 * The GPU entry points a page script has, each probed and painted into its own cell: green when closed, red when
 * it reached a GPU context (or an adapter), blue while unsettled. Also run (without the cells) on bare pages.
 */
const GPU_PROBES = `
const frameWindow = () => { const f = document.createElement("iframe"); document.body.appendChild(f); return f.contentWindow; };
const probes = {
  "canvas webgl": () => document.createElement("canvas").getContext("webgl"),
  "canvas webgl2": () => document.createElement("canvas").getContext("webgl2"),
  "canvas experimental-webgl": () => document.createElement("canvas").getContext("experimental-webgl"),
  "OffscreenCanvas webgl": () => new OffscreenCanvas(4, 4).getContext("webgl"),
  "OffscreenCanvas webgl2": () => new OffscreenCanvas(4, 4).getContext("webgl2"),
  "transferControlToOffscreen": () => document.createElement("canvas").transferControlToOffscreen().getContext("webgl2"),
  "a fresh frame's canvas": () => { const w = frameWindow(); return new w.OffscreenCanvas(4, 4).getContext("webgl2") || w.document.createElement("canvas").getContext("webgl"); },
  "WebGPU adapter": async () => { for (const n of [navigator, frameWindow().navigator]) if (n.gpu && (await n.gpu.requestAdapter())) return true; return false; },
  "WebNN context": async () => { for (const n of [navigator, frameWindow().navigator]) if (n.ml && (await n.ml.createContext())) return true; return false; },
  "a worker's OffscreenCanvas": () => new Promise((resolve) => {
    const src = 'postMessage(!!new OffscreenCanvas(4, 4).getContext("webgl2"))';
    const w = new Worker(URL.createObjectURL(new Blob([src], { type: "text/javascript" })));
    w.onmessage = (e) => resolve(e.data === true);
    w.onerror = () => resolve(false);
  }),
};
const settle = (f) => { try { return Promise.resolve(f()).then((v) => !!v, () => false); } catch { return Promise.resolve(false); } };
`;
const PROBE_NAMES = [
  "canvas webgl",
  "canvas webgl2",
  "canvas experimental-webgl",
  "OffscreenCanvas webgl",
  "OffscreenCanvas webgl2",
  "transferControlToOffscreen",
  "a fresh frame's canvas",
  "WebGPU adapter",
  "WebNN context",
  "a worker's OffscreenCanvas",
];

/** An html layer (320x180) with a 64x90 cell per probe, five to a row. */
const gpuProbeLayer = {
  type: "html",
  animated: true,
  duration: 1,
  enableLibraries: true,
  html: `<style>html,body{margin:0}.c{position:absolute;width:64px;height:90px;background:#00f}</style>
${PROBE_NAMES.map((_, i) => `<div class="c" style="left:${(i % 5) * 64}px;top:${Math.floor(i / 5) * 90}px"></div>`).join("")}
<script>${GPU_PROBES}
const cells = document.querySelectorAll(".c");
Object.values(probes).forEach((f, i) => settle(f).then((open) => { cells[i].style.background = open ? "#f00" : "#0f0"; }));
</script>`,
};

/** A shader of a few hundred turns a pixel: its page lives long enough to be looked at. */
const SLOW_SHADER = `uniform float time; uniform vec2 resolution;
void main() { float c = 0.0; for (int i = 0; i < 400; i++) c += sin(float(i) * gl_FragCoord.x * 0.01 + time);
  gl_FragColor = vec4(fract(c), 0.2, 0.4, 1.0); }`;

let worker: WorkerStandIn;
let server: ChildProcess;
let tmpDir: string;
let signedFetch: ReturnType<typeof signedFetcher>;

/** Starts the renderer's entry as production does (RENDERER_SECRET in its environment); resolves with its URL. */
const startEntry = async (env: Record<string, string>): Promise<string> => {
  server = spawn(process.execPath, [ENTRY], {
    env: { PATH: process.env.PATH ?? "", HOST: "127.0.0.1", PORT: "0", RENDERER_SECRET: SECRET, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  server.stderr!.on("data", (c: Buffer) => (output += c.toString()));
  return new Promise((resolve, reject) => {
    server.stdout!.on("data", (c: Buffer) => {
      output += c.toString();
      const m = /listening on (http:\/\/\S+)/.exec(output);
      if (m?.[1]) resolve(m[1]);
    });
    server.once("exit", (code) => reject(new Error(`renderer exited early (${code}): ${output}`)));
  });
};

beforeAll(async () => {
  worker = await startWorkerStandIn();
  tmpDir = await mkdtemp(join(tmpdir(), "renderer-isolation-"));
  // Anyone may enter it, as /tmp: only the renderer's own modes (0700 job folders, 0600 secrets) protect what is inside.
  await chmod(tmpDir, 0o755);
  const url = await startEntry({ TMP_DIR: join(tmpDir, "renderer"), RENDER_SLOTS: "1" });
  signedFetch = signedFetcher(url, SECRET);
}, 60_000);

afterAll(async () => {
  server?.kill("SIGTERM");
  await worker?.close();
  await closeBrowser();
  await rm(tmpDir, { recursive: true, force: true });
});

/** Runs `argv` with exactly the credentials of process `p` (uid, gid, no groups, no capabilities, no_new_privs). */
const asProcess = (p: ChromiumProcess, argv: string[]) => {
  return spawnSync(
    "setpriv",
    [
      `--reuid=${p.uid}`,
      `--regid=${p.gid}`,
      "--clear-groups",
      "--inh-caps=-all",
      "--bounding-set=-all",
      "--no-new-privs",
      "--",
      ...argv,
    ],
    { encoding: "utf8", env: {} },
  );
};

/** The renderer switches users only when it runs as root (the image, these machines); otherwise Chromium's sandbox. */
const ROOT = process.getuid?.() === 0;

describe.skipIf(!ROOT)("the browsers that run users' pages and shaders", () => {
  it("run as the browser user with nothing of ours, and a process with their credentials reaches no secret", async () => {
    expect(BROWSER_USER, "npm run setup creates the browser user").not.toBeNull();
    const jobId = "isolation";
    const job = {
      jobId,
      config: {
        width: 320,
        height: 180,
        fps: 10,
        clips: [
          {
            duration: 1,
            layers: [gpuProbeLayer, { type: "title", text: "text browser", position: "bottom" }],
          },
          { duration: 1.5, layers: [{ type: "gl", fragmentShader: SLOW_SHADER }] },
        ],
      },
      inputs: {},
      output: { uploadUrl: `${worker.base}/upload/${jobId}.mp4`, format: "mp4" },
      callbackUrl: `${worker.base}/callback`,
      attempt: 1,
      accountId: "acct-isolation",
    };
    // A 0600 secrets file as the project's setup writes .dev.vars, in a folder anyone may enter.
    const devDir = await mkdtemp(join(tmpDir, "dev-"));
    await chmod(devDir, 0o755);
    ensureDevVars(devDir);
    const devVarsFile = join(devDir, ".dev.vars");

    const seen = new Map<number, ChromiumProcess>();
    /** How many looks saw each process: one seen once may have been caught before it entered its sandbox. */
    const looks = new Map<number, number>();
    const probes: {
      role: string | null;
      type: string;
      target: string;
      status: number | null;
      out: string;
    }[] = [];
    let probed = false;
    const look = () => {
      // The latest look at each (a process enters the sandbox a moment after it starts), with the role an earlier
      // look found: a process whose browser is exiting (its command line already empty) has none to find.
      for (const p of chromiumProcessesUnder(server.pid!)) {
        seen.set(p.pid, { ...p, role: p.role ?? seen.get(p.pid)?.role ?? null });
        looks.set(p.pid, (looks.get(p.pid) ?? 0) + 1);
      }
      // While the shader draws (its job's temp directory exists), a process with the GPU process's credentials,
      // and one with a capture renderer's, try the renderer's secrets.
      const gpu = [...seen.values()].find((p) => p.role === "gl" && p.type === "gpu-process");
      const jobs = readdirSync(join(tmpDir, "renderer"));
      if (!gpu || probed || jobs.length === 0) return;
      probed = true;
      const capture = [...seen.values()].find((p) => p.role === "capture" && p.type === "renderer");
      for (const p of [gpu, capture].filter((x) => x !== undefined)) {
        for (const target of [
          `/proc/${server.pid}/environ`,
          "/proc/1/environ",
          devVarsFile,
          join(tmpDir, "renderer", jobs[0]!),
        ]) {
          const r = asProcess(p, ["sh", "-c", `cat "$1" 2>&1 || ls "$1" 2>&1`, "probe", target]);
          probes.push({ role: p.role, type: p.type, target, status: r.status, out: r.stdout });
        }
      }
    };
    const watching = setInterval(look, 40);
    try {
      expect((await signedFetch("/render/video", { method: "POST", body: JSON.stringify(job) })).status).toBe(
        202,
      );
      const final = await worker.final(jobId);
      expect(final, JSON.stringify(final)).toMatchObject({ status: "completed" });
    } finally {
      clearInterval(watching);
    }
    const all = [...seen.values()];
    const kinds = new Map<string, number>();
    for (const p of all) kinds.set(`${p.role} ${p.type}`, (kinds.get(`${p.role} ${p.type}`) ?? 0) + 1);
    console.log(
      `[isolation] ${all.length} Chromium processes seen: ${[...kinds].map(([k, n]) => `${k} x${n}`).join(", ")}; ` +
        `${probes.length} credential probes: ${probes.map((p) => `${p.role} ${p.type} ${p.target}: ${p.out.trim().split("\n")[0]}`).join("; ")}`,
    );
    const roles = new Set(all.map((p) => p.role));
    expect([...roles].sort(), "text, html capture and WebGL browsers were all seen").toEqual(
      ["capture", "gl", "text"].sort(),
    );
    const name = (p: ChromiumProcess) => `${p.role} ${p.type} (pid ${p.pid})`;
    const none = (failing: (p: ChromiumProcess) => boolean, among = all) => among.filter(failing).map(name);
    expect(none((p) => p.uid !== BROWSER_USER!.uid || p.gid !== BROWSER_USER!.gid)).toEqual([]);
    expect(none((p) => p.groups !== "" || !p.noNewPrivs)).toEqual([]);
    // No capability in the host's namespace (inside a namespace of Chromium's sandbox, they are its own).
    const NO_CAPS = "0000000000000000";
    expect(none((p) => p.hostUserNamespace && (p.capEff !== NO_CAPS || p.capBnd !== NO_CAPS))).toEqual([]);
    expect(none((p) => p.environ.includes(SECRET) || p.environ.includes("RENDERER_SECRET"))).toEqual([]);
    // Renderers (where a page's scripts run) are in Chromium's sandbox wherever it starts, and so are the GPU
    // processes of the text and html browsers. The WebGL page's GPU process (SwiftShader, where a gl layer's
    // shader is compiled and run) is not: Chromium engages its GPU seccomp policy only in a process that is still
    // single-threaded, and SwiftShader's threads exist by then. Its barrier is the browser user, checked above.
    // Judged on processes seen in two looks or more (40 ms apart): a renderer seen once, in its first milliseconds,
    // may not have engaged seccomp yet (seen on a fresh clone's run).
    const sandboxed = USER_NAMESPACES
      ? all.filter(
          (p) =>
            (looks.get(p.pid) ?? 0) >= 2 &&
            (p.type === "renderer" || (p.type === "gpu-process" && p.role !== "gl")),
        )
      : [];
    expect(
      !USER_NAMESPACES || sandboxed.length > 0,
      "sandboxed processes were looked at more than once",
    ).toBe(true);
    expect(none((p) => p.seccomp !== 2, sandboxed)).toEqual([]);
    expect(
      none((p) => p.type === "renderer" && (p.hostUserNamespace || p.pidNamespaces < 2), sandboxed),
    ).toEqual([]);
    expect(probes.length, "the credential probes ran while the shader drew").toBeGreaterThanOrEqual(4);
    for (const probe of probes) {
      expect(probe.out, `${probe.role} ${probe.type} reading ${probe.target}`).toMatch(/Permission denied/);
      expect(probe.out).not.toContain(SECRET);
    }
    // The control: root reads the renderer's environment, and the secret is in it.
    expect(readFileSync(`/proc/${server.pid}/environ`, "utf8")).toContain(SECRET);
    // Every GPU entry point of the html layer's script was closed (frame 9 of its 10).
    const out = join(tmpDir, "isolation.mp4");
    await writeFile(out, worker.puts.get(`/upload/${jobId}.mp4`)!.bytes);
    if (process.env.KEEP_VIDEO)
      await writeFile(process.env.KEEP_VIDEO, worker.puts.get(`/upload/${jobId}.mp4`)!.bytes);
    for (const [i, name] of PROBE_NAMES.entries()) {
      const region = {
        x: ((i % 5) * 64 + 16) / 320,
        y: (Math.floor(i / 5) * 90 + 16) / 180,
        w: 32 / 320,
        h: 24 / 180,
      };
      const rgb = await colorAt(out, 0.9, region);
      expect({ probe: name, closed: near(rgb, [0, 255, 0], 60), rgb }).toMatchObject({
        probe: name,
        closed: true,
      });
    }
  }, 120_000);
});

/** Opens a secure-context page (no policy, no prelude) in `browser` and runs every probe; names of those open. */
const openEntryPoints = async (browser: Browser): Promise<string[]> => {
  const page = await browser.newPage();
  try {
    await page.setRequestInterception(true);
    page.on("request", (req) =>
      req.url() === "https://probe.local/"
        ? void req.respond({ status: 200, contentType: "text/html", body: "<body></body>" })
        : void req.abort(),
    );
    await page.goto("https://probe.local/");
    return await page.evaluate(async (src: string) => {
      const run = new Function(
        `${src}; return Promise.all(Object.entries(probes).map(async ([k, f]) => [k, await settle(f)]));`,
      );
      const results = (await run()) as [string, boolean][];
      return results.filter(([, open]) => open).map(([k]) => k);
    }, GPU_PROBES);
  } finally {
    await page.close();
  }
};

describe("GPU entry points of the renderer's browsers, without the page's policy or prelude", () => {
  it("the text and html capture browsers have none: no WebGL in any realm, no WebGPU adapter, no WebNN", async () => {
    expect(await openEntryPoints(await getBrowser(DEFAULT_RENDER_TOOLS))).toEqual([]);
    expect(await openEntryPoints(await getCaptureBrowser(DEFAULT_RENDER_TOOLS, 0))).toEqual([]);
  }, 60_000);

  it("the WebGL page's browser keeps WebGL (gl layers and transitions need it) and no WebGPU or WebNN", async () => {
    const gl = await launchOwnBrowser(DEFAULT_RENDER_TOOLS);
    try {
      const open = await openEntryPoints(gl);
      expect(open).toContain("OffscreenCanvas webgl2");
      expect(open).not.toContain("WebGPU adapter");
      expect(open).not.toContain("WebNN context");
    } finally {
      await gl.close();
    }
  }, 60_000);
});

describe.skipIf(!ROOT)("launching Chromium as root", () => {
  it("with CHROMIUM_SANDBOX=off: still the browser user, none of our environment, only without the sandbox", async () => {
    process.env.RENDERER_SECRET = SECRET;
    try {
      const b = await launchChromium({ ...DEFAULT_RENDER_TOOLS, chromiumSandbox: "off" }, "test", []);
      try {
        const procs = chromiumProcessesUnder(process.pid).filter((p) => p.role === "test");
        expect(procs.length).toBeGreaterThan(0);
        for (const p of procs) {
          expect(p.uid).toBe(BROWSER_USER!.uid);
          expect(p.environ).not.toContain(SECRET);
          expect(p.seccomp).toBe(0);
        }
      } finally {
        await b.close();
      }
    } finally {
      delete process.env.RENDERER_SECRET;
    }
  }, 60_000);

  it("refuses to run Chromium as root when the browser user is missing, saying how to create it", async () => {
    await expect(
      launchChromium({ ...DEFAULT_RENDER_TOOLS, chromiumUser: "no-such-user-here" }, "test", []),
    ).rejects.toThrow(/"no-such-user-here" .*does not exist: create it/);
  });
});
