#!/usr/bin/env bash
# README command (a): install the Debian packages, build, and run the default scene headless.
# Frames go to ./out/snowball-wall (override with the first argument); the path is printed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-out/snowball-wall}"
bash tools/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" --target firn
# --overwrite: running the command again replaces the earlier run's frames instead of refusing the folder.
./build/firn run assets/scenes/snowball-wall.json --out "$out" --stats --overwrite
