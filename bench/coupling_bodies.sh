#!/usr/bin/env bash
# Cost of the snow-bodies coupling against the number of bodies (issue 14 point 5): bench/scenes/grains-onto-snow.json
# with its grain count replaced, timed by `firn bench --solver world` (one warm-up frame, then whole frames until
# STEPS steps of all solvers). Usage: bench/coupling_bodies.sh [FIRN] [STEPS] [COUNTS...]
set -euo pipefail
firn=${1:-build/firn}
steps=${2:-400}
shift $(( $# > 2 ? 2 : $# )) || true
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(0 25 100 400)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
here=$(cd "$(dirname "$0")" && pwd)
for n in "${counts[@]}"; do
  python3 - "$here/scenes/grains-onto-snow.json" "$dir/scene-$n.json" "$n" <<'PY'
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
