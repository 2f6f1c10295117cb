#!/usr/bin/env python3
"""Runs `firn run` on every mutant of a corpus written by firn_mutate_scenes and counts the outcomes by the classes
of docs/robustness.md. Usage: run_mutation_corpus.py FIRN CORPUS [--timeout S] [--jobs N] [--limit N] [--only K,..]
Every tenth mutant (index % 10 == 0) runs into an output folder holding an earlier run's frame, and the next
(index % 10 == 1) into a folder that cannot be created (below a regular file), to count output problems.
Prints one line per class with its count and writes CORPUS/results-<name of FIRN's folder>.tsv; --only runs just
the mutants whose index % 10 is listed and updates their rows of an existing results file."""
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


def classify(firn: str, case: Path, must_reject: bool, timeout: float, mode: int):
    out = case / "out"
    shutil.rmtree(out, ignore_errors=True)
    stale = out / "frame_09999.png"
    if mode == 0:
        out.mkdir()
        stale.write_bytes(b"an earlier run's frame")
    blocker = case / "a-file"
    if mode == 1:
        blocker.write_bytes(b"x")
        out = blocker / "out"
    cmd = [firn, "run", str(case / "scene.json"), "--out", str(out), "--frames", "2", "--no-render", "--stats"]
    try:
        p = subprocess.run(cmd, capture_output=True, timeout=timeout)
        rc, err = p.returncode, p.stderr.decode(errors="replace")
    except subprocess.TimeoutExpired:
        return "never-finishes", "timeout"
    if rc < 0:
        return "crash", signal.Signals(-rc).name
    if mode == 1 and rc != 2:
        return "output-problem", f"uncreatable --out gave exit {rc}"
    if mode == 0 and rc == 0 and stale.exists():
        return "output-problem", "earlier run's frame left beside the new output"
    if rc == 2:
        if mode != 0 and out.exists() and any(out.iterdir()):
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
    ap.add_argument("--only", default="")
    a = ap.parse_args()
    rows = [line.split("\t") for line in (a.corpus / "index.tsv").read_text().splitlines()]
    if a.limit:
        rows = rows[: a.limit]
    only = {int(k) for k in a.only.split(",")} if a.only else None
    if only is not None:
        rows = [r for r in rows if int(r[0]) % 10 in only]
    os.environ.setdefault("LP_NUM_THREADS", "1")

    def one(row):
        case = a.corpus / row[0]
        cls, detail = classify(a.firn, case, row[2] == "1", a.timeout, int(row[0]) % 10)
        shutil.rmtree(case / "out", ignore_errors=True)
        (case / "a-file").unlink(missing_ok=True)
        return row, cls, detail

    with ThreadPoolExecutor(a.jobs) as pool:
        results = list(pool.map(one, rows))
    tag = Path(a.firn).resolve().parent.name
    table = a.corpus / f"results-{tag}.tsv"
    lines = {}
    if only is not None and table.exists():
        lines = {line.split("\t")[0]: line for line in table.read_text().splitlines()}
    for row, cls, detail in results:
        lines[row[0]] = "\t".join([row[0], row[1], row[3], cls, detail])
    counts = {c: 0 for c in CLASSES}
    with open(table, "w") as f:
        for key in sorted(lines, key=int):
            counts[lines[key].split("\t")[3]] += 1
            f.write(lines[key] + "\n")
    for c in CLASSES:
        print(f"{c}\t{counts[c]}")


if __name__ == "__main__":
    main()
