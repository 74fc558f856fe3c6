/**
 * The document of the WebGL page that draws transitions (and `gl` layers): one offscreen canvas the size of the
 * video, a full-frame quad, and `window.glx`, which compiles programs and draws frames whose inputs it
 * fetches from, and whose pixels it posts back to, the renderer's loopback exchange (gl-session.ts).
 * Binary bodies over loopback HTTP cost a copy; CDP would base64 every 3.6 MB frame.
 *
 * Orientation: the frames are top row first; GLSL's uv has y up. The vertex shader flips y so that
 * readPixels (bottom row first) returns the picture top row first, and getFromColor/getToColor flip the
 * texture lookup: output pixel (x, row r) is `transition(vec2((x + .5) / W, 1 - (r + .5) / H))`, each
 * input sampled at its texel centres.
 */

import { MAP_SIZE, SPIRAL_MAP } from "./map.ts";

/**
 * `glsl` with its non-constant global initializers moved into `init` (statements main runs first, in
 * source order). GLSL ES 1.00 wants a global's initializer to be a constant expression; Chromium's ANGLE
 * lets `float s = pow(smoothness, 0.5);` through (it defers such initializers itself), Mesa refuses it, and
 * ten of the collection's shaders are written that way. Comments are dropped; `const` globals stay.
 */
export const hoistGlobalInitializers = (glsl: string): { glsl: string; init: string } => {
  const text = glsl.replace(/\/\*[\s\S]*?\*\//g, " ").replace(/\/\/[^\n]*/g, "");
  const out: string[] = [];
  const init: string[] = [];
  let depth = 0;
  let chunk = "";
  const declaration =
    /^\s*((?:(?:highp|mediump|lowp)\s+)?(?:float|int|bool|[bi]?vec[234]|mat[234]))\s+(\w+)\s*=([\s\S]+)$/;
  // One declarator: no comma outside parentheses (`float a = 1.0, b = a;` is left as it is).
  const single = (expr: string) => {
    let level = 0;
    for (const ch of expr) {
      if (ch === "(") level++;
      else if (ch === ")") level--;
      else if (ch === "," && level === 0) return false;
    }
    return true;
  };
  for (const line of text.split("\n")) {
    if (depth === 0 && chunk.trim() === "" && line.trimStart().startsWith("#")) {
      // A directive stands on a line of its own.
      out.push(chunk, `\n${line}\n`);
      chunk = "";
      continue;
    }
    for (const ch of `${line}\n`) {
      chunk += ch;
      if (ch === "{") depth++;
      else if (ch === "}" && --depth === 0) {
        out.push(chunk);
        chunk = "";
      } else if (ch === ";" && depth === 0) {
        const match = declaration.exec(chunk.slice(0, -1));
        if (match && single(match[3]!)) {
          out.push(`${match[1]} ${match[2]};\n`);
          init.push(`${match[2]} = ${match[3]!.trim()};`);
        } else out.push(chunk);
        chunk = "";
      }
    }
  }
  out.push(chunk);
  return { glsl: out.join(""), init: init.join(" ") };
};

/**
 * The fragment shader around a gl-transitions `transition(uv)` (the collection's standard uniforms; the
 * transition declares its own params, map samplers included): one source for the page and the native helper.
 */
export const transitionFragment = (glsl: string): string => {
  const hoisted = hoistGlobalInitializers(glsl);
  return `precision highp float;
varying vec2 _uv;
uniform sampler2D _from;
uniform sampler2D _to;
uniform float progress;
uniform float ratio;
vec4 getFromColor(vec2 uv) { return texture2D(_from, vec2(uv.x, 1.0 - uv.y)); }
vec4 getToColor(vec2 uv) { return texture2D(_to, vec2(uv.x, 1.0 - uv.y)); }
${hoisted.glsl}
void main() { ${hoisted.init} gl_FragColor = transition(_uv); }
`;
};

/** Samplers a transition declares besides its two pictures (luma, displacement maps). */
export const extraSamplers = (glsl: string): string[] => {
  return [...glsl.matchAll(/uniform\s+sampler2D\s+(\w+)\s*;/g)].map((m) => m[1]!);
};

/** The page script; `W`, `H` are substituted. Runs in Chromium, never in Node. */
const SCRIPT = String.raw`
const W = __W__, H = __H__;
// Offscreen: a canvas in the document is composited after every frame drawn into it (with
// preserveDrawingBuffer, a copy of the frame), work on SwiftShader's cores that no one looks at.
const canvas = new OffscreenCanvas(W, H);
const gl = canvas.getContext("webgl2", { antialias: false, premultipliedAlpha: false, depth: false, stencil: false, preserveDrawingBuffer: true });
if (!gl) throw new Error("WebGL2 is not available");
gl.bindBuffer(gl.ARRAY_BUFFER, gl.createBuffer());
gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([-1, -1, 1, -1, -1, 1, 1, 1]), gl.STATIC_DRAW);
const VS = "attribute vec2 _p; varying vec2 _uv; void main() { _uv = _p * 0.5 + 0.5; gl_Position = vec4(_p.x, -_p.y, 0.0, 1.0); }";
function texture(unit, w, h, data, format = gl.RGBA8) {
  const t = gl.createTexture();
  gl.activeTexture(gl.TEXTURE0 + unit);
  gl.bindTexture(gl.TEXTURE_2D, t);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
  gl.texStorage2D(gl.TEXTURE_2D, 1, format, w, h);
  if (data) gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, data);
  return t;
}
// The map of the transitions that read one (luma, displacement): gl/map.ts, substituted as base64.
const MAP = __MAP_SIZE__, map = Uint8Array.from(atob("__MAP__"), (c) => c.charCodeAt(0));
texture(2, MAP, MAP, map);
// The two pictures' textures by bytes a pixel (rgb24 pairs of opaque clips, rgba ones of webm's), made
// on first use; binds them to units 0 and 1.
const pictures = new Map();
function bindPictures(channels) {
  if (!pictures.has(channels)) {
    const f = channels === 3 ? gl.RGB8 : gl.RGBA8;
    pictures.set(channels, [texture(0, W, H, null, f), texture(1, W, H, null, f)]);
  }
  const [from, to] = pictures.get(channels);
  gl.activeTexture(gl.TEXTURE0);
  gl.bindTexture(gl.TEXTURE_2D, from);
  gl.activeTexture(gl.TEXTURE1);
  gl.bindTexture(gl.TEXTURE_2D, to);
}
const programs = new Map();
function shader(type, src) {
  const s = gl.createShader(type);
  gl.shaderSource(s, src);
  gl.compileShader(s);
  if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) throw new Error("GLSL: " + gl.getShaderInfoLog(s));
  return s;
}
function setUniforms(p, uniforms) {
  for (const [name, u] of Object.entries(uniforms)) {
    const loc = gl.getUniformLocation(p, name);
    if (loc === null) continue;
    const v = u.value;
    if (u.type === "float") gl.uniform1f(loc, v[0]);
    else if (u.type === "int" || u.type === "bool") gl.uniform1i(loc, v[0]);
    else if (u.type === "vec2") gl.uniform2fv(loc, v);
    else if (u.type === "vec3") gl.uniform3fv(loc, v);
    else if (u.type === "vec4") gl.uniform4fv(loc, v);
    else if (u.type === "ivec2") gl.uniform2iv(loc, v);
  }
}
const out = new Uint8Array(W * H * 4);
// Resolves when the renderer has room for drawing k's next frame (gl-session.ts roomFor): asked over DevTools, so
// that waiting holds none of the 6 connections Chromium opens to the exchange.
const room = (k) => window.__glxRoom(k);
async function post(url, frame) {
  const res = await fetch(url, { method: "POST", body: frame });
  if (!res.ok) throw new Error("exchange refused " + url);
}
function draw(p) {
  gl.useProgram(p);
  gl.drawArrays(gl.TRIANGLE_STRIP, 0, 4);
  gl.readPixels(0, 0, W, H, gl.RGBA, gl.UNSIGNED_BYTE, out);
  return out;
}
window.glx = {
  /** Draws layer k with program key: n frames with editly's time (s x speed) and resolution, posted back. */
  async layer(k, key, n, first, fps, speed) {
    const p = programs.get(key);
    gl.useProgram(p);
    gl.uniform2f(gl.getUniformLocation(p, "resolution"), W, H);
    // Frame i of these is the layer's frame first + i: a shader is a function of its time, so a window starting
    // inside the layer draws no frame before its own.
    for (let i = 0; i < n; i++) {
      await room(k);
      gl.uniform1f(gl.getUniformLocation(p, "time"), ((first + i) / fps) * speed);
      await post("out/" + k + "/" + i, draw(p));
    }
  },
  /** Compiles program key from fragment source (throws the GLSL log). */
  compile(key, fragment, uniforms, samplers) {
    const p = gl.createProgram();
    gl.attachShader(p, shader(gl.VERTEX_SHADER, VS));
    gl.attachShader(p, shader(gl.FRAGMENT_SHADER, fragment));
    gl.bindAttribLocation(p, 0, "_p");
    gl.linkProgram(p);
    if (!gl.getProgramParameter(p, gl.LINK_STATUS)) throw new Error("GLSL: " + gl.getProgramInfoLog(p));
    gl.useProgram(p);
    gl.enableVertexAttribArray(0);
    gl.vertexAttribPointer(0, 2, gl.FLOAT, false, 0, 0);
    gl.uniform1i(gl.getUniformLocation(p, "_from"), 0);
    gl.uniform1i(gl.getUniformLocation(p, "_to"), 1);
    for (const s of samplers) gl.uniform1i(gl.getUniformLocation(p, s), 2);
    gl.uniform1f(gl.getUniformLocation(p, "ratio"), W / H);
    setUniforms(p, uniforms);
    // SwiftShader compiles a program's pipeline at its first draw: one throwaway draw here, while the
    // first frame pair is still being decoded, keeps that off the first frame.
    gl.drawArrays(gl.TRIANGLE_STRIP, 0, 4);
    gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));
    programs.set(key, p);
  },
  /**
   * Draws transition k: a frame per progress value (easing applied), each from fetched pair i (A | B side
   * by side, channels bytes a pixel: rgb 3, rgba 4), posted back.
   */
  async transition(k, key, progress, channels = 4) {
    const p = programs.get(key);
    const n = progress.length;
    const fmt = channels === 3 ? gl.RGB : gl.RGBA;
    bindPictures(channels);
    // The next pair downloads, and the frame before posts, while this frame is drawn: fetch copies a
    // body when it is called, so the read-back buffer is free again at once.
    const fetchPair = (i) => fetch("in/" + k + "/" + i).then((r) => r.arrayBuffer());
    let next = fetchPair(0);
    let posted = Promise.resolve();
    for (let i = 0; i < n; i++) {
      const pair = new Uint8Array(await next);
      if (i + 1 < n) next = fetchPair(i + 1);
      gl.pixelStorei(gl.UNPACK_ALIGNMENT, 1);
      gl.pixelStorei(gl.UNPACK_ROW_LENGTH, 2 * W);
      gl.activeTexture(gl.TEXTURE0);
      gl.pixelStorei(gl.UNPACK_SKIP_PIXELS, 0);
      gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, W, H, fmt, gl.UNSIGNED_BYTE, pair);
      gl.activeTexture(gl.TEXTURE1);
      gl.pixelStorei(gl.UNPACK_SKIP_PIXELS, W);
      gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, W, H, fmt, gl.UNSIGNED_BYTE, pair);
      gl.pixelStorei(gl.UNPACK_ROW_LENGTH, 0);
      gl.pixelStorei(gl.UNPACK_SKIP_PIXELS, 0);
      gl.pixelStorei(gl.UNPACK_ALIGNMENT, 4);
      // One post in flight, and no frame drawn before the render has room for it, which paces the page.
      await posted;
      await room(k);
      gl.useProgram(p);
      gl.uniform1f(gl.getUniformLocation(p, "progress"), progress[i]);
      posted = post("out/" + k + "/" + i, draw(p));
    }
    await posted;
  },
};
`;

/** The page document for a W x H video. */
export const glPageDocument = (width: number, height: number): string => {
  const script = SCRIPT.replace("__W__", String(width))
    .replace("__H__", String(height))
    .replace("__MAP_SIZE__", String(MAP_SIZE))
    .replace("__MAP__", SPIRAL_MAP.toString("base64"));
  return `<!doctype html><html><head><meta charset="utf-8"></head><body style="margin:0"><script>${script}</script></body></html>`;
};
