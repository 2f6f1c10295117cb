#!/usr/bin/env bash
# Cost of the coupling against the number of bodies (issue 14 point 5): SCENE (default
# bench/scenes/grains-onto-snow.json; bench/scenes/grains-into-water.json for the water) with its grain count
# replaced (0: the scene without its "dem" section), timed by `firn bench --solver world` (one warm-up frame, then
# whole frames until STEPS steps of all solvers). Usage: [SCENE=...] bench/coupling_bodies.sh [FIRN] [STEPS] [COUNTS...]
set -euo pipefail
firn=${1:-build/firn}
steps=${2:-400}
shift $(( $# > 2 ? 2 : $# )) || true
counts=("$@")
# 200 at most for grains-onto-snow since its grains grew (2026-11-29: 216 fit its region).
[ ${#counts[@]} -gt 0 ] || counts=(0 25 100 200)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
here=$(cd "$(dirname "$0")" && pwd)
for n in "${counts[@]}"; do
  python3 - "${SCENE:-$here/scenes/grains-onto-snow.json}" "$dir/scene-$n.json" "$n" <<'PY'
import json, sys
scene = json.load(open(sys.argv[1]))
n = int(sys.argv[3])
if n == 0:
    del scene["dem"]
else:
    scene["dem"]["grains"][0]["count"] = n
json.dump(scene, open(sys.argv[2], "w"))
PY
  echo "## $n grains ($(uptime | sed 's/.*load/load/'))"
  "$firn" bench "$dir/scene-$n.json" --solver world --substeps "$steps"
  echo
done
