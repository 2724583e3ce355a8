"""The comment side of ``hat-env calibrate``: the comment parser against hand-labelled comments.

The labelled sets are ``scenarios/calibration/comments_<locale>.jsonl`` (one JSON object a line: ``id``, ``split``,
``scenario``, ``seed``, ``t``, ``locale``, ``text``, ``intents``, ``style``, ``why``; see the calibration README).
Each comment is parsed with the catalog of its room (the scenario at that seed), as the grader parses a comment
that carries no intents, and compared with its label as a multiset of ``(kind, link, link2, order_id, attr)``
(``attr`` of spec intents only; payloads and language codes are not compared).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from pathlib import Path
from typing import Any, Iterable

from hat_env.jsonl import read_objects
from hat_env.sim.scenario import relative_scenario_ref

SPLITS = ("train", "test", "all")
#: Kinds that are not questions (a comment labelled only with these is not counted as a question).
NOT_QUESTIONS = frozenset({"chitchat", "troll", "injection"})


def calibration_dir() -> Path:
    """The folder of the shipped calibration sets (``scenarios/calibration`` of the installed package)."""
    import hat_env.scenarios as sc

    return Path(sc.__file__).resolve().parent / "calibration"


def intent_key(d: dict[str, Any]) -> tuple[Any, ...]:
    """What exact match compares of one intent: ``(kind, link, link2, order_id, attr)``, where ``attr`` counts for
    ``spec`` intents only (the labels give an attribute to spec questions alone; the parser may also mark a
    campaign question as one about a promo code or a coupon, which the labels do not distinguish)."""
    attr = d.get("attr") if d.get("kind") == "spec" else None
    return (d.get("kind"), d.get("link"), d.get("link2"), d.get("order_id"), attr)


def load_comment_items(split: str = "train", files: Iterable[str | Path] | None = None) -> list[dict[str, Any]]:
    """The labelled comments of ``split`` (``all``: every item) from ``files`` (default: the shipped
    ``comments_*.jsonl``), in file order.

    Raises:
        ValueError: an unknown split, or a line that is not a JSON object with ``text`` and ``intents`` (the
            message names the file and line).
    """
    if split not in SPLITS:
        raise ValueError(f"split must be one of {', '.join(SPLITS)}, got {split!r}")
    paths = [Path(p) for p in files] if files is not None else sorted(calibration_dir().glob("comments_*.jsonl"))
    out = []
    for path in paths:
        for n, item in read_objects(path):
            if not isinstance(item.get("text"), str) or not isinstance(item.get("intents"), list):
                raise ValueError(f"{path}:{n}: expected an object with text (string) and intents (list)")
            if split == "all" or item.get("split") == split:
                if "scenario" in item:
                    item["scenario"] = relative_scenario_ref(item["scenario"], path.parent)
                out.append(item)
    return out


def _room(scenario: str, seed: int) -> Any:
    from hat_env.envs.session import stream
    from hat_env.sim.room import RoomState
    from hat_env.sim.scenario import load_scenario

    return RoomState(load_scenario(scenario), stream(int(seed), "catalog"))


def _share(num: int, den: int) -> float | None:
    return round(num / den, 4) if den else None


def calibrate_comments(split: str = "train", files: Iterable[str | Path] | None = None) -> dict[str, Any]:
    """Parse every labelled comment of ``split`` and compare it with its label.

    Args:
        split: ``train``, ``test`` or ``all``.
        files: labelled comment files (default: the shipped ``comments_*.jsonl``).

    Returns:
        ``{"split", "n", "exact", "by_locale": {locale: {"n", "exact"}}, "by_style": {style: {"n", "exact"}},
        "questions", "questions_as_chitchat", "misses": [{"id", "locale", "style", "expected", "parsed"}]}``:
        ``exact`` is the share of comments whose parsed intents equal the label as a multiset; ``questions`` the
        comments labelled with a question (any kind but chitchat, troll and injection) and
        ``questions_as_chitchat`` the share of them parsed as chitchat only.
    """
    from hat_env.understanding.parser import CommentParser

    items = load_comment_items(split, files)
    rooms: dict[tuple[str, int], Any] = {}
    parsers: dict[tuple[str, int, str], CommentParser] = {}
    rows = []
    for it in items:
        key = (str(it["scenario"]), int(it.get("seed", 0)))
        if key not in rooms:
            rooms[key] = _room(*key)
        loc = str(it.get("locale") or rooms[key].locale)
        pk = (*key, loc)
        if pk not in parsers:
            parsers[pk] = CommentParser(rooms[key], loc)
        parsed = [i.to_dict() for i in parsers[pk].parse(it["text"])]
        expected = [d for d in it["intents"] if isinstance(d, dict)]
        ok = Counter(map(intent_key, parsed)) == Counter(map(intent_key, expected))
        question = any(d.get("kind") not in NOT_QUESTIONS for d in expected)
        as_chitchat = question and [d.get("kind") for d in parsed] == ["chitchat"]
        rows.append((it, loc, ok, question, as_chitchat, expected, parsed))

    def table(field: str) -> dict[str, dict[str, Any]]:
        groups: dict[str, list[bool]] = defaultdict(list)
        for it, loc, ok, *_ in rows:
            groups[loc if field == "locale" else str(it.get(field, "?"))].append(ok)
        return {k: {"n": len(v), "exact": _share(sum(v), len(v))} for k, v in sorted(groups.items())}

    n_q = sum(1 for r in rows if r[3])
    return {
        "split": split,
        "n": len(rows),
        "exact": _share(sum(1 for r in rows if r[2]), len(rows)),
        "by_locale": table("locale"),
        "by_style": table("style"),
        "questions": n_q,
        "questions_as_chitchat": _share(sum(1 for r in rows if r[4]), n_q),
        "misses": [{"id": it.get("id"), "locale": loc, "style": it.get("style"), "expected": exp, "parsed": got}
                   for it, loc, ok, _q, _c, exp, got in rows if not ok],
    }


__all__ = ["NOT_QUESTIONS", "SPLITS", "calibrate_comments", "intent_key", "load_comment_items"]
