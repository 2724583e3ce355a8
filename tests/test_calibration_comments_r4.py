"""Form checks for the fourth, independently written comment sets (scenarios/calibration/comments_<locale>_r4.jsonl),
zh_CN, en_US and es_ES; the Spanish set also uses a room of its own, scenarios/calibration/rooms/deportes_es.yaml
(named in the items as ``rooms/deportes_es.yaml``, a path relative to the calibration folder).

The same checks as rounds 2-3 (the intent helper of tests/test_calibration_comments_r2.py is reused): every item has
the documented fields, its id follows ``cmt4-<locale>-NNNN``, every link, spec key and order it names exists in its
room at its seed and moment, every room of the locale is used, 25-35% of each file is `test` as split.py drew it
(``--keep``, batch by batch), and no comment repeats an earlier set. They check the data's form, never its labels
(labels are people's judgements) and never run the comment parser: these sets are a held-out measurement of it.
"""

from __future__ import annotations

import importlib.util
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest
from test_calibration_comments_r2 import FIELDS, STYLES, _intent_problems, _load

from hat_env.envs.session import stream
from hat_env.sim.room import RoomState
from hat_env.sim.scenario import load_scenario, relative_scenario_ref

CAL = Path(__file__).resolve().parents[1] / "scenarios" / "calibration"
FILES = {loc: CAL / f"comments_{loc}_r4.jsonl" for loc in ("zh_CN", "en_US", "es_ES")}
#: The rooms each file must use (all of them), as the items name them.
ROOMS = {"zh_CN": {"beauty_zh", "healthfood_zh", "apparel_flash_zh", "groceries_zh"},
         "en_US": {"electronics_en", "pets_en", "appliances_en"},
         "es_ES": {"hogar_es", "rooms/deportes_es.yaml"}}
#: Fewest items per file (the brief: about 100 zh_CN, 100 en_US, 60 es_ES; at least 260 in all).
MIN_ITEMS = {"zh_CN": 100, "en_US": 100, "es_ES": 60}


@lru_cache(maxsize=None)
def _room(scenario: str, seed: int, t: float) -> tuple[dict[int, frozenset[str]], frozenset[str]]:
    """The room of an item, built as ``facts.py room`` builds it.

    scenario: the item's ``scenario`` (a built-in name, or a path relative to the calibration folder); seed: the
    catalog draw; t: the room time. Returns (spec keys by link, order ids).
    """
    room = RoomState(load_scenario(relative_scenario_ref(scenario, CAL)), stream(seed, "catalog"))
    room.t = t
    return {p.link: frozenset(p.specs) for p in room.products}, frozenset(room.orders)


def _form_problems(path: Path, locale: str) -> list[str]:
    """What is wrong with the form of one r4 file: size, ids, duplicate texts, fields, rooms, splits, styles, and
    intents naming links, spec keys or orders the item's room lacks. Returns one line per problem."""
    items = _load(path)
    ids = [it.get("id") for it in items]
    problems = [] if len(items) >= MIN_ITEMS[locale] else [f"{path.name}: {len(items)} items"]
    problems += [] if len(set(ids)) == len(ids) else [f"{path.name}: duplicate ids"]
    problems += [] if len({it.get("text") for it in items}) == len(items) else [f"{path.name}: duplicate texts"]
    for it in items:
        where = f"{path.name} {it.get('id', '?')}"
        if set(it) != FIELDS:
            problems.append(f"{where}: fields {sorted(set(it) ^ FIELDS)}")
            continue
        if not re.fullmatch(rf"cmt4-{locale}-\d{{4}}", it["id"]):
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
    problems = _form_problems(FILES[locale], locale)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("locale", sorted(FILES))
def test_every_room_of_the_locale_is_used(locale: str) -> None:
    used = {it["scenario"] for it in _load(FILES[locale])}
    assert used == ROOMS[locale], f"{FILES[locale].name}: rooms missing {sorted(ROOMS[locale] - used)}"


@pytest.mark.parametrize("locale", sorted(FILES))
def test_test_split_is_the_seeded_draw(locale: str, tmp_path: Path) -> None:
    """The split is split.py's (rerunning ``--keep`` leaves the file as it is) and 25-35% of it is `test`."""
    spec = importlib.util.spec_from_file_location("cal_split", CAL / "split.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    path = FILES[locale]
    copy = tmp_path / path.name
    copy.write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    mod.split_file(copy, keep=True)
    assert copy.read_text(encoding="utf-8") == path.read_text(encoding="utf-8")
    items = _load(path)
    share = sum(it["split"] == "test" for it in items) / len(items)
    assert 0.25 <= share <= 0.35, f"{path.name}: test share {share:.1%}"


def test_the_sets_are_new_comments() -> None:
    """No r4 comment repeats a comment of the earlier sets (they must be written independently)."""
    old = {it["text"].strip().lower() for p in CAL.glob("comments_*.jsonl") if "_r4" not in p.name
           for it in _load(p)}
    again = [it["id"] for p in FILES.values() for it in _load(p) if it["text"].strip().lower() in old]
    assert not again, f"repeated from the earlier sets: {again}"


def test_the_own_room_loads_with_a_sold_out_product() -> None:
    """deportes_es loads as an es_ES room on its own vocabulary, and one of its products is sold out (the set asks
    about it)."""
    sc = load_scenario(CAL / "rooms" / "deportes_es.yaml")
    room = RoomState(sc, stream(sc.seed, "catalog"))
    assert sc.locale == "es_ES"
    assert {p.category for p in room.products} <= set(room.vocabulary.categories)
    assert any(room.stock.get(p.product_id, p.stock) == 0 for p in room.products)
