#!/usr/bin/env bash
# Installs the Debian 12 packages firn needs to build, test and run headless.
# Idempotent: packages already present are skipped and nothing is printed for them.
# Usage: sudo bash tools/install-deps.sh   (runs apt-get directly when already root)
set -euo pipefail

packages=(
  build-essential cmake pkg-config
  libglfw3-dev libglew-dev libglm-dev libassimp-dev libstb-dev libimgui-dev
  libgtest-dev libbenchmark-dev nlohmann-json3-dev libcli11-dev libccd-dev
  libavformat-dev libavcodec-dev libswscale-dev libavutil-dev
  libegl-dev libgl-dev libegl-mesa0 libgl1-mesa-dri
  xvfb xauth
  glslang-tools
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "firn: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
