/**
 * Mutable builder state shared by the layer modules while one ffmpeg command is compiled:
 * the input list, the filter chains and unique stream labels. Everything else is pure data.
 */
import type { Readable, Writable } from "node:stream";
import type { PipeUser, SharedPipe } from "../lib/process.ts";
import type { Timeline } from "@media-render/contract/timeline";
import type { Layer, MediaInfo, RasterAsset, VideoSpec } from "./types.ts";

/** One `gl` layer to draw. */
export interface GlLayerJob {
  key: string;
  fragment: string;
  /** The layer field the shader came from (`clips[0].layers[1].fragmentShader`), for error messages. */
  field: string;
  /** Frames drawn, from the layer's frame `first` (its shader's `time` is that frame's). */
  frames: number;
  first: number;
  fps: number;
  speed: number;
}

/** What the compiler needs to draw a `gl` layer: a writer of its raw rgba frames. */
export interface GlLayerDrawer {
  layerWriter(job: GlLayerJob): (out: Writable) => Promise<void>;
}

/**
 * For graphs whose pictures are thrown away (the join's audio mix, the captions' audio pass): `gl` layers compile
 * (their chains are dropped with the video) but are never drawn.
 */
export const undrawnGl: GlLayerDrawer = {
  layerWriter: () => () => Promise.reject(new Error("an audio-only graph draws no gl frames")),
};

/**
 * Where a layer is visible, relative to its clip (or to the video start for global layers), and which of its
 * frames this graph draws: a graph of a window of the timeline (a chunk, a still, a preview) draws only the
 * frames inside it, evaluated at the time they are at (frame `skip + i` of the layer, never its frame i).
 */
export interface LayerWindow {
  startFrame: number;
  /** The layer's whole length in frames (its animations run over these). */
  frames: number;
  /** Seconds. */
  start: number;
  duration: number;
  /** Frames of the layer before the first one drawn (0 unless the window starts inside the layer). */
  skip: number;
  /** Frames drawn: the layer's frames `skip` to `skip + drawn - 1`. */
  drawn: number;
}

/** A layer compiled to a video stream whose frames carry pts = clip frame numbers (tb 1/fps). */
export interface LayerVideo {
  label: string;
  /** Overlay position: pixels or an overlay expression. */
  x: number | string;
  y: number | string;
  /** The size of the stream's frames (its laid-out box), when not the whole frame: motion.ts turns and scales it. */
  w?: number;
  h?: number;
  /** Opaque and covering the whole frame for the whole clip: may replace the clip's base. */
  coversFrame: boolean;
  /** Streams overlaid after this one, in order (a caption preset's moving words). */
  more?: LayerVideo[];
}

/** A layer's audio, already trimmed to its window, starting at `offset` seconds into the clip. */
export interface LayerAudio {
  label: string;
  offset: number;
  /** Seconds of audio to keep (the layer window). */
  duration: number;
}

export class GraphContext {
  readonly spec: VideoSpec;
  readonly timeline: Timeline;
  readonly jobId: string;
  readonly inputs: string[][] = [];
  readonly filters: string[] = [];
  /**
   * Writers of the extra input pipes and readers of the extra output pipes, in file-descriptor order
   * from 3 (each gets its end of a socket pair).
   */
  readonly pipes: PipeUser[] = [];
  /** Pipes whose writer cannot run twice (html captures): a second ffmpeg run of the graph cannot have them. */
  oneShotPipes = 0;
  /** Draws `gl` layers (gl/gl-drawer.ts); absent in graphs compiled without the renderer's page. */
  glLayers?: GlLayerDrawer;
  /** Extra outputs: a graph label written raw to a pipe (frames the renderer draws on, see gl/). */
  readonly outputs: { label: string; args: string[]; pipe: string }[] = [];
  /** Where each layer (by key) is in the config, `clips[2].layers[0]`: messages name the field (layers/index.ts). */
  readonly layerPaths = new Map<string, string>();
  /** Audio produced by the layers of the clip being compiled (the clip compositor drains it). */
  clipAudio: LayerAudio[] = [];
  /**
   * Whether the graph makes sound: false for a window that only draws (a chunk, a still), where layers add no
   * audio chain and no audio input at all.
   */
  audio = true;
  private readonly media: ReadonlyMap<string, MediaInfo>;
  private readonly rasters: ReadonlyMap<string, RasterAsset>;
  private counter = 0;
  private readonly stills = new Map<string, number>();

  constructor(
    spec: VideoSpec,
    timeline: Timeline,
    jobId: string,
    media: ReadonlyMap<string, MediaInfo>,
    rasters: ReadonlyMap<string, RasterAsset>,
  ) {
    this.spec = spec;
    this.timeline = timeline;
    this.jobId = jobId;
    this.media = media;
    this.rasters = rasters;
  }

  /**
   * Adds `-i path` with its input options, read by `demuxer` (`-f`: a user's file by the one its probe found,
   * probe/demuxers.ts, so ffmpeg probes nothing) over its one protocol (`pipe` for `pipe:N`, else `file`: nothing it
   * opens may open anything else); returns the input index.
   */
  addInput(demuxer: string, options: string[], path: string): number {
    const protocol = path.startsWith("pipe:") ? "pipe" : "file";
    this.inputs.push([...options, "-f", demuxer, "-protocol_whitelist", protocol, "-i", path]);
    return this.inputs.length - 1;
  }

  /** Adds a probed file (`mediaInfo(path)`) read by its probe's demuxer; returns the input index. */
  addMedia(info: MediaInfo, options: string[], path: string): number {
    return this.addInput(info.demuxer, options, path);
  }

  /**
   * The input index of a still image, added once however many chains draw from it: ffmpeg decodes it
   * once and hands the frame to every chain that names `[i:v]`.
   */
  stillInput(demuxer: string, path: string, options: string[] = []): number {
    const key = `${demuxer} ${options.join(" ")}|${path}`;
    const known = this.stills.get(key);
    if (known !== undefined) return known;
    const i = this.addInput(demuxer, options, path);
    this.stills.set(key, i);
    return i;
  }

  /**
   * Adds an input that ffmpeg reads with `demuxer` from an extra pipe (`pipe:3`, `pipe:4`, ...) which `write`
   * fills while ffmpeg runs; returns the input index.
   */
  addPipe(
    demuxer: string,
    options: string[],
    write: (out: Writable) => Promise<void>,
    replayable = false,
  ): number {
    if (!replayable) this.oneShotPipes++;
    this.pipes.push(write);
    return this.addInput(demuxer, options, `pipe:${2 + this.pipes.length}`);
  }

  /**
   * Adds an output: stream `[label]` written to an extra pipe with output options `args`, which `read`
   * consumes while ffmpeg runs.
   */
  addOutputPipe(label: string, args: string[], read: ((from: Readable) => Promise<void>) | SharedPipe): void {
    this.pipes.push(read);
    this.outputs.push({ label, args, pipe: `pipe:${2 + this.pipes.length}` });
  }

  /** A fresh stream label such as `[img3]`, without brackets. */
  label(prefix: string): string {
    return `${prefix}${this.counter++}`;
  }

  /** Appends one filter chain `[in]...[out]`. */
  chain(text: string): void {
    this.filters.push(text);
  }

  mediaInfo(path: string): MediaInfo | undefined {
    return this.media.get(path);
  }

  raster(key: string): RasterAsset | undefined {
    return this.rasters.get(key);
  }

  /** Filters that give a stream frame-exact timestamps starting at `startFrame` (tb = 1/fps). */
  retime(startFrame: number): string {
    return `settb=1/${this.spec.fps},setpts=N+${startFrame}`;
  }

  /** retime() of a layer's first drawn frame: the layer's start plus the frames it skips. */
  retimeLayer(win: LayerWindow): string {
    return this.retime(win.startFrame + win.skip);
  }
}

/** Signature of one layer-type module for layers `L` (the registry in layers/index.ts is keyed by `type`). */
export type LayerCompiler<L extends Layer = Layer> = (
  layer: L,
  win: LayerWindow,
  ctx: GraphContext,
  key: string,
) => LayerVideo | null;
