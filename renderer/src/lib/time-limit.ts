/** A limit on how long the renderer waits for something it does not control (a page, a draw). */

/** `promise`, or a rejection with `message` once `ms` have passed first; the timer never outlives the race. */
export const timeLimit = <T>(promise: Promise<T>, ms: number, message: string): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
};
