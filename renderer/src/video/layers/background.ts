/**
 * Full-frame backgrounds: fill-color, pause, linear-gradient, radial-gradient, rainbow-colors.
 * Static ones are generated as ONE frame and looped, so their per-frame cost is a copy.
 */
import { ffColor, isOpaque } from "../color.ts";
import type { GraphContext, LayerVideo, LayerWindow } from "../graph-context.ts";
import { hash32 } from "../transitions.ts";
import type { LayerOf } from "../types.ts";
import { ffNumber } from "../values.ts";

/** editly-like palette for layers that leave their colour to chance (seeded by job + layer). */
const PALETTE = [
  "#1abc9c",
  "#2ecc71",
  "#3498db",
  "#9b59b6",
  "#34495e",
  "#f1c40f",
  "#e67e22",
  "#e74c3c",
  "#16a085",
  "#8e44ad",
];

const seededColor = (ctx: GraphContext, key: string, n: number): string => {
  return PALETTE[(hash32(`${ctx.jobId}:${key}`) + n * 3) % PALETTE.length]!;
};

const loopStill = (
  ctx: GraphContext,
  source: string,
  win: LayerWindow,
  opaque: boolean,
  prefix: string,
): LayerVideo => {
  const label = ctx.label(prefix);
  const fmt = opaque ? "yuv420p" : "yuva420p";
  ctx.chain(
    `${source},trim=end_frame=1,format=${fmt},loop=loop=${win.drawn - 1}:size=1,${ctx.retimeLayer(win)}[${label}]`,
  );
  return { label, x: 0, y: 0, coversFrame: opaque };
};

/** `fill-color` (and `pause`, which defaults to black). */
export const fillColor = (
  layer: LayerOf<"fill-color" | "pause">,
  win: LayerWindow,
  ctx: GraphContext,
  key: string,
): LayerVideo => {
  const { width: W, height: H, fps } = ctx.spec;
  const fallback = layer.type === "pause" ? "black" : ffColor(seededColor(ctx, key, 0));
  const color = ffColor(layer.color, fallback);
  return loopStill(ctx, `color=c=${color}:s=${W}x${H}:r=${fps}`, win, isOpaque(color), "fill");
};

/** Colours ffmpeg's `gradients` source takes (c0..c7). */
const GRADIENT_STOPS = 8;

/**
 * The gradient's colours as `gradients` options (`c0=..:c1=..:n=..`): every given colour, evenly spaced
 * like editly's colour stops (two seeded random ones when none are given). Past eight, eight picked
 * evenly from the list (ffmpeg's limit). Also whether all are opaque.
 */
const gradientColors = (layer: { colors?: string[] }, ctx: GraphContext, key: string) => {
  const given = layer.colors ?? [];
  let list =
    given.length >= 2
      ? given.map((c) => ffColor(c))
      : [0, 1].map((i) => ffColor(given[i], ffColor(seededColor(ctx, key, i))));
  if (list.length > GRADIENT_STOPS) {
    const all = list;
    list = Array.from(
      { length: GRADIENT_STOPS },
      (_, i) => all[Math.round((i * (all.length - 1)) / (GRADIENT_STOPS - 1))]!,
    );
  }
  const options = `${list.map((c, i) => `c${i}=${c}`).join(":")}:n=${list.length}`;
  return { options, opaque: list.every((c) => isOpaque(c)) };
};

/**
 * `linear-gradient`, animated like editly (sources/linear-gradient.ts): the gradient fills a rect twice
 * the frame's size centred on it, which turns `progress * 30` degrees clockwise about the centre over the
 * layer (progress = seconds into the layer / its length). Without `direction`, editly's own ramp: from the
 * rect's top-left corner (first colour) to its centre (last), so the frame shows its second half; with
 * one, the ramp spans the frame across (horizontal), down (vertical) or corner to corner (diagonal).
 * Drawn once at 2W x 2H; each frame is that picture rotated (bilinear) and cut to W x H.
 */
export const linearGradient = (
  layer: LayerOf<"linear-gradient">,
  win: LayerWindow,
  ctx: GraphContext,
  key: string,
): LayerVideo => {
  const { width: W, height: H, fps } = ctx.spec;
  const colors = gradientColors(layer, ctx, key);
  const dir = layer.direction;
  // Ramp ends in the big picture's pixels (the frame sits at W/2, H/2 inside it).
  const [x0, y0, x1, y1] =
    dir === "horizontal"
      ? [W / 2, H, (3 * W) / 2 - 1, H]
      : dir === "vertical"
        ? [W, H / 2, W, (3 * H) / 2 - 1]
        : dir === "diagonal"
          ? [W / 2, H / 2, (3 * W) / 2 - 1, (3 * H) / 2 - 1]
          : [0, 0, W, H];
  const line = `x0=${Math.round(x0)}:y0=${Math.round(y0)}:x1=${Math.round(x1)}:y1=${Math.round(y1)}`;
  const label = ctx.label("lgrad");
  const fmt = colors.opaque ? "yuv420p" : "yuva420p";
  const turn = `(t-${ffNumber(win.start)})/${ffNumber(Math.max(0.001, win.duration))}*PI/6`;
  ctx.chain(
    `gradients=s=${2 * W}x${2 * H}:r=${fps}:${colors.options}:${line}:speed=0.00001,trim=end_frame=1,format=${fmt},loop=loop=${win.drawn - 1}:size=1,${ctx.retimeLayer(win)},rotate=a='${turn}':ow=${W}:oh=${H}:c=none[${label}]`,
  );
  return { label, x: 0, y: 0, coversFrame: colors.opaque };
};

/**
 * `radial-gradient`, animated like editly (sources/radial-gradient.ts): first colour at the centre, last at
 * a radius of 0.6 x the longer side growing to 1.2 x over the layer (`max * (1 + progress) * 0.6`). Drawn
 * once at the starting radius; each frame is that picture zoomed by 1 + progress about the centre.
 */
export const radialGradient = (
  layer: LayerOf<"radial-gradient">,
  win: LayerWindow,
  ctx: GraphContext,
  key: string,
): LayerVideo => {
  const { width: W, height: H, fps } = ctx.spec;
  const colors = gradientColors(layer, ctx, key);
  // ffmpeg's radial ramp ends at the distance of (x1, y1), a pixel of the frame: the bottom-right one.
  // editly's radius is longer (0.6 x the longer side lies past the corners), so the still is drawn at
  // the corner's distance and zoomed by the ratio on top of 1 + progress.
  const [cx, cy] = [Math.round(W / 2), Math.round(H / 2)];
  const still = Math.hypot(W - 1 - cx, H - 1 - cy);
  const ratio = (0.6 * Math.max(W, H)) / still;
  const src = `gradients=s=${W}x${H}:r=${fps}:${colors.options}:type=radial:x0=${cx}:y0=${cy}:x1=${W - 1}:y1=${H - 1}:speed=0.00001`;
  const label = ctx.label("rgrad");
  const fmt = colors.opaque ? "yuv420p" : "yuva420p";
  // zoompan counts its output frames from 0: the layer's frame is that count plus the frames it skips.
  const zoom = `${ffNumber(ratio)}*(1+(on+${win.skip})/${win.frames})`;
  ctx.chain(
    `${src},trim=end_frame=1,format=${fmt},zoompan=z='${zoom}':x='(iw-iw/zoom)/2':y='(ih-ih/zoom)/2':d=${win.drawn}:s=${W}x${H}:fps=${fps},${ctx.retimeLayer(win)}[${label}]`,
  );
  return { label, x: 0, y: 0, coversFrame: colors.opaque };
};

/** Radians a `rainbow-colors` gradient turns each frame (clockwise). */
const RAINBOW_TURN_PER_FRAME = 0.02;

/**
 * `rainbow-colors`: a seven-colour gradient from the frame's top-left corner to its bottom-right, turning
 * clockwise about the centre by 0.02 rad a frame (editly draws it with a GL shader). Drawn once on a square whose
 * side is the frame's diagonal, so every turn still covers the frame; each frame is that picture rotated by the
 * angle of its time, so any frame is drawn without the ones before it.
 */
export const rainbowColors = (
  _layer: LayerOf<"rainbow-colors">,
  win: LayerWindow,
  ctx: GraphContext,
): LayerVideo => {
  const { width: W, height: H, fps } = ctx.spec;
  const label = ctx.label("rainbow");
  const colors = ["red", "orange", "yellow", "green", "blue", "indigo", "violet"]
    .map((c, i) => `c${i}=${c}`)
    .join(":");
  const side = 2 * Math.ceil(Math.hypot(W, H) / 2) + 2;
  const [cx, cy] = [side / 2, side / 2];
  const line = `x0=${Math.round(cx - W / 2)}:y0=${Math.round(cy - H / 2)}:x1=${Math.round(cx + W / 2)}:y1=${Math.round(cy + H / 2)}`;
  // The turn of layer frame n: the layer starts turning at its own first frame.
  const turn = `(t-${ffNumber(win.start)})*${ffNumber(RAINBOW_TURN_PER_FRAME * fps)}`;
  ctx.chain(
    `gradients=s=${side}x${side}:r=${fps}:${colors}:n=7:${line}:speed=0.00001,trim=end_frame=1,format=yuv420p,loop=loop=${win.drawn - 1}:size=1,${ctx.retimeLayer(win)},rotate=a='${turn}':ow=${W}:oh=${H}[${label}]`,
  );
  return { label, x: 0, y: 0, coversFrame: true };
};
