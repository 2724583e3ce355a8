"""Assign the 30% `test` split of hand-labelled calibration files by a seeded random draw, not by hand.

Reply items are drawn per `category`, comment items per `style`: in each group of n items (sorted by id),
round(30% of n) become `test`, the rest `train`. The draw depends only on the seed, the file name, the group and
the ids, so rerunning gives the same split byte for byte. Run after writing a file:

    python scenarios/calibration/split.py scenarios/calibration/replies_beauty_zh.jsonl ...

Growing a file: a plain rerun redraws each group that grew, which can move an item that was `train` (and so may
have been read by the grader's developers) to `test`. ``--keep`` keeps every item's existing split and draws
only the new items (those without a `split`), so that each group's test share comes as close to 30% as the new
items allow; use it for every batch after the first. ``--round`` draws several files together (a round spread
over many small files, where a category of one or two items per file would round down to no test item).

The two sets were first drawn with different seeds (the en_US files with :data:`SEEDS` ``en``, whose group names
carry a ``category:``/``style:`` prefix); the seed is chosen by the items' locale so that every file keeps the
split it was drawn with.
"""

from __future__ import annotations

import argparse
import json
import math
import random
from collections import defaultdict
from pathlib import Path
from typing import Any

#: Share of each group that goes to `test`.
SHARE = 0.3
#: The seed of each scheme, and whether its group names carry the key as a prefix ("category:correct_plain").
SEEDS = {"zh": ("hat-env-calibration-2026", False), "en": ("hat-env-calibration-en-v1", True)}


def scheme_of(items: list[dict[str, Any]]) -> str:
    """The draw scheme of a file: ``en`` when its items are en_US (the English sets), else ``zh``."""
    return "en" if items and str(items[0].get("locale", "")).startswith("en") else "zh"


def group_of(item: dict[str, Any], prefixed: bool) -> str:
    """The group an item is drawn in: its ``category`` (reply items) or ``style`` (comment items).

    Raises ValueError when the item has neither.
    """
    key = "category" if "category" in item else "style"
    if key not in item:
        raise ValueError(f"item {item.get('id')!r}: field 'category' (replies) or 'style' (comments) missing")
    return f"{key}:{item[key]}" if prefixed else str(item[key])


def draw_test_ids(items: list[dict[str, Any]], file_name: str, keep: bool = False) -> set[str]:
    """The ids that go to `test`.

    Args:
        items: the file's items (each with a unique ``id``).
        file_name: the file's base name; part of the seed, so two files draw independently.
        keep: keep the ``split`` of items that have one and draw only among the others.

    Returns:
        The set of test ids.
    """
    seed, prefixed = SEEDS[scheme_of(items)]
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for it in items:
        groups[group_of(it, prefixed)].append(it)
    test: set[str] = set()
    for group in sorted(groups):
        members = sorted(groups[group], key=lambda it: it["id"])
        want = math.floor(SHARE * len(members) + 0.5)
        rng = random.Random(f"{seed}:{file_name}:{group}")
        if not keep:
            test.update(rng.sample([it["id"] for it in members], want))
            continue
        kept = [it["id"] for it in members if it.get("split") == "test"]
        new = [it["id"] for it in members if it.get("split") not in ("train", "test")]
        test.update(kept)
        test.update(rng.sample(new, min(len(new), max(0, want - len(kept)))))
    return test


def split_file(path: Path, keep: bool = False) -> tuple[int, int]:
    """Rewrite one JSON Lines file with the drawn splits (only the ``split`` field changes).

    Args:
        path: a replies_*.jsonl or comments_*.jsonl file.
        keep: see :func:`draw_test_ids`.

    Returns:
        (number of items, number of test items). Raises ValueError naming the file on duplicate ids.
    """
    lines = [ln for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip()]
    items = [json.loads(ln) for ln in lines]
    ids = [it["id"] for it in items]
    if len(set(ids)) != len(ids):
        raise ValueError(f"{path}: item ids are not unique")
    try:
        test = draw_test_ids(items, path.name, keep)
    except ValueError as exc:
        raise ValueError(f"{path}: {exc}") from None
    for it in items:
        it["split"] = "test" if it["id"] in test else "train"
    path.write_text("".join(json.dumps(it, ensure_ascii=False) + "\n" for it in items), encoding="utf-8")
    return len(items), len(test)


def split_round(paths: list[Path], keep: bool = False) -> tuple[int, int]:
    """Draw one round's files together: each category (or style) is drawn over the items of ALL the files, so a
    round spread over many small files still sends about 30% of each group to `test` (a file drawn alone rounds
    a group of one or two items down to none). Only the ``split`` field of each file changes.

    Args:
        paths: the round's replies_*.jsonl files, or its comments_*.jsonl files (one scheme: do not mix locales
            of different schemes, see :func:`scheme_of`, unless they are drawn in separate calls).
        keep: see :func:`draw_test_ids`.

    Returns:
        (number of items, number of test items). Raises ValueError naming the file on duplicate ids.
    """
    per_file: list[tuple[Path, list[dict[str, Any]]]] = []
    seen: dict[str, Path] = {}
    for path in paths:
        items = [json.loads(ln) for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip()]
        for it in items:
            if it["id"] in seen:
                raise ValueError(f"{path}: item id {it['id']!r} is also in {seen[it['id']]}")
            seen[it["id"]] = path
        per_file.append((path, items))
    everything = [it for _, items in per_file for it in items]
    name = "round:" + "+".join(sorted(p.name for p in paths))
    try:
        test = draw_test_ids(everything, name, keep)
    except ValueError as exc:
        raise ValueError(f"{paths[0].parent}: {exc}") from None
    for path, items in per_file:
        for it in items:
            it["split"] = "test" if it["id"] in test else "train"
        path.write_text("".join(json.dumps(it, ensure_ascii=False) + "\n" for it in items), encoding="utf-8")
    return len(everything), len(test)


def main(argv: list[str] | None = None) -> int:
    """Split each file named on the command line; print the counts. Returns the exit status."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+", type=Path, help="calibration JSON Lines files to (re)split in place")
    ap.add_argument("--keep", action="store_true", help="keep existing splits; draw only items without one")
    ap.add_argument("--round", action="store_true",
                    help="draw the files together, each category/style over all of them (one round spread over "
                         "many small files); the seed depends on the set of file names")
    args = ap.parse_args(argv)
    if args.round:
        n, k = split_round(args.files, args.keep)
        print(f"{len(args.files)} files: {n} items, {k} test ({100 * k / max(n, 1):.1f}%)")
        return 0
    for path in args.files:
        n, k = split_file(path, args.keep)
        print(f"{path}: {n} items, {k} test ({100 * k / max(n, 1):.1f}%)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
