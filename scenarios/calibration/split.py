"""Assign the 30% `test` split of hand-labelled calibration files by a seeded random draw, not by hand.

Reply items are drawn per `category`, comment items per `style`: in each group, round(30% of n) items (sorted
by id) become `test`, the rest `train`. The draw depends only on the seed, the file name and the group, so
rerunning gives the same split byte for byte. Run once after writing a file:

    python scenarios/calibration/split.py scenarios/calibration/replies_beauty_zh.jsonl ...
"""

from __future__ import annotations

import json
import random
import sys
from collections import defaultdict
from pathlib import Path

SEED = "hat-env-calibration-2026"
TEST_SHARE = 0.3


def split_file(path: Path, seed: str = SEED, share: float = TEST_SHARE) -> dict[str, int]:
    """Rewrite `path` (JSON Lines) with each item's `split` drawn per group.

    path: a replies_*.jsonl (grouped by `category`) or comments_*.jsonl (grouped by `style`) file.
    seed: the draw's seed; share: the fraction of each group that becomes `test`.
    Returns the number of items per split.
    """
    lines = [ln for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip()]
    items = [json.loads(ln) for ln in lines]
    key = "style" if path.name.startswith("comments_") else "category"
    groups: dict[str, list[int]] = defaultdict(list)
    for n, item in enumerate(items):
        if key not in item:
            raise ValueError(f"{path}: line {n + 1}: field {key!r} missing")
        groups[item[key]].append(n)
    test: set[int] = set()
    for group, members in sorted(groups.items()):
        members.sort(key=lambda n: items[n]["id"])
        k = int(share * len(members) + 0.5)
        test.update(random.Random(f"{seed}:{path.name}:{group}").sample(members, k))
    counts = {"train": 0, "test": 0}
    for n, item in enumerate(items):
        item["split"] = "test" if n in test else "train"
        counts[item["split"]] += 1
    path.write_text("".join(json.dumps(i, ensure_ascii=False) + "\n" for i in items), encoding="utf-8")
    return counts


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        print(arg, split_file(Path(arg)))
