"""Pass parser9: a title's head character written alone names its product (docs/comments.md, "Head characters
before a predicate"), on rooms other than the calibration rooms that showed it (tests/data/rooms)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hat_env.understanding.parser import parse_comment
from rooms import room

DATA = Path(__file__).parent / "data"
ROOMS = {k: room(k, 1) for k in ("chaju_zh.yaml", "xiedian_zh.yaml", "bangong_zh.yaml", "yurong_zh.yaml",
                                 "cookware_en.yaml", "jardin_es.yaml")}


def intents(scenario: str, text: str) -> list[tuple[str, int | None, str | None]]:
    """``(kind, link, attr of a spec)`` of each intent the parser reads in ``text`` in the room ``scenario``."""
    r = ROOMS[scenario]
    return sorted((i.kind, i.link, i.attr if i.kind == "spec" else None) for i in parse_comment(text, r.locale, catalog=r))


@pytest.mark.parametrize("scenario,text,want", [
    ("chaju_zh.yaml", "壶多少钱", ("price", 2, None)),
    ("chaju_zh.yaml", "壶是哪里产的", ("spec", 2, "origin")),
    ("chaju_zh.yaml", "碗发什么快递", ("shipping", 1, None)),
    ("chaju_zh.yaml", "盘有货吗", ("stock", 4, None)),
    ("xiedian_zh.yaml", "包是什么材质", ("spec", 2, "material")),
    ("bangong_zh.yaml", "桌的升降范围多少", ("spec", 3, "lift_range")),
    ("bangong_zh.yaml", "桌还有吗", ("stock", 3, None)),
])
def test_a_head_character_before_the_predicate_names_its_product(scenario: str, text: str,
                                                                  want: tuple[str, int, str | None]) -> None:
    """A function character, a question or ability word or a shipping verb right after the head character."""
    assert intents(scenario, text) == [want]


@pytest.mark.parametrize("scenario,text,want", [
    ("xiedian_zh.yaml", "包包多少钱", ("price", 2, None)),
    ("xiedian_zh.yaml", "鞋鞋还有吗", ("stock", 1, None)),
    ("chaju_zh.yaml", "碗碗几天能到", ("shipping", 1, None)),
    ("bangong_zh.yaml", "桌桌有货吗", ("stock", 3, None)),
])
def test_a_doubled_head_character_names_its_product(scenario: str, text: str, want: tuple[str, int, None]) -> None:
    """"包包", "鞋鞋": the doubled form viewers write for a product's head noun."""
    assert intents(scenario, text) == [want]


@pytest.mark.parametrize("scenario,text", [
    ("chaju_zh.yaml", "主播你用过这个壶吗"), ("xiedian_zh.yaml", "你穿过这个鞋吗"),
    ("bangong_zh.yaml", "主播你坐过这个椅吗"),
])
def test_a_head_character_before_a_final_particle_names_nothing(scenario: str, text: str) -> None:
    """"你用过这个壶吗" asks the host, not the product: a particle right after the character is no predicate."""
    assert intents(scenario, text) == [("chitchat", None, None)]


def test_a_head_character_inside_a_word_names_nothing() -> None:
    """Another character after it that opens no predicate ("盘子" is not read through this rule; "米色" stays a
    colour): the character is part of a longer word."""
    assert all(m[1] is None for m in intents("chaju_zh.yaml", "盘点一下今天的价格"))


def _agreement(split: str) -> float:
    rows = [json.loads(line) for line in (DATA / "comments_dev_parser9.jsonl").read_text(encoding="utf-8").splitlines()]
    rows = [r for r in rows if r["split"] == split]
    ok = 0
    for r in rows:
        want = sorted((x["kind"], x.get("link"), x.get("attr") if x["kind"] == "spec" else None) for x in r["intents"])
        ok += intents(Path(r["scenario"]).name, r["text"]) == want
    return ok / len(rows)


def test_the_dev_set_agrees() -> None:
    """tests/data/comments_dev_parser9.jsonl: develop half >= 90% (measured 96.9%, 40.6% before), held-back half
    >= 80% (measured 87.5%, 50.0% before)."""
    assert _agreement("train") >= 0.90
    assert _agreement("test") >= 0.80
