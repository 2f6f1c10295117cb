#!/usr/bin/env bash
# README command (b): install the Debian packages, build, and run the whole test suite with ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)"
# GL tests run headless on EGL; the viewer tests need an X server, which xvfb-run provides.
cd build && xvfb-run -a -s "-screen 0 1280x800x24" ctest --output-on-failure -j"$(nproc)" --timeout 900
