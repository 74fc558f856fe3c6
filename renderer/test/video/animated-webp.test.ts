/**
 * The animated WebP decoder runs as the task's tool user, not as the renderer (animated-webp.ts; renderer/README.md,
 * "Tools"): under a root renderer its APNG belongs to the task's uid, and a file only root may read is one it cannot
 * open. Its frames and timing are checked by the renders of render-playback.test.ts.
 */
import { chmod, copyFile, mkdir, mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ToolUsers, type ToolLease } from "../../src/lib/tool-users.ts";
import { isAnimatedWebp, readableAnimations } from "../../src/video/animated-webp.ts";

const ROOT = process.getuid?.() === 0;
let dir: string;
let webp: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "animated-webp-"));
  await chmod(dir, 0o711);
  webp = join(dir, "two.webp");
  const roll = Buffer.concat([Buffer.alloc(8 * 8 * 4, 200), Buffer.alloc(8 * 8 * 4, 40)]);
  await sharp(roll, { raw: { width: 8, height: 16, channels: 4, pageHeight: 8 } })
    .webp({ lossless: true, delay: [100, 100] })
    .toFile(webp);
  await chmod(webp, 0o644);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("which files are decoded", () => {
  it("is an animated WebP by its header, not a still WebP or another picture", async () => {
    const still = join(dir, "still.webp");
    await sharp({ create: { width: 4, height: 4, channels: 3, background: "#123456" } })
      .webp()
      .toFile(still);
    const png = join(dir, "p.png");
    await sharp({ create: { width: 4, height: 4, channels: 4, background: "#12345678" } })
      .png()
      .toFile(png);
    expect(await Promise.all([webp, still, png].map(isAnimatedWebp))).toEqual([true, false, false]);
    const work = join(dir, "w0");
    await mkdir(work);
    const local = await readableAnimations(
      new Map([
        ["a", webp],
        ["b", still],
        ["c", webp],
      ]),
      { workDir: work },
    );
    expect([...local]).toEqual([
      ["a", join(work, "animated-webp-0.png")],
      ["b", still],
      ["c", join(work, "animated-webp-0.png")],
    ]);
  });
});

describe.skipIf(!ROOT)("under a root renderer", () => {
  let lease: ToolLease;
  let work: string;

  beforeAll(async () => {
    lease = await new ToolUsers().lease(`animated-webp-${process.pid}`);
    work = join(dir, "work");
    await mkdir(work);
    await lease.own(work);
  });
  afterAll(async () => {
    await lease?.release();
  });

  it("decodes as the task's tool user: the animated PNG is that user's", async () => {
    const local = await readableAnimations(new Map([["a", webp]]), { workDir: work, user: lease.user });
    const out = local.get("a")!;
    expect(out).toBe(join(work, "animated-webp-0.png"));
    const { uid } = await stat(out);
    expect(uid).toBe(lease.user!.uid);
    expect(uid).not.toBe(0);
  });

  it("cannot read what only root may: the job fails, naming the WebP, without a path", async () => {
    const secret = join(dir, "root-only.webp");
    await copyFile(webp, secret);
    await chmod(secret, 0o600);
    const failed = readableAnimations(new Map([["a", secret]]), { workDir: work, user: lease.user });
    await expect(failed).rejects.toThrow(/^Unreadable media: an animated WebP: (?!.*root-only)/);
  });
});
