/**
 * The virtual clock injected as the first script of every html layer page (pure string builder).
 * `requestAnimationFrame`, `performance.now`, `Date`, `setTimeout`/`setInterval`, a seeded `Math.random` and
 * `document.getAnimations()` all read ONE counter that only moves when the renderer calls
 * `__mrsAdvance(ms)`, so CSS/WAAPI animations and GSAP, anime.js, Motion, Lottie (which read those
 * clocks) show exactly the state at t = n / fps, however long a frame takes to capture.
 */

/** Script source; `epochMs` is what `Date.now()` returns at virtual time 0 (fixed: deterministic). */
export const clockShim = (epochMs: number): string => {
  return `(() => {
  let now = 0;
  const epoch = ${Math.round(epochMs)};
  const RealDate = Date;
  function VDate(...a) {
    if (!new.target) return new RealDate(epoch + now).toString();
    return a.length ? new RealDate(...a) : new RealDate(epoch + now);
  }
  VDate.prototype = RealDate.prototype;
  VDate.now = () => epoch + now;
  VDate.parse = RealDate.parse;
  VDate.UTC = RealDate.UTC;
  window.Date = VDate;
  performance.now = () => now;
  // Seeded (mulberry32): the same page draws the same "random" particles in every capture process and run.
  let seed = 0x9e3779b9;
  Math.random = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let r = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
  try { Object.defineProperty(document.timeline, "currentTime", { get: () => now }); } catch {}
  const report = (e) => console.error(e && e.stack ? e.stack : String(e));
  let seq = 0;
  const rafs = new Map();
  window.requestAnimationFrame = (cb) => { rafs.set(++seq, cb); return seq; };
  window.cancelAnimationFrame = (id) => { rafs.delete(id); };
  const timers = new Map();
  const add = (fn, ms, args, repeat) => {
    const d = Math.max(0, Number(ms) || 0);
    timers.set(++seq, { due: now + d, fn, args, every: repeat ? Math.max(1, d) : null });
    return seq;
  };
  window.setTimeout = (fn, ms, ...args) => add(fn, ms, args, false);
  window.setInterval = (fn, ms, ...args) => add(fn, ms, args, true);
  window.clearTimeout = window.clearInterval = (id) => { timers.delete(id); };
  window.requestIdleCallback = (fn) => add(() => fn({ didTimeout: false, timeRemaining: () => 50 }), 0, [], false);
  window.cancelIdleCallback = window.clearTimeout;
  const call = (fn, args) => { try { typeof fn === "function" ? fn(...args) : (0, eval)(String(fn)); } catch (e) { report(e); } };
  const born = new WeakMap();
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (...a) {
    const anim = animate.apply(this, a);
    born.set(anim, now);
    anim.pause();
    anim.currentTime = 0;
    return anim;
  };
  const seek = () => {
    for (const a of document.getAnimations()) {
      if (!born.has(a)) born.set(a, now);
      try { a.pause(); a.currentTime = now - born.get(a); } catch (e) { report(e); }
    }
  };
  seek();
  /** Moves the clock to \`target\` ms: due timers in order, then one animation frame, then the seek. */
  window.__mrsAdvance = (target) => {
    for (let guard = 0; guard < 100000; guard++) {
      let id = 0, next = null;
      for (const [k, t] of timers) if (t.due <= target && (!next || t.due < next.due)) { id = k; next = t; }
      if (!next) break;
      now = Math.max(now, next.due);
      if (next.every === null) timers.delete(id); else next.due += next.every;
      call(next.fn, next.args);
    }
    now = Math.max(now, target);
    const due = [...rafs.values()];
    rafs.clear();
    for (const cb of due) call(cb, [now]);
    seek();
    return now;
  };
  // Several steps in one call from the renderer (the frames another capture process draws): a real task
  // between them runs the page's promise callbacks and events, as the round trip between two calls did.
  const Channel = MessageChannel;
  const turn = () => new Promise((done) => { const c = new Channel(); c.port1.onmessage = () => done(); c.port2.postMessage(0); });
  window.__mrsAdvanceAll = async (targets) => {
    for (let i = 0; i < targets.length; i++) {
      if (i > 0) await turn();
      window.__mrsAdvance(targets[i]);
    }
    return now;
  };
})();`;
};
