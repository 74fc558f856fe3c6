// The Debian packages of the service: a table, read by the code that checks and installs them (system.mjs) and by
// the test that holds renderer/Dockerfile to it. Plain Node (runs on the machine's Node 20 before npm install too).

/**
 * Debian packages of the service, each with a file that proves it is installed and where it is needed:
 * `runtime` (the renderer, run locally and in its image), `build` (building the native helper, locally and in the
 * image's build stage), `local` (local runs only) and `image` (the image only). renderer/Dockerfile installs the
 * runtime and image ones, its build stage the build ones; test/scripts/renderer-image.test.ts holds it to this
 * list, and `npm run image:check` builds a root filesystem from it. The setup (system.mjs) installs them all (the
 * image's too, a few KB: the image test looks at their files here).
 */
export const APT_PACKAGES = [
  ["ffmpeg", "/usr/bin/ffmpeg", "runtime"],
  // The full browser runs local Browser Rendering (image jobs); the renderer runs the headless shell only.
  ["chromium", "/usr/bin/chromium", "local"],
  ["chromium-headless-shell", "/usr/bin/chromium-headless-shell", "runtime"],
  ["fonts-dejavu-core", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "runtime"],
  ["fonts-liberation2", "/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf", "runtime"],
  ["fonts-noto-color-emoji", "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf", "runtime"],
  // Chinese, Japanese and Korean glyphs (7 MB) for text and captions; caption wrapping measures with it too.
  ["fonts-droid-fallback", "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf", "runtime"],
  // Offline speech recognition for autoSubtitles (the renderer's local transcription backend).
  ["pocketsphinx", "/usr/bin/pocketsphinx_continuous", "runtime"],
  ["pocketsphinx-en-us", "/usr/share/pocketsphinx/model/en-us/en-us.lm.bin", "runtime"],
  // The offline voice of `speech` layers (the renderer's local text-to-speech backend).
  ["espeak-ng", "/usr/bin/espeak-ng", "runtime"],
  // The native transition drawer (renderer/native/gl-transition.c): a C compiler, EGL and OpenGL ES headers
  // and loaders, and Mesa's software GL (llvmpipe) behind them.
  ["gcc", "/usr/bin/gcc", "build"],
  ["libc6-dev", "/usr/include/stdio.h", "build"],
  ["libegl-dev", "/usr/include/EGL/egl.h", "build"],
  ["libgles-dev", "/usr/include/GLES3/gl3.h", "build"],
  ["libegl1", "/usr/share/doc/libegl1/copyright", "runtime"],
  ["libgles2", "/usr/share/doc/libgles2/copyright", "runtime"],
  ["libegl-mesa0", "/usr/share/glvnd/egl_vendor.d/50_mesa.json", "runtime"],
  ["libgl1-mesa-dri", "/usr/share/drirc.d/00-mesa-defaults.conf", "runtime"],
  // PID 1 of the image: forwards SIGTERM to node and reaps orphaned Chromium/ffmpeg helpers.
  ["tini", "/usr/bin/tini", "image"],
  // The README's first render is curl and jq; the end-to-end suite runs it as written (test/e2e/readme.test.ts).
  ["curl", "/usr/bin/curl", "local"],
  ["jq", "/usr/bin/jq", "local"],
];
