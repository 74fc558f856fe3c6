/** Versions of the external tools, read once at start-up for GET /health. */
import type { RendererHealth } from "@media-render/contract/wire";
import { glTransitionVersion } from "./video/gl/native-gl.ts";
import { run } from "./lib/process.ts";
import type { Identity } from "./lib/run-as.ts";
import type { ToolUsers } from "./lib/tool-users.ts";

/** The `tools` of the contract's health answer: a version per binary, null when it is missing. */
export type ToolVersions = RendererHealth["tools"];

/**
 * First dotted version number on the first line of a `--version`/`-version` banner:
 * "ffmpeg version 5.1.9-0+deb12u1 Copyright ..." -> "5.1.9"; "Chromium 156.0.8078.79 built on ..." -> "156.0.8078.79".
 */
export const parseToolVersion = (banner: string): string | null => {
  const firstLine = banner.trimStart().split("\n", 1)[0] ?? "";
  return firstLine.match(/\b(\d+\.\d+(?:\.\d+)*)/)?.[1] ?? null;
};

const versionOf = async (command: string, flag: string, user: Identity | null): Promise<string | null> => {
  try {
    const { stdout } = await run(command, [flag], { timeoutMs: 10_000, user });
    return parseToolVersion(stdout.toString("utf8"));
  } catch {
    // A missing tool is reported as null so /health still answers and shows what is absent.
    return null;
  }
};

/**
 * Asks each tool for its version, in parallel (about half a second, dominated by Chromium), as a tool user of its
 * own when `users` are given (as every run of them is: lib/tool-users.ts).
 */
export const readToolVersions = async (
  paths: {
    ffmpegPath: string;
    ffprobePath: string;
    chromiumPath: string;
    glTransitionPath: string | null;
  },
  users?: ToolUsers,
): Promise<ToolVersions> => {
  const lease = await users?.lease(`versions-${crypto.randomUUID()}`);
  const user = lease?.user ?? null;
  try {
    const [ffmpeg, ffprobe, chromium, glTransitions] = await Promise.all([
      versionOf(paths.ffmpegPath, "-version", user),
      versionOf(paths.ffprobePath, "-version", user),
      versionOf(paths.chromiumPath, "--version", user),
      glTransitionVersion(paths.glTransitionPath, user),
    ]);
    return { ffmpeg, ffprobe, chromium, glTransitions };
  } finally {
    await lease?.release();
  }
};
