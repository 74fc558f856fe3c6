/**
 * Full-frame backgrounds: fill-color, pause, linear-gradient, radial-gradient, rainbow-colors.
 * Static ones are generated as ONE frame and looped, so their per-frame cost is a copy.
 */
import { ffColor, isOpaque } from "../color.ts";
import type { GraphContext, LayerVideo, LayerWindow } from "../graph-context.ts";
import { hash32 } from "../transitions.ts";
import type { LayerOf } from "../types.ts";

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

function seededColor(ctx: GraphContext, key: string, n: number): string {
  return PALETTE[(hash32(`${ctx.jobId}:${key}`) + n * 3) % PALETTE.length]!;
}

function loopStill(
  ctx: GraphContext,
  source: string,
  win: LayerWindow,
  opaque: boolean,
  prefix: string,
): LayerVideo {
  const label = ctx.label(prefix);
  const fmt = opaque ? "yuv420p" : "yuva420p";
  ctx.chain(
    `${source},trim=end_frame=1,format=${fmt},loop=loop=${win.frames - 1}:size=1,${ctx.retime(win.startFrame)}[${label}]`,
  );
  return { label, x: 0, y: 0, coversFrame: opaque };
}

/** `fill-color` (and `pause`, which defaults to black). */
export function fillColor(
  layer: LayerOf<"fill-color" | "pause">,
  win: LayerWindow,
  ctx: GraphContext,
  key: string,
): LayerVideo {
  const { width: W, height: H, fps } = ctx.spec;
  const fallback = layer.type === "pause" ? "black" : ffColor(seededColor(ctx, key, 0));
  const color = ffColor(layer.color, fallback);
  return loopStill(ctx, `color=c=${color}:s=${W}x${H}:r=${fps}`, win, isOpaque(color), "fill");
}

/** Colours ffmpeg's `gradients` source takes (c0..c7). */
const GRADIENT_STOPS = 8;

/**
 * The gradient's colours as `gradients` options (`c0=..:c1=..:n=..`): every given colour, evenly spaced
 * like editly's colour stops (two seeded random ones when none are given). Past eight, eight picked
 * evenly from the list (ffmpeg's limit). Also whether all are opaque.
 */
function gradientColors(layer: { colors?: string[] }, ctx: GraphContext, key: string) {
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
}

/** `linear-gradient`: direction horizontal / vertical (default) / diagonal. */
export function linearGradient(
  layer: LayerOf<"linear-gradient">,
  win: LayerWindow,
  ctx: GraphContext,
  key: string,
): LayerVideo {
  const { width: W, height: H, fps } = ctx.spec;
  const colors = gradientColors(layer, ctx, key);
  const dir = layer.direction;
  const line =
    dir === "horizontal"
      ? `x0=0:y0=${H / 2}:x1=${W}:y1=${H / 2}`
      : dir === "diagonal"
        ? `x0=0:y0=0:x1=${W}:y1=${H}`
        : `x0=${W / 2}:y0=0:x1=${W / 2}:y1=${H}`;
  const src = `gradients=s=${W}x${H}:r=${fps}:${colors.options}:${line}:speed=0.00001`;
  return loopStill(ctx, src, win, colors.opaque, "lgrad");
}

/** `radial-gradient`: first colour at the centre, second at the corners. */
export function radialGradient(
  layer: LayerOf<"radial-gradient">,
  win: LayerWindow,
  ctx: GraphContext,
  key: string,
): LayerVideo {
  const { width: W, height: H, fps } = ctx.spec;
  const colors = gradientColors(layer, ctx, key);
  const src = `gradients=s=${W}x${H}:r=${fps}:${colors.options}:type=radial:x0=${W / 2}:y0=${H / 2}:x1=${W}:y1=${H}:speed=0.00001`;
  return loopStill(ctx, src, win, colors.opaque, "rgrad");
}

/** `rainbow-colors`: a slowly rotating seven-colour gradient (editly draws it with a GL shader). */
export function rainbowColors(
  _layer: LayerOf<"rainbow-colors">,
  win: LayerWindow,
  ctx: GraphContext,
): LayerVideo {
  const { width: W, height: H, fps } = ctx.spec;
  const label = ctx.label("rainbow");
  const colors = ["red", "orange", "yellow", "green", "blue", "indigo", "violet"]
    .map((c, i) => `c${i}=${c}`)
    .join(":");
  ctx.chain(
    `gradients=s=${W}x${H}:r=${fps}:${colors}:n=7:x0=0:y0=0:x1=${W}:y1=${H}:speed=0.02,trim=end_frame=${win.frames},format=yuv420p,${ctx.retime(win.startFrame)}[${label}]`,
  );
  return { label, x: 0, y: 0, coversFrame: true };
}
