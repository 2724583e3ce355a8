"""Form checks for the second, independently written comment sets (scenarios/calibration/comments_<locale>_r2.jsonl):
every item has the CALIBRATION.md fields, its id follows ``cmt2-<locale>-NNNN``, every link, spec key and order it
names exists in its room at its seed and moment (seeded catalogs add products), and 25-35% of each file is `test`.
They check the data's form, never its labels (labels are people's judgements) and never run the comment parser."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest

from hat_env.envs.session import stream
from hat_env.sim.room import RoomState
from hat_env.sim.scenario import load_scenario
from hat_env.types import INTENT_KINDS

CAL = Path(__file__).resolve().parents[1] / "scenarios" / "calibration"
FILES = {"zh_CN": CAL / "comments_zh_CN_r2.jsonl", "en_US": CAL / "comments_en_US_r2.jsonl"}
ROOMS = {"zh_CN": {"beauty_zh", "healthfood_zh", "apparel_flash_zh", "groceries_zh"},
         "en_US": {"electronics_en", "pets_en", "appliances_en"}}
FIELDS = {"id", "split", "scenario", "seed", "t", "locale", "text", "intents", "style", "why"}
STYLES = {"plain", "slang", "typo", "no_punct", "emoji", "mixed", "traditional", "pinyin", "name_ref", "implicit",
          "multi", "spanish", "other_language", "injection", "social"}
INTENT_KEYS = {"kind", "link", "link2", "attr", "order_id", "payload", "lang"}


def _load(path: Path) -> list[dict[str, Any]]:
    """The items of one JSON Lines file."""
    return [json.loads(ln) for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip()]


@lru_cache(maxsize=None)
def _room(scenario: str, seed: int, t: float) -> tuple[dict[int, frozenset[str]], frozenset[str]]:
    """The room of `scenario` built as `caltool.py room` builds it (catalog stream of `seed`, time `t`).

    Returns (spec keys by link, order ids)."""
    room = RoomState(load_scenario(scenario), stream(seed, "catalog"))
    room.t = t
    return {p.link: frozenset(p.specs) for p in room.products}, frozenset(room.orders)


def _intent_problems(it: dict[str, Any], specs: dict[int, frozenset[str]], orders: frozenset[str]) -> list[str]:
    """What is wrong with one intent dict, as messages (empty when it is well formed)."""
    bad = []
    if it.get("kind") not in INTENT_KINDS:
        bad.append(f"unknown kind {it.get('kind')!r}")
    if set(it) - INTENT_KEYS:
        bad.append(f"unknown fields {sorted(set(it) - INTENT_KEYS)}")
    for key in ("link", "link2"):
        if key in it and it[key] not in specs:
            bad.append(f"{key} {it[key]} is not a link of the room")
    if it.get("kind") == "compare" and "link2" not in it:
        bad.append("compare without link2")
    if "attr" in it:
        if it.get("kind") != "spec":
            bad.append("attr on a non-spec intent")
        keys = specs.get(it.get("link"), frozenset().union(*specs.values()))
        if it["attr"] != "unknown" and it["attr"] not in keys:
            bad.append(f"attr {it['attr']!r} is not a spec key of link {it.get('link')} (use 'unknown')")
    if it.get("kind") == "spec" and "attr" not in it:
        bad.append("spec without attr")
    if "order_id" in it and it["order_id"] not in orders:
        bad.append(f"order {it['order_id']} is not in the room")
    return bad


def form_problems(path: Path, locale: str, prefix: str, min_items: int) -> list[str]:
    """What is wrong with a comment calibration file's form: its size, ids (``PREFIX-LOCALE-NNNN``), duplicate
    texts, fields, rooms of the locale, splits, styles, and intents whose links, spec keys and orders the room at
    the item's seed and time lacks (the parser is never run). Returns one line per problem."""
    items = _load(path)
    ids = [it["id"] for it in items]
    problems = [] if len(items) >= min_items else [f"{path.name}: {len(items)} items, fewer than {min_items}"]
    problems += [] if len(set(ids)) == len(ids) else [f"{path.name}: duplicate ids"]
    problems += [] if len({it["text"] for it in items}) == len(items) else [f"{path.name}: duplicate texts"]
    for it in items:
        where = f"{path.name} {it.get('id', '?')}"
        if set(it) != FIELDS:
            problems.append(f"{where}: fields {sorted(set(it) ^ FIELDS)}")
            continue
        if not re.fullmatch(rf"{prefix}-{locale}-\d{{4}}", it["id"]):
            problems.append(f"{where}: id")
        if it["locale"] != locale or it["scenario"] not in ROOMS[locale] or it["split"] not in ("train", "test"):
            problems.append(f"{where}: locale/scenario/split")
        if it["style"] not in STYLES or not it["text"].strip() or not it["why"].strip() or not it["intents"]:
            problems.append(f"{where}: style/text/why/intents")
            continue
        specs, orders = _room(it["scenario"], int(it["seed"]), float(it["t"]))
        problems += [f"{where}: {p}" for i in it["intents"] for p in _intent_problems(i, specs, orders)]
    return problems


@pytest.mark.parametrize("locale", sorted(FILES))
def test_items_have_the_documented_form(locale: str) -> None:
    problems = form_problems(FILES[locale], locale, "cmt2", 130)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("locale", sorted(FILES))
def test_test_split_is_a_quarter_to_a_third(locale: str) -> None:
    items = _load(FILES[locale])
    share = sum(it["split"] == "test" for it in items) / len(items)
    assert 0.25 <= share <= 0.35, f"{FILES[locale].name}: test share {share:.1%}"


def test_the_sets_are_new_comments() -> None:
    """No r2 comment repeats a comment of the first sets (they must be written independently)."""
    old = {it["text"].strip().lower() for p in CAL.glob("comments_*.jsonl") if "_r2" not in p.name
           for it in _load(p)}
    again = [it["id"] for p in FILES.values() for it in _load(p) if it["text"].strip().lower() in old]
    assert not again, f"repeated from the first sets: {again}"
