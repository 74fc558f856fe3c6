/*
 * gl-transition: draws one gl-transitions transition with Mesa's software GL (EGL surfaceless: no window, no
 * display, no GPU), outside Chromium, so that no pixel crosses a browser's network service and renderer
 * (renderer/src/video/README.md, "Transitions drawn by their GLSL").
 *
 *   gl-transition W H CHANNELS FRAGMENT PROGRESS [UNIFORM...]
 *   gl-transition --version
 *
 * FRAGMENT is the whole fragment shader (gl/gl-page.ts transitionFragment: the page and this program draw
 * the same source). PROGRESS is the comma-separated progress of each frame to draw (n of them, easing
 * applied). Each UNIFORM is `type:name:v1,v2,...` with type float, int, bool, vec2, vec3, vec4 or ivec2, or
 * `sampler:name` for a map sampler (luma, displacement), which reads texture unit 2.
 *
 * stdin: n frame pairs, A | B side by side (2W x H, CHANNELS bytes a pixel: 3 rgb, 4 rgba), top row first.
 * fd 3, read only when a sampler is named: the map (MAP x MAP rgba bytes).
 * stdout: the n drawn frames, W x H rgba, top row first (the blank primer before them, which the render's graph
 * waits for, is written by the renderer: drawn-transitions.ts, gl-drawer.ts).
 * Exit 0 once n frames are written; otherwise 1, with the reason on stderr.
 *
 * GL_TRANSITION_MAX_BYTES in the environment, when set, is the helper's memory ceiling (RLIMIT_DATA: its heap and
 * every private writable mapping, Mesa's included), set before anything is allocated: past it an allocation fails
 * and the helper exits 1 saying it ran out of memory (or Mesa aborts), instead of growing until the kernel kills
 * whatever it picks (native-gl.ts sizes it from W x H).
 *
 * Orientation and sampling are the page's: the vertex shader flips y so that glReadPixels (bottom row first)
 * returns the picture top row first; the fragment source flips its texture lookups.
 */
#define _GNU_SOURCE
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

enum { MAP = 256, MAX_FRAMES = 100000 };

static void die(const char *format, ...) {
  va_list args;
  va_start(args, format);
  vfprintf(stderr, format, args);
  va_end(args);
  fputc('\n', stderr);
  exit(1);
}

/* Reads exactly `size` bytes from `fd`; 0 at a clean end of input before the first byte, 1 when read, dies
 * otherwise. */
static int read_exactly(int fd, unsigned char *to, size_t size) {
  size_t have = 0;
  while (have < size) {
    ssize_t n = read(fd, to + have, size - have);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) die("reading input %d: %s", fd, strerror(errno));
    if (n == 0) {
      if (have == 0) return 0;
      die("input %d ended inside a frame", fd);
    }
    have += (size_t)n;
  }
  return 1;
}

static void write_all(const unsigned char *from, size_t size) {
  size_t done = 0;
  while (done < size) {
    ssize_t n = write(1, from + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) die("writing the drawn frames: %s", strerror(errno));
    done += (size_t)n;
  }
}

static long positive(const char *text, const char *what, long max) {
  char *end;
  long v = strtol(text, &end, 10);
  if (*text == '\0' || *end != '\0' || v <= 0 || v > max) die("%s must be an integer in 1..%ld", what, max);
  return v;
}

/* Parses comma-separated numbers into `to` (at most `max`); their count. */
static int numbers(const char *text, double *to, int max) {
  int count = 0;
  const char *p = text;
  while (*p) {
    char *end;
    double v = strtod(p, &end);
    if (end == p || count == max) die("bad number list: %s", text);
    to[count++] = v;
    if (*end == ',') end++;
    else if (*end != '\0') die("bad number list: %s", text);
    p = end;
  }
  return count;
}

/* Dies with the GLSL log of shader or program `object` unless its `status` (compile or link) is true. */
static void require(GLuint object, GLenum status, void (*get)(GLuint, GLenum, GLint *),
                    void (*get_log)(GLuint, GLsizei, GLsizei *, GLchar *)) {
  GLint ok;
  get(object, status, &ok);
  if (ok) return;
  char log[4096];
  get_log(object, sizeof log, NULL, log);
  die("GLSL: %s", log);
}

static GLuint shader(GLenum type, const char *source) {
  GLuint s = glCreateShader(type);
  glShaderSource(s, 1, &source, NULL);
  glCompileShader(s);
  require(s, GL_COMPILE_STATUS, glGetShaderiv, glGetShaderInfoLog);
  return s;
}

static GLuint texture(GLenum unit, GLenum format, int w, int h) {
  GLuint t;
  glGenTextures(1, &t);
  glActiveTexture(unit);
  glBindTexture(GL_TEXTURE_2D, t);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glTexStorage2D(GL_TEXTURE_2D, 1, format, w, h);
  return t;
}

/* Sets uniform `spec` (type:name:values) on program `p`; a sampler reads unit 2. Whether a map is needed. */
static int set_uniform(GLuint p, char *spec) {
  char *type = spec, *name = strchr(spec, ':');
  if (!name) die("bad uniform: %s", spec);
  *name++ = '\0';
  char *list = strchr(name, ':');
  if (list) *list++ = '\0';
  GLint at = glGetUniformLocation(p, name);
  if (strcmp(type, "sampler") == 0) {
    if (at >= 0) glUniform1i(at, 2);
    return 1;
  }
  if (!list) die("uniform %s has no value", name);
  double v[4];
  int n = numbers(list, v, 4);
  struct {
    const char *type;
    int size;
  } kinds[] = {{"float", 1}, {"int", 1}, {"bool", 1}, {"vec2", 2}, {"vec3", 3}, {"vec4", 4}, {"ivec2", 2}};
  int kind = -1;
  for (int k = 0; k < 7; k++)
    if (strcmp(type, kinds[k].type) == 0) kind = k;
  if (kind < 0) die("uniform %s has an unknown type %s", name, type);
  if (n != kinds[kind].size) die("uniform %s: a %s has %d values", name, type, kinds[kind].size);
  if (at < 0) return 0;
  switch (kind) {
  case 0: glUniform1f(at, (float)v[0]); break;
  case 1:
  case 2: glUniform1i(at, (GLint)v[0]); break;
  case 3: glUniform2f(at, (float)v[0], (float)v[1]); break;
  case 4: glUniform3f(at, (float)v[0], (float)v[1], (float)v[2]); break;
  case 5: glUniform4f(at, (float)v[0], (float)v[1], (float)v[2], (float)v[3]); break;
  case 6: glUniform2i(at, (GLint)v[0], (GLint)v[1]); break;
  }
  return 0;
}

static EGLDisplay open_display(void) {
  PFNEGLGETPLATFORMDISPLAYEXTPROC platform_display =
      (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
  if (!platform_display) die("EGL has no eglGetPlatformDisplayEXT");
  EGLDisplay d = platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
  EGLint major, minor;
  if (d == EGL_NO_DISPLAY || !eglInitialize(d, &major, &minor)) die("EGL: no surfaceless display (Mesa)");
  if (!eglBindAPI(EGL_OPENGL_ES_API)) die("EGL: OpenGL ES is not available");
  const EGLint attributes[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 0, EGL_NONE};
  EGLContext c = eglCreateContext(d, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attributes);
  if (c == EGL_NO_CONTEXT || !eglMakeCurrent(d, EGL_NO_SURFACE, EGL_NO_SURFACE, c))
    die("EGL: no OpenGL ES 3 context (error 0x%x)", eglGetError());
  return d;
}

/* Applies GL_TRANSITION_MAX_BYTES (a positive integer) as RLIMIT_DATA, when it is set. */
static void limit_memory(void) {
  const char *text = getenv("GL_TRANSITION_MAX_BYTES");
  if (!text) return;
  char *end;
  unsigned long long bytes = strtoull(text, &end, 10);
  if (*text == '\0' || *end != '\0' || bytes == 0) die("GL_TRANSITION_MAX_BYTES must be a positive integer");
  struct rlimit limit = {(rlim_t)bytes, (rlim_t)bytes};
  if (setrlimit(RLIMIT_DATA, &limit) != 0) die("could not set the memory ceiling: %s", strerror(errno));
}

int main(int argc, char **argv) {
  limit_memory();
  if (argc == 2 && strcmp(argv[1], "--version") == 0) {
    open_display();
    printf("%s; %s\n", (const char *)glGetString(GL_RENDERER), (const char *)glGetString(GL_VERSION));
    return 0;
  }
  if (argc < 6) die("usage: gl-transition W H CHANNELS FRAGMENT PROGRESS [type:name:values | sampler:name]...");
  const int W = (int)positive(argv[1], "W", 8192), H = (int)positive(argv[2], "H", 8192);
  const int channels = (int)positive(argv[3], "CHANNELS", 4);
  if (channels != 3 && channels != 4) die("CHANNELS must be 3 or 4");
  double *progress = malloc(sizeof(double) * MAX_FRAMES);
  if (!progress) die("out of memory");
  const int frames = numbers(argv[5], progress, MAX_FRAMES);
  if (frames == 0) die("no frames to draw");

  open_display();
  GLuint fb, rb;
  glGenFramebuffers(1, &fb);
  glBindFramebuffer(GL_FRAMEBUFFER, fb);
  glGenRenderbuffers(1, &rb);
  glBindRenderbuffer(GL_RENDERBUFFER, rb);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, W, H);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
  if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) die("GL: framebuffer incomplete");
  glViewport(0, 0, W, H);

  const GLfloat quad[] = {-1, -1, 1, -1, -1, 1, 1, 1};
  GLuint vb;
  glGenBuffers(1, &vb);
  glBindBuffer(GL_ARRAY_BUFFER, vb);
  glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_STATIC_DRAW);
  const char *vs = "attribute vec2 _p; varying vec2 _uv; void main() { _uv = _p * 0.5 + 0.5; "
                   "gl_Position = vec4(_p.x, -_p.y, 0.0, 1.0); }";
  GLuint p = glCreateProgram();
  glAttachShader(p, shader(GL_VERTEX_SHADER, vs));
  glAttachShader(p, shader(GL_FRAGMENT_SHADER, argv[4]));
  glBindAttribLocation(p, 0, "_p");
  glLinkProgram(p);
  require(p, GL_LINK_STATUS, glGetProgramiv, glGetProgramInfoLog);
  glUseProgram(p);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, 0);
  glUniform1i(glGetUniformLocation(p, "_from"), 0);
  glUniform1i(glGetUniformLocation(p, "_to"), 1);
  glUniform1f(glGetUniformLocation(p, "ratio"), (float)((double)W / (double)H));
  int needs_map = 0;
  for (int i = 6; i < argc; i++) needs_map |= set_uniform(p, argv[i]);
  if (glGetError() != GL_NO_ERROR) die("GL: could not set the uniforms");

  if (needs_map) {
    unsigned char *map = malloc(MAP * MAP * 4);
    if (!map) die("out of memory");
    if (!read_exactly(3, map, MAP * MAP * 4)) die("the map did not arrive");
    texture(GL_TEXTURE2, GL_RGBA8, MAP, MAP);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, MAP, MAP, GL_RGBA, GL_UNSIGNED_BYTE, map);
    free(map);
  }
  const GLenum internal = channels == 3 ? GL_RGB8 : GL_RGBA8, format = channels == 3 ? GL_RGB : GL_RGBA;
  texture(GL_TEXTURE0, internal, W, H);
  texture(GL_TEXTURE1, internal, W, H);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glPixelStorei(GL_UNPACK_ROW_LENGTH, 2 * W);
  glPixelStorei(GL_PACK_ALIGNMENT, 4);

  const size_t pair_size = (size_t)2 * W * H * channels, frame_size = (size_t)W * H * 4;
  unsigned char *pair = malloc(pair_size), *out = malloc(frame_size);
  if (!pair || !out) die("out of memory");
  const GLint at_progress = glGetUniformLocation(p, "progress");
  for (int i = 0; i < frames; i++) {
    if (!read_exactly(0, pair, pair_size)) die("ffmpeg wrote %d of %d transition frames", i, frames);
    glActiveTexture(GL_TEXTURE0);
    glPixelStorei(GL_UNPACK_SKIP_PIXELS, 0);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, W, H, format, GL_UNSIGNED_BYTE, pair);
    glActiveTexture(GL_TEXTURE1);
    glPixelStorei(GL_UNPACK_SKIP_PIXELS, W);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, W, H, format, GL_UNSIGNED_BYTE, pair);
    glUniform1f(at_progress, (float)progress[i]);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, out);
    if (glGetError() != GL_NO_ERROR) die("GL: frame %d could not be drawn", i);
    write_all(out, frame_size);
  }
  return 0;
}
