/**
 * Undo and redo over whole documents (configs are immutable, so a state is one reference). Changes that come in a
 * burst under one key (typing in a field, a drag, arrow-key nudges) within COALESCE_MS of each other make one step.
 */
export interface History<T> {
  past: T[];
  present: T;
  future: T[];
  /** The key and time of the last change, for coalescing. */
  last?: { key: string; at: number };
}

const LIMIT = 200;
export const COALESCE_MS = 800;

export const historyOf = <T>(present: T): History<T> => ({ past: [], present, future: [] });

/** `next` becomes the present; `key` merges it into the previous step when that had the same key just before. */
export const commit = <T>(h: History<T>, next: T, key?: string, now = Date.now()): History<T> => {
  if (next === h.present) return h;
  const merge = key !== undefined && h.last?.key === key && now - h.last.at < COALESCE_MS;
  return {
    past: merge ? h.past : [...h.past, h.present].slice(-LIMIT),
    present: next,
    future: [],
    last: key === undefined ? undefined : { key, at: now },
  };
};

export const undo = <T>(h: History<T>): History<T> =>
  h.past.length
    ? { past: h.past.slice(0, -1), present: h.past.at(-1)!, future: [h.present, ...h.future] }
    : h;

export const redo = <T>(h: History<T>): History<T> =>
  h.future.length ? { past: [...h.past, h.present], present: h.future[0]!, future: h.future.slice(1) } : h;
