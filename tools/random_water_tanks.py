#!/usr/bin/env python3
"""Random water tanks as a user writes them, run through `firn run` (a robustness sweep; docs/water.md "Seeding
beside solids").

Each tank: a random domain and spacing; on five sides (not the top) a wall that is the domain face, a plane collider,
a box collider or a boundary slab, set in from the face by a random fraction of the spacing (up to --max-inset
spacings; boxes and slabs reach 5 cm through the face); a water column given from the domain's corner (reaching into
the walls) or from the walls, filling the tank's width or half of it (a dam break); DFSPH or WCSPH. Each scene runs
for 0.2 s (`--no-render --stats`); one line per tank: name, solver, exit code, largest speed [m/s] and largest
density error over the frames, the walls, and the last line of the error output for a non-zero exit.

    tools/random_water_tanks.py build/firn OUT --seed 11 --count 40 --max-inset 1.0 --corner --full-width
"""
import argparse
import json
import os
import random
import subprocess


def tank(rng, k, max_inset, corner_only, full_width):
    s = rng.choice([0.01, 0.015, 0.02, 0.025])
    extent = [rng.uniform(8, 16) * s, rng.uniform(10, 20) * s, rng.uniform(5, 12) * s]
    dmin = [rng.uniform(-0.5, 0.5) for _ in range(3)]
    dmax = [a + e for a, e in zip(dmin, extent)]
    colliders, regions, walls = [], [], []
    inner_lo, inner_hi = list(dmin), list(dmax)
    for side in (0, 1, 2, 4, 5):  # x-, x+, y-, z-, z+: the top stays open
        axis, upper = side // 2, side % 2 == 1
        kind = rng.choice(["face", "plane", "box", "slab"])
        inset = 0.0 if kind == "face" else rng.uniform(0.0, max_inset) * s
        at = dmax[axis] - inset if upper else dmin[axis] + inset
        (inner_hi if upper else inner_lo)[axis] = at
        normal = [0.0, 0.0, 0.0]
        normal[axis] = -1.0 if upper else 1.0
        point = [0.5 * (a + b) for a, b in zip(dmin, dmax)]
        point[axis] = at
        lo, hi = [a - 0.05 for a in dmin], [b + 0.05 for b in dmax]
        if upper:
            lo[axis] = at
        else:
            hi[axis] = at
        if kind == "plane":
            colliders.append({"type": "plane", "point": point, "normal": normal})
        elif kind == "box":
            colliders.append({"type": "box", "min": lo, "max": hi})
        elif kind == "slab":
            regions.append({"action": "boundary", "min": lo, "max": hi, "point": point, "normal": normal,
                            "thickness": 0.05 + inset})
        walls.append("%s%s:%s(%.2f s)" % ("-+"[upper], "xyz"[axis], kind, inset / s))
    corner = corner_only or rng.random() < 0.5
    body_lo = list(dmin) if corner else list(inner_lo)
    width = inner_hi[0] if full_width or rng.random() < 0.7 else inner_lo[0] + 0.5 * (inner_hi[0] - inner_lo[0])
    body_hi = [width, inner_lo[1] + rng.uniform(0.3, 0.8) * (inner_hi[1] - inner_lo[1]), inner_hi[2]]
    solver = rng.choice(["dfsph", "wcsph"])
    sph = {"particle_spacing": s, "rest_density": 1000, "pressure_solver": solver,
           "domain": {"min": dmin, "max": dmax}, "bodies": [{"shape": "box", "min": body_lo, "max": body_hi}]}
    if solver == "wcsph":
        sph["sound_speed"] = 20
    if regions:
        sph["regions"] = regions
    scene = {"name": "tank%03d" % k, "duration": 0.2, "fps": 20, "gravity": [0, -9.81, 0], "sph": sph}
    if colliders:
        scene["colliders"] = colliders
    return scene, " ".join(walls)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("firn")
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--count", type=int, default=40)
    ap.add_argument("--max-inset", type=float, default=1.0, help="largest inset of a wall, in spacings")
    ap.add_argument("--corner", action="store_true", help="every column given from the domain's corner")
    ap.add_argument("--full-width", action="store_true", help="every column fills the tank's width (at rest)")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    os.makedirs(args.out, exist_ok=True)
    for k in range(args.count):
        scene, walls = tank(rng, k, args.max_inset, args.corner, args.full_width)
        path = os.path.join(args.out, "tank%03d.json" % k)
        with open(path, "w") as f:
            json.dump(scene, f, indent=1)
        run_dir = os.path.join(args.out, "tank%03d" % k)
        r = subprocess.run([args.firn, "run", path, "--out", run_dir, "--overwrite", "--no-render", "--stats"],
                           capture_output=True, text=True, timeout=600)
        speed = error = 0.0
        stats = os.path.join(run_dir, "stats.jsonl")
        if r.returncode == 0 and os.path.exists(stats):
            with open(stats) as f:
                for line in f:
                    d = json.loads(line)
                    speed = max(speed, d.get("max_speed", 0.0))
                    error = max(error, d.get("max_density_error", 0.0))
        tail = (r.stderr.strip().splitlines() or [""])[-1][:160] if r.returncode else ""
        print("tank%03d %s exit %d max_speed %.3f max_density_error %.4f | %s %s" %
              (k, scene["sph"]["pressure_solver"], r.returncode, speed, error, walls, tail), flush=True)


if __name__ == "__main__":
    main()
