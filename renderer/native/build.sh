#!/bin/sh
# Builds the renderer's native helpers into the directory given (default: build/ beside this script).
# The one copy of their compile line: scripts/lib/system.mjs runs it for local runs (npm start, test,
# bench) and renderer/Dockerfile runs it in its build stage.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/build}
mkdir -p "$out"
cc -O2 -Wall -Wextra -std=c11 -o "$out/gl-transition.tmp" "$here/gl-transition.c" -lEGL -lGLESv2
mv "$out/gl-transition.tmp" "$out/gl-transition"
