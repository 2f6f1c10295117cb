#!/usr/bin/env bash
# The GPU figures that issues 10 and 11 ask for, in one pass on a machine with a real GPU (bench/RESULTS.md,
# "First runs on a real GPU", "Snow on the H200 again"): snow per pass at 1 M particles (FLIP as shipped, MLS, the
# cubic kernel, the sorted particle-to-grid that "auto" leaves to CPU renderers) and at 4 M, two-snowballs and the
# bunny (each also sorted); water at 1 M (WCSPH and
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
# Mesh files are named relative to their scene's folder: the variants get them as absolute paths.
python3 - "$here/scenes" "$dir" "$root/assets/scenes" <<'PY'
import json, os, sys
src, dst, assets = sys.argv[1], sys.argv[2], sys.argv[3]
def variant(name, out, change, folder=src):
    scene = json.load(open(f"{folder}/{name}.json"))
    for body in scene.get("mpm", {}).get("bodies", []):
        if "file" in body:
            body["file"] = os.path.normpath(os.path.join(folder, body["file"]))
    change(scene)
    json.dump(scene, open(f"{dst}/{out}.json", "w"))
sorted_p2g = lambda s: s["mpm"].update(particle_to_grid="sorted")
variant("snow-box-1000000", "box-1m-mls", lambda s: s["mpm"].update(transfer="mls"))
variant("snow-box-1000000", "box-1m-cubic", lambda s: s["mpm"].update(kernel="cubic"))
variant("snow-box-1000000", "box-1m-sorted", sorted_p2g)
variant("snow-bunny-201", "bunny-sorted", sorted_p2g)
variant("two-snowballs", "two-snowballs-sorted", sorted_p2g, folder=assets)
# DFSPH with the settings of sph-dam-break-6859-dfsph.json (it stops at step 8 on llvmpipe too: bench/RESULTS.md)
variant("sph-dam-break-1000000", "dam-1m-dfsph",
        lambda s: s["sph"].update(pressure_solver="dfsph", max_density_error=0.0005, max_iterations=100,
                                  viscosity=0.001, artificial_viscosity=0.1, cfl=0.4, dt_max=0.005))
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
run 40 "$firn" bench "$dir/box-1m-cubic.json" --substeps 200
run 40 "$firn" bench "$dir/box-1m-sorted.json" --substeps 200
run 40 "$firn" bench "$here/scenes/sph-dam-break-1000000.json" --solver sph --substeps 100
run 40 "$firn" bench "$dir/dam-1m-dfsph.json" --solver sph --substeps 60
run 30 "$firn" bench "$here/scenes/sph-dam-break-6859.json" --solver sph --substeps 300
run 30 "$firn" bench "$here/scenes/sph-dam-break-6859-dfsph.json" --solver sph --substeps 150
run 30 "$firn" bench "$root/assets/scenes/two-snowballs.json" --substeps 600
run 30 "$firn" bench "$dir/two-snowballs-sorted.json" --substeps 600
run 30 "$firn" bench "$here/scenes/snow-bunny-201.json" --substeps 100
run 30 "$firn" bench "$dir/bunny-sorted.json" --substeps 100
run 40 "$firn" bench "$here/scenes/snow-box-4194304.json" --substeps 60
run 30 "$firn" bench "$here/scenes/snow-box-1000000.json" --substeps 200
run 30 "$firn" bench "$here/scenes/sph-dam-break-54872.json" --solver sph --substeps 200
run 40 "$firn" run "$here/scenes/sph-dam-break-6859-dfsph.json" --no-render --out "$dir/dfsph"
run 40 "$firn" run "$root/assets/scenes/snowball-wall.json" --out "$dir/default"
run 40 "$firn" run "$root/assets/scenes/two-snowballs.json" --no-render --stats --out "$dir/two-snowballs"
echo "=== done in $(($(date +%s) - start)) s" >>"$log"
