#!/usr/bin/env bash
# The GPU figures that issues 10 and 11 ask for, in one pass on a machine with a real GPU (bench/RESULTS.md,
# "First runs on a real GPU"): snow per pass at 1 M particles (FLIP with the cubic kernel as shipped, MLS, the
# quadratic kernel, the direct particle-to-grid) and at 4 M, two-snowballs and the bunny; water at 1 M (WCSPH and
# DFSPH), at SPlisHSPlasH's 6,859 (WCSPH and DFSPH) and at 54,872; then whole runs of the README's main job, of
# two-snowballs and of the DFSPH dam break, with their wall time. Most wanted first: each command gets a cap of its
# own and is skipped once BUDGET seconds are spent, so a short lease still brings the first figures home.
# Usage: [BUDGET=300] bench/gpu_figures.sh [FIRN] [LOG]   (FIRN default build/firn; LOG default stdout)
# EGL's device platform is the default here (FIRN_EGL_PLATFORM=device: no display needed); the GL test suites run on
# the same machine with plain ctest from the build folder.
set -uo pipefail
firn=${1:-build/firn}
log=${2:-/dev/stdout}
budget=${BUDGET:-300}
export FIRN_EGL_PLATFORM=${FIRN_EGL_PLATFORM:-device}
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
start=$(date +%s)

# Variants of the bench scenes: one field changed each.
python3 - "$here/scenes" "$dir" <<'PY'
import json, sys
src, dst = sys.argv[1], sys.argv[2]
def variant(name, out, change):
    scene = json.load(open(f"{src}/{name}.json"))
    change(scene)
    json.dump(scene, open(f"{dst}/{out}.json", "w"))
variant("snow-box-1000000", "box-1m-mls", lambda s: s["mpm"].update(transfer="mls"))
variant("snow-box-1000000", "box-1m-quadratic", lambda s: s["mpm"].update(kernel="quadratic"))
variant("snow-box-1000000", "box-1m-direct", lambda s: s["mpm"].update(particle_to_grid="direct"))
variant("sph-dam-break-1000000", "dam-1m-dfsph",
        lambda s: s["sph"].update(pressure_solver="dfsph", max_density_error=0.001, viscosity=0.001))
PY

# run CAP COMMAND...: runs COMMAND for at most CAP seconds if the budget still holds CAP, and logs rc and wall time.
run() {
  local cap=$1
  shift
  local spent=$(($(date +%s) - start))
  if ((spent + cap > budget)); then
    echo "=== skipped (budget: ${spent} of ${budget} s spent): $*" >>"$log"
    return
  fi
  echo "=== [${spent} s] $*" >>"$log"
  local t0=$(date +%s%N)
  timeout "$cap" "$@" >>"$log" 2>&1
  local rc=$?
  echo "--- rc=$rc wall=$((($(date +%s%N) - t0) / 1000000)) ms" >>"$log"
}

{
  echo "# firn GPU figures, $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null)"
  command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv
} >>"$log" 2>&1
run 30 "$firn" info
run 40 "$firn" bench "$here/scenes/snow-box-1000000.json" --substeps 200
run 40 "$firn" bench "$dir/box-1m-mls.json" --substeps 200
run 40 "$firn" bench "$dir/box-1m-quadratic.json" --substeps 200
run 40 "$firn" bench "$dir/box-1m-direct.json" --substeps 200
run 40 "$firn" bench "$here/scenes/sph-dam-break-1000000.json" --solver sph --substeps 100
run 40 "$firn" bench "$dir/dam-1m-dfsph.json" --solver sph --substeps 60
run 30 "$firn" bench "$here/scenes/sph-dam-break-6859.json" --solver sph --substeps 300
run 30 "$firn" bench "$here/scenes/sph-dam-break-6859-dfsph.json" --solver sph --substeps 150
run 30 "$firn" bench "$root/assets/scenes/two-snowballs.json" --substeps 600
run 30 "$firn" bench "$here/scenes/snow-bunny-201.json" --substeps 100
run 40 "$firn" bench "$here/scenes/snow-box-4194304.json" --substeps 60
run 30 "$firn" bench "$here/scenes/snow-box-1000000.json" --substeps 200
run 30 "$firn" bench "$here/scenes/sph-dam-break-54872.json" --solver sph --substeps 200
run 40 "$firn" run "$here/scenes/sph-dam-break-6859-dfsph.json" --no-render --out "$dir/dfsph"
run 40 "$firn" run "$root/assets/scenes/snowball-wall.json" --out "$dir/default"
run 40 "$firn" run "$root/assets/scenes/two-snowballs.json" --no-render --stats --out "$dir/two-snowballs"
echo "=== done in $(($(date +%s) - start)) s" >>"$log"
