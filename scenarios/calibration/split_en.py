"""Draw the held-out `test` split of the English calibration files by a seeded random draw, so that nobody picks
which items are test (CALIBRATION rules: 30% of the items of each category; for comment files, of each style).

Run once, after the items are final, from the repository root:

    python scenarios/calibration/split_en.py scenarios/calibration/replies_electronics_en.jsonl \
        scenarios/calibration/comments_en_US.jsonl

Each file is rewritten in place; only the items' ``split`` field changes. The draw depends only on :data:`SEED`,
the file's name, the group and the items' ids, so rerunning it gives the same split byte for byte.
"""

from __future__ import annotations

import json
import math
import random
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

#: Fixes the draw; changing it re-draws every test split.
SEED = "hat-env-calibration-en-v1"
#: Share of each group that goes to `test`.
SHARE = 0.3


def group_of(item: dict[str, Any]) -> str:
    """The group an item is drawn in.

    Args:
        item: one calibration item (a reply item has ``category``, a comment item has ``style``).

    Returns:
        ``"category:<name>"`` for reply items, ``"style:<name>"`` for comment items.
    """
    if "category" in item:
        return f"category:{item['category']}"
    return f"style:{item['style']}"


def draw_test_ids(items: list[dict[str, Any]], file_name: str) -> set[str]:
    """Draw the ids that go to `test`: round(SHARE * n) of each group of n items, without replacement.

    Args:
        items: the file's items (each with a unique ``id``).
        file_name: the file's base name; part of the seed, so two files draw independently.

    Returns:
        The set of test ids.
    """
    groups: dict[str, list[str]] = defaultdict(list)
    for it in items:
        groups[group_of(it)].append(it["id"])
    test: set[str] = set()
    for group in sorted(groups):
        ids = sorted(groups[group])
        k = math.floor(SHARE * len(ids) + 0.5)
        rng = random.Random(f"{SEED}:{file_name}:{group}")
        test.update(rng.sample(ids, k))
    return test


def split_file(path: Path) -> tuple[int, int]:
    """Rewrite one JSONL file with the drawn splits.

    Args:
        path: the calibration file.

    Returns:
        (number of items, number of test items).
    """
    lines = [ln for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip()]
    items = [json.loads(ln) for ln in lines]
    ids = [it["id"] for it in items]
    if len(set(ids)) != len(ids):
        raise ValueError(f"{path}: item ids are not unique")
    test = draw_test_ids(items, path.name)
    with path.open("w", encoding="utf-8") as f:
        for it in items:
            it["split"] = "test" if it["id"] in test else "train"
            f.write(json.dumps(it, ensure_ascii=False) + "\n")
    return len(items), len(test)


def main(argv: list[str]) -> int:
    """Split each file named on the command line; print the counts. Returns the exit status."""
    if not argv:
        print(__doc__)
        return 2
    for name in argv:
        n, k = split_file(Path(name))
        print(f"{name}: {n} items, {k} test ({100 * k / n:.1f}%)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
