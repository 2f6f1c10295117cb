#!/usr/bin/env python3
"""Runs `firn run` on every mutant of a corpus written by firn_mutate_scenes and counts the outcomes by the classes
of docs/robustness.md. Usage: run_mutation_corpus.py FIRN CORPUS [--timeout S] [--jobs N] [--limit N]
Prints one line per class with its count and writes CORPUS/results-<name of FIRN's folder>.tsv."""
import argparse
import json
import os
import shutil
import signal
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

CLASSES = ["ok", "crash", "wrong-exit-code", "accepted-but-bad", "never-finishes", "silent-garbage", "output-problem"]


def stats_problem(stats: Path):
    """(garbage, broken): a non-finite value or a density error above 100 %; a line that is not a JSON object."""
    if not stats.exists():
        return False, False
    garbage = broken = False
    for line in stats.read_bytes().split(b"\n"):
        if not line:
            continue
        try:
            row = json.loads(line)
        except ValueError:
            broken = True
            continue
        text = line.decode(errors="replace")
        if "null" in text or row.get("nonfinite", 0) > 0 or row.get("max_density_error", 0) > 1.0:
            garbage = True
    return garbage, broken


def classify(firn: str, case: Path, must_reject: bool, timeout: float):
    out = case / "out"
    shutil.rmtree(out, ignore_errors=True)
    cmd = [firn, "run", str(case / "scene.json"), "--out", str(out), "--frames", "2", "--no-render", "--stats"]
    try:
        p = subprocess.run(cmd, capture_output=True, timeout=timeout)
        rc, err = p.returncode, p.stderr.decode(errors="replace")
    except subprocess.TimeoutExpired:
        return "never-finishes", "timeout"
    if rc < 0:
        return "crash", signal.Signals(-rc).name
    if rc == 2:
        if out.exists() and any(out.iterdir()):
            return "output-problem", "exit 2 left output behind"
        names_file = str(case) in err
        says_allowed = "allowed" in err or "defined" in err
        return ("ok", "exit 2") if names_file and says_allowed else ("wrong-exit-code", "exit 2 without file/allowed")
    if rc == 3:
        return "ok", "exit 3"
    if rc != 0:
        return "wrong-exit-code", f"exit {rc}: {err.strip().splitlines()[-1][:160] if err.strip() else ''}"
    if must_reject:
        return "accepted-but-bad", "exit 0"
    garbage, broken = stats_problem(out / "stats.jsonl")
    if broken:
        return "output-problem", "stats.jsonl line not JSON"
    if garbage:
        return "silent-garbage", "non-finite or density error > 100 %"
    return "ok", "exit 0"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("firn")
    ap.add_argument("corpus", type=Path)
    ap.add_argument("--timeout", type=float, default=10.0)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--limit", type=int, default=0)
    a = ap.parse_args()
    rows = [line.split("\t") for line in (a.corpus / "index.tsv").read_text().splitlines()]
    if a.limit:
        rows = rows[: a.limit]
    os.environ.setdefault("LP_NUM_THREADS", "1")

    def one(row):
        cls, detail = classify(a.firn, a.corpus / row[0], row[2] == "1", a.timeout)
        shutil.rmtree(a.corpus / row[0] / "out", ignore_errors=True)
        return row, cls, detail

    with ThreadPoolExecutor(a.jobs) as pool:
        results = list(pool.map(one, rows))
    counts = {c: 0 for c in CLASSES}
    tag = Path(a.firn).resolve().parent.name
    with open(a.corpus / f"results-{tag}.tsv", "w") as f:
        for row, cls, detail in results:
            counts[cls] += 1
            f.write("\t".join([row[0], row[1], row[3], cls, detail]) + "\n")
    for c in CLASSES:
        print(f"{c}\t{counts[c]}")


if __name__ == "__main__":
    main()
