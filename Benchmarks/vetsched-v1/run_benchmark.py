#!/usr/bin/env python3
"""Runs `vetnet optimize` on the vetsched-v1 instances and scores the results with evaluate.py.

Usage:
  python3 Benchmarks/vetsched-v1/run_benchmark.py [BINARY] [--seed N] [--instance FILE:SECONDS[:BOUND]]...
                                                  [--no-cpsat] [--json OUT]

BINARY defaults to .build/release/vetnet. Without --instance the three public instances run
with their target time limits (small 1 s, medium 5 s, large 30 s). When `ortools` is
importable, the CP-SAT reference (cpsat_ref.py) runs with the same time limit on each
instance that it can model, and the two scores are shown side by side.
"""
import argparse
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from evaluate import evaluate  # noqa: E402

PUBLIC = [  # instance, time limit (s), proven upper bound (None: unknown)
    ("small-s1", 1.0, 0.9360),
    ("medium-s1", 5.0, 0.9552),
    ("large-s1", 30.0, None),
]
CPSAT_MAX_REQUESTS = 1000   # the CP-SAT model of large-s1 is too large to build (README)


def run_vetnet(binary, inst_path, limit, seed, out):
    t0 = time.time()
    proc = subprocess.run([binary, "optimize", inst_path, "-o", out, "--time-limit", str(limit), "--seed", str(seed)],
                          capture_output=True, text=True)
    wall = time.time() - t0
    if proc.returncode != 0:
        raise RuntimeError(f"vetnet failed on {inst_path}: {proc.stderr.strip()}")
    return wall


def run_cpsat(inst_path, limit, seed, out):
    t0 = time.time()
    proc = subprocess.run([sys.executable, os.path.join(HERE, "cpsat_ref.py"), inst_path, "-o", out,
                           "--time", str(limit), "--seed", str(seed), "--workers", str(os.cpu_count() or 2)],
                          capture_output=True, text=True)
    wall = time.time() - t0
    return (wall if proc.returncode == 0 and os.path.exists(out) else None)


def score(inst, path):
    with open(path) as f:
        return evaluate(inst, json.load(f))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("binary", nargs="?", default=".build/release/vetnet")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--instance", action="append", default=[],
                    help="FILE:SECONDS[:BOUND] (repeatable); replaces the public set")
    ap.add_argument("--no-cpsat", action="store_true", help="skip CP-SAT even if ortools is importable")
    ap.add_argument("--json", help="also write the results as JSON here")
    a = ap.parse_args()

    runs = []
    if a.instance:
        for spec in a.instance:
            parts = spec.split(":")
            bound = float(parts[2]) if len(parts) > 2 else None
            runs.append((parts[0], float(parts[1]), bound))
    else:
        runs = [(os.path.join(HERE, "instances", f"{n}.json"), t, b) for n, t, b in PUBLIC]
    with_cpsat = not a.no_cpsat and importlib.util.find_spec("ortools") is not None

    header = f"{'instance':<22}{'limit':>7}{'score':>10}{'bound':>9}{'gap':>9}{'time':>8}{'feasible':>10}"
    if with_cpsat:
        header += f"{'cp-sat':>10}{'ratio':>8}"
    print(header)
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for path, limit, bound in runs:
            with open(path) as f:
                inst = json.load(f)
            name = inst.get("name", os.path.basename(path))
            out = os.path.join(tmp, "vetnet.json")
            wall = run_vetnet(a.binary, path, limit, a.seed, out)
            ev = score(inst, out)
            gap = (bound - ev["score"]) / bound if bound else None
            row = {"instance": name, "time_limit": limit, "score": ev["score"], "feasible": ev["feasible"],
                   "bound": bound, "gap": gap, "time_s": round(wall, 3),
                   "urgent_on_time": ev["urgent_on_time"], "urgent_total": ev["urgent_total"],
                   "assigned": ev["assigned"], "errors": ev["errors"][:3]}
            line = (f"{name:<22}{limit:>6.0f}s{ev['score']:>10.4f}"
                    f"{(f'{bound:.4f}' if bound else '–'):>9}{(f'{100 * gap:.2f}%' if gap is not None else '–'):>9}"
                    f"{wall:>7.2f}s{str(ev['feasible']):>10}")
            if with_cpsat:
                if len(inst["requests"]) <= CPSAT_MAX_REQUESTS:
                    cout = os.path.join(tmp, "cpsat.json")
                    cwall = run_cpsat(path, limit, a.seed, cout)
                    cs = score(inst, cout)["score"] if cwall is not None else None
                    row["cpsat_score"], row["cpsat_time_s"] = cs, cwall
                    ratio = ev["score"] / cs if cs else None
                    line += f"{(f'{cs:.4f}' if cs is not None else 'failed'):>10}{(f'{ratio:.4f}' if ratio else '–'):>8}"
                else:
                    line += f"{'too big':>10}{'–':>8}"
            print(line, flush=True)
            results.append(row)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=1)
    if not all(r["feasible"] for r in results):
        sys.exit(1)


if __name__ == "__main__":
    main()
