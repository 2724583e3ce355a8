"""HSA speed of this working tree against another git revision, side by side on one machine.

Timings on a shared machine drift by tens of percent from one minute to the next, so two figures taken minutes
apart do not compare. This script exports ``--rev`` (default ``HEAD``) to a temporary folder and times
``augment`` (all dimensions, full strength, default harness) under both code versions in separate processes
taking turns, ``--rounds`` times, keeping each version's best round. Both versions augment the installed
project's ``default`` harness pack (the same input). It prints microseconds per variant per family and the
speed-up, and saves them under benchmarks/results/. Both run as pure Python (revisions that had a compiled core
run it as pure Python too: an exported tree holds no build).

    python benchmarks/hsa_versus.py --rev dd0b3bf [--rounds 5] [--n 1000]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import export_tree, save  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent

#: Run in a fresh interpreter with the code under test first on ``sys.path``: microseconds per variant per family.
_PROBE = """
import json, random, sys, time
sys.path.insert(0, sys.argv[1])
import hat_env
assert hat_env.__file__.startswith(sys.argv[1]), hat_env.__file__
from hat_env.harness.core import Harness
from hat_env.hsa import augment
n = int(sys.argv[2])
h = Harness.load("default")
out = {}
for fam in ("train", "heldout"):
    rng = random.Random(0)
    for _ in range(300):
        augment(h, rng, "all", 1.0, fam)
    best = float("inf")
    for _ in range(3):
        t = time.process_time()
        for _ in range(n):
            augment(h, rng, "all", 1.0, fam)
        best = min(best, time.process_time() - t)
    out[fam] = best / n * 1e6
print(json.dumps(out))
"""


def _probe(tree: Path, n: int) -> dict[str, float]:
    """Microseconds per variant per family for the code in ``tree``."""
    out = subprocess.run([sys.executable, "-c", _PROBE, str(tree), str(n)], check=True, capture_output=True,
                         text=True, cwd=tempfile.gettempdir())
    return json.loads(out.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rev", default="HEAD", help="git revision to compare this working tree with (default HEAD)")
    ap.add_argument("--rounds", type=int, default=5, help="rounds, each timing both versions once (default 5)")
    ap.add_argument("--n", type=int, default=1000, help="variants per timing block, best of 3 blocks (default 1000)")
    args = ap.parse_args()
    base = args.rev
    with tempfile.TemporaryDirectory() as tmp:
        export_tree(args.rev, Path(tmp))
        trees = {base: Path(tmp) / "tree", "working tree": ROOT}
        best: dict[str, dict[str, float]] = {k: {} for k in trees}
        for r in range(args.rounds):
            for label, tree in trees.items():
                got = _probe(tree, args.n)
                for fam, us in got.items():
                    best[label][fam] = min(best[label].get(fam, float("inf")), us)
                print(f"round {r + 1}: {label:>12} " + "  ".join(f"{f} {us:.1f} us" for f, us in got.items()))
    old, new = best[base], best["working tree"]
    figures = {"rev": args.rev, "us_per_variant": {"rev": old, "working_tree": new},
               "speedup": {f: round(old[f] / new[f], 3) for f in new}}
    for fam in new:
        print(f"{fam:8} {base}: {old[fam]:.1f} us  working tree: {new[fam]:.1f} us  "
              f"speed-up {old[fam] / new[fam]:.2f}x ({1e6 / new[fam]:.0f} variants/s)")
    print(f"saved {save('hsa_versus', figures)}")


if __name__ == "__main__":
    main()
