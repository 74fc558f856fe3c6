/**
 * CPU time of this process and of its children that have ended (user + system, from /proc/self/stat in
 * clock ticks of 1/100 s): the delta around a child's run is that child's CPU when it is the only one to
 * end meanwhile. Null where /proc is missing (not Linux).
 */
import { readFileSync } from "node:fs";

export interface CpuTimes {
  /** This process (Node), ms. */
  selfMs: number;
  /** Children reaped so far (ffmpeg, ffprobe), ms. */
  childrenMs: number;
}

export const cpuTimes = (): CpuTimes | null => {
  try {
    const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1]!.split(" ");
    const [utime, stime, cutime, cstime] = [11, 12, 13, 14].map((i) => Number(fields[i]) * 10);
    return { selfMs: utime! + stime!, childrenMs: cutime! + cstime! };
  } catch {
    return null;
  }
};
