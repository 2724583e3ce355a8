"""Form checks for the independent hand-labelled reply sets of rounds 2-16
(scenarios/calibration/replies_<scenario>_r2.jsonl ... _r9.jsonl, each written by another annotator; round 5
adds the rooms groceries_zh, pets_en and appliances_en; round 6 adds hogar_es and two rooms of its own, muying_zh
and outdoor_en, shipped in scenarios/calibration/rooms/ and named by their cases as paths relative to the
calibration folder; round 7 adds the zh_CN room jiafang_zh the same way; round 8 the en_US room tools_en and the
zh_CN room xiebao_zh; round 9 the en_US room jewelry_en, the es_ES room belleza_es and
the zh_CN room shengxian_zh; round 10 the zh_CN room chongwu_zh, the en_US room fitness_en and the
es_ES room optica_es; round 11 the zh_CN room wenju_zh; round 12 the zh_CN room chufang_zh and the en_US room garden_en; round 13 office_en and cocina_es; round 14
chaye_zh and toys_en; round 15 the en_US room autos_en and the es_ES room moda_es; round 16 the zh_CN rooms
jiadian_zh and huwai_zh).

Every item has the calibration guide's fields, refers only to links, spec keys and orders its room has at the
case's seed, replays its tool-call turns through the harness without an invalid call, and the test split is
the seeded draw of split.py (for a file drawn in one go; 25-35% test in every file), so nobody picked it. These tests check the data's
form, never its labels (labels are people's judgements from the room data) and never run the grader.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from calibration_forms import (CAL, CATEGORIES, load, pooled_share_problems, replayed_calls, reply_item_problems,
                               round_draw_problems, split_module, split_problems)


#: scenario -> (locale, the split script that draws its test split)
LOCALES = {"electronics_en": "en_US", "beauty_zh": "zh_CN", "healthfood_zh": "zh_CN", "apparel_flash_zh": "zh_CN",
           "groceries_zh": "zh_CN", "pets_en": "en_US", "appliances_en": "en_US", "muying_zh": "zh_CN",
           "hogar_es": "es_ES", "outdoor_en": "en_US", "deportes_es": "es_ES", "skincare_en": "en_US",
           "jiafang_zh": "zh_CN", "tools_en": "en_US", "xiebao_zh": "zh_CN", "jewelry_en": "en_US",
           "belleza_es": "es_ES", "shengxian_zh": "zh_CN", "chongwu_zh": "zh_CN",
           "fitness_en": "en_US", "optica_es": "es_ES", "wenju_zh": "zh_CN", "chufang_zh": "zh_CN",
           "garden_en": "en_US", "office_en": "en_US", "cocina_es": "es_ES", "shuma_zh": "zh_CN",
           "chaye_zh": "zh_CN", "toys_en": "en_US", "yundong_zh": "zh_CN", "mascotas_es": "es_ES",
           "autos_en": "en_US", "moda_es": "es_ES", "jiadian_zh": "zh_CN", "huwai_zh": "zh_CN"}
#: scenario -> what its cases name when the set ships the room itself (a path relative to the calibration folder)
OWN_ROOMS = {"muying_zh": "rooms/muying_zh.yaml", "outdoor_en": "rooms/outdoor_en.yaml",
             "deportes_es": "rooms/deportes_es.yaml", "skincare_en": "rooms/skincare_en.yaml",
             "jiafang_zh": "rooms/jiafang_zh.yaml", "tools_en": "rooms/tools_en.yaml",
             "xiebao_zh": "rooms/xiebao_zh.yaml", "jewelry_en": "rooms/jewelry_en.yaml",
             "belleza_es": "rooms/belleza_es.yaml", "shengxian_zh": "rooms/shengxian_zh.yaml",
             "chongwu_zh": "rooms/chongwu_zh.yaml", "fitness_en": "rooms/fitness_en.yaml",
             "optica_es": "rooms/optica_es.yaml", "wenju_zh": "rooms/wenju_zh.yaml",
             "chufang_zh": "rooms/chufang_zh.yaml", "garden_en": "rooms/garden_en.yaml",
             "office_en": "rooms/office_en.yaml", "cocina_es": "rooms/cocina_es.yaml", "shuma_zh": "rooms/shuma_zh.yaml",
             "chaye_zh": "rooms/chaye_zh.yaml", "toys_en": "rooms/toys_en.yaml", "yundong_zh": "rooms/yundong_zh.yaml",
             "mascotas_es": "rooms/mascotas_es.yaml", "autos_en": "rooms/autos_en.yaml", "moda_es": "rooms/moda_es.yaml",
             "jiadian_zh": "rooms/jiadian_zh.yaml", "huwai_zh": "rooms/huwai_zh.yaml"}
#: round -> the scenarios it has a file for (round 5 covers the three rooms no earlier round had)
ROUND_SCENARIOS = {r: ("apparel_flash_zh", "beauty_zh", "electronics_en", "healthfood_zh") for r in (2, 3, 4)}
ROUND_SCENARIOS[5] = ("apparel_flash_zh", "appliances_en", "electronics_en", "groceries_zh", "pets_en")
#: round 6: its own rooms muying_zh and outdoor_en (at least 60 items each), about 15-25 items on each built-in zh
#: room and 30 or more on each en room and hogar_es
ROUND_SCENARIOS[6] = ("apparel_flash_zh", "beauty_zh", "groceries_zh", "healthfood_zh", "muying_zh",
                      "appliances_en", "electronics_en", "hogar_es", "outdoor_en", "pets_en")
#: round 7: the rooms of its own skincare_en (fresh7en) and jiafang_zh (fresh7zh), at least 60 items each; 15 or
#: more on each built-in room, outdoor_en, muying_zh and deportes_es (a room of comment round 4, here with replies)
ROUND_SCENARIOS[7] = ("appliances_en", "deportes_es", "electronics_en", "hogar_es", "outdoor_en", "pets_en",
                      "skincare_en", "apparel_flash_zh", "beauty_zh", "groceries_zh", "healthfood_zh", "jiafang_zh",
                      "muying_zh")
#: round 8: rooms of its own tools_en (fresh8en) and xiebao_zh (fresh8zh), at least 60 items each; 15 or more on each
#: en, es and built-in zh room, muying_zh and jiafang_zh
ROUND_SCENARIOS[8] = ("appliances_en", "deportes_es", "electronics_en", "hogar_es", "outdoor_en", "pets_en",
                      "skincare_en", "tools_en", "apparel_flash_zh", "beauty_zh", "groceries_zh", "healthfood_zh",
                      "jiafang_zh", "muying_zh", "xiebao_zh")
#: round 9 (two annotators: en_US/es_ES and zh_CN): rooms of its own jewelry_en, belleza_es and shengxian_zh (at
#: least 60 items each); 15 or more on each other room it uses (built-in rooms, outdoor_en, jiafang_zh)
ROUND_SCENARIOS[9] = ("appliances_en", "belleza_es", "electronics_en", "hogar_es", "jewelry_en", "outdoor_en",
                      "pets_en", "apparel_flash_zh", "beauty_zh", "groceries_zh", "healthfood_zh", "jiafang_zh",
                      "shengxian_zh")
#: round 10 (two annotators: zh_CN and en_US/es_ES): rooms of its own chongwu_zh (pet supplies), fitness_en (home
#: gym and sports nutrition) and optica_es (eyewear), at least 60 items each; 18 or more on each built-in zh room,
#: electronics_en, pets_en and hogar_es
ROUND_SCENARIOS[10] = ("apparel_flash_zh", "beauty_zh", "chongwu_zh", "groceries_zh", "healthfood_zh",
                       "electronics_en", "fitness_en", "hogar_es", "optica_es", "pets_en")
#: round 11 (one annotator): its own room wenju_zh (stationery, zh_CN; at least 60 items); 15 or more on beauty_zh,
#: electronics_en, hogar_es, groceries_zh and pets_en
ROUND_SCENARIOS[11] = ("beauty_zh", "electronics_en", "groceries_zh", "hogar_es", "pets_en", "wenju_zh")
#: round 12 (two annotators: zh_CN and en_US/es_ES): rooms of its own chufang_zh (kitchenware) and garden_en (home
#: and garden), at least 60 items each; 15 or more on healthfood_zh, apparel_flash_zh, hogar_es and belleza_es
ROUND_SCENARIOS[12] = ("apparel_flash_zh", "belleza_es", "chufang_zh", "garden_en", "healthfood_zh", "hogar_es")
#: round 13 (one annotator): rooms of its own office_en (office supplies) and cocina_es (kitchenware), 27-29 items
#: each; 9-18 on electronics_en, pets_en, hogar_es, optica_es, healthfood_zh, groceries_zh and shuma_zh (a room of the
#: comment rounds, here with replies); drawn over all its files together (``split.py --round``)
ROUND_SCENARIOS[13] = ("cocina_es", "electronics_en", "groceries_zh", "healthfood_zh", "hogar_es", "office_en",
                       "optica_es", "pets_en", "shuma_zh")
#: round 14 (one annotator): rooms of its own chaye_zh (tea and tea-ware) and toys_en (toys and games), 39 items each;
#: 5-15 on nine other rooms (built-in, and the comment rounds' yundong_zh and mascotas_es); drawn with --round
ROUND_SCENARIOS[14] = ("apparel_flash_zh", "beauty_zh", "chaye_zh", "yundong_zh", "appliances_en", "electronics_en",
                       "fitness_en", "toys_en", "belleza_es", "hogar_es", "mascotas_es")
#: round 15 (one annotator, en_US/es_ES): rooms of its own autos_en (car care) and moda_es (clothing and footwear),
#: 64-67 items each; 11-16 on electronics_en, pets_en, appliances_en, hogar_es, garden_en and optica_es; drawn with --round
ROUND_SCENARIOS[15] = ("appliances_en", "autos_en", "electronics_en", "garden_en", "pets_en", "hogar_es", "moda_es",
                       "optica_es")
#: round 16 (one annotator, zh_CN): rooms of its own jiadian_zh (small appliances) and huwai_zh (camping), 74-79
#: items each; 7-21 on the built-in zh rooms, shuma_zh and chufang_zh; drawn with --round
ROUND_SCENARIOS[16] = ("apparel_flash_zh", "beauty_zh", "chufang_zh", "groceries_zh", "healthfood_zh", "huwai_zh",
                       "jiadian_zh", "shuma_zh")
#: the rooms a round ships itself (their files hold at least 60 items; round 13's 27 or more)
ROUND_ROOMS = {6: ("muying_zh", "outdoor_en"), 7: ("jiafang_zh", "skincare_en"), 8: ("tools_en", "xiebao_zh"),
               9: ("jewelry_en", "belleza_es", "shengxian_zh"), 10: ("chongwu_zh", "fitness_en", "optica_es"),
               11: ("wenju_zh",), 12: ("chufang_zh", "garden_en"), 13: ("office_en", "cocina_es"),
               14: ("chaye_zh", "toys_en"), 15: ("autos_en", "moda_es"), 16: ("jiadian_zh", "huwai_zh")}
#: (scenario, round) of every fresh file; round 2 has at least 60 items per file, rounds 3-5 at least 30 (see
#: _min_items for round 6)
FILES = [(sc, r) for r, scs in sorted(ROUND_SCENARIOS.items()) for sc in scs]
#: Rounds whose files grew batch by batch with ``split.py --keep`` (each batch drawn on its own: only their test
#: share is checked, see calibration_forms.split_problems); round 11 drew each file once, then added a few items to
#: wenju_zh_r11 and electronics_en_r11 with ``--keep``
KEPT_ROUNDS = {4, 5, 6, 7, 8, 11}
IDS = [f"{sc}_r{r}" for sc, r in FILES]
#: Rounds drawn in one go whose test share is checked over all their files together: round 9 spread 15-30 items over
#: each of ten rooms, one or two per category, where split.py's per-category round(30%) leaves a small file with a
#: few test items (pets_en_r9: 2 of 18) while the round as a whole is 28.6% test; round 11's files on built-in rooms
#: likewise (beauty_zh_r11: 4 of 24, electronics_en_r11: 5 of 28; the round: 50 of 177, 28.2%)
POOLED_SHARE_ROUNDS = {9, 10, 11, 12}
#: Rounds drawn with ``split.py --round``: each category over all the round's files at once (so the round is about
#: 30% test however small its files); a redraw of the round must leave every file byte for byte as it is
ROUND_DRAWN = {13, 14, 15, 16}
#: The lowest pooled test share a round may have (25% unless listed): round 10's files on built-in rooms hold one
#: item in most categories (its seven files on rooms it does not ship hold 18-23 items), where split.py's
#: per-category round(30%) draws none, so the round as drawn is 24.3% test (its own rooms' files: 28-30%); the draw
#: is still split.py's, checked above
POOLED_SHARE_FLOOR = {10: 0.20, 12: 0.20}
#: round 12 likewise: its files on healthfood_zh and apparel_flash_zh hold one item per category (0 of 16 test each),
#: belleza_es_r12 2 of 15; the round as drawn is 54 of 225 (24.0%), its own rooms' files 27-31%


def _path(scenario: str, rnd: int) -> Path:
    return CAL / f"replies_{scenario}_r{rnd}.jsonl"


def _min_items(scenario: str, rnd: int) -> int:
    """The fewest items a fresh file must hold: 60 in round 2 and for a room a round ships itself, 15 for the
    other rooms of rounds 6-9 (each spread its items over several rooms), else 30."""
    if rnd in (13, 14, 15, 16):
        return 25 if scenario in ROUND_ROOMS[rnd] else 5
    if rnd == 2 or scenario in ROUND_ROOMS.get(rnd, ()):
        return 60
    return 15 if rnd in (6, 7, 8, 9, 10, 11, 12) else 30


@pytest.mark.parametrize(("scenario", "rnd"), FILES, ids=IDS)
def test_items_have_the_documented_form(scenario: str, rnd: int) -> None:
    locale = LOCALES[scenario]
    items = load(_path(scenario, rnd))
    assert len(items) >= _min_items(scenario, rnd)
    assert len({it["id"] for it in items}) == len(items)
    problems = [m for it in items for m in reply_item_problems(it, rf"cal{rnd}-{scenario}-\d{{4}}", scenario, locale,
                                                                OWN_ROOMS.get(scenario))]
    assert not problems, problems


@pytest.mark.parametrize(("scenario", "rnd"), FILES, ids=IDS)
def test_tool_call_turns_replay_without_an_invalid_call(scenario: str, rnd: int) -> None:
    """Each item's tool-call turns feed through the harness; every call is a known tool with valid arguments.

    Injected tool faults (a timeout, a malformed result) are part of some suite cases and are allowed: the
    turns then retry, as the reference agent did.
    """
    problems = [m for it in load(_path(scenario, rnd)) for m in replayed_calls(it)[1]]
    assert not problems, problems


#: files drawn on their own (a round drawn together is checked as a whole, below)
PER_FILE = [(sc, r) for sc, r in FILES if r not in ROUND_DRAWN]


@pytest.mark.parametrize(("scenario", "rnd"), PER_FILE, ids=[f"{sc}_r{r}" for sc, r in PER_FILE])
def test_test_split_is_the_seeded_draw(scenario: str, rnd: int, tmp_path: Path) -> None:
    problems = split_problems(_path(scenario, rnd), rnd not in KEPT_ROUNDS, tmp_path, rnd not in POOLED_SHARE_ROUNDS)
    assert not problems, problems


@pytest.mark.parametrize("rnd", sorted(ROUND_DRAWN))
def test_a_round_drawn_together_is_its_seeded_draw(rnd: int, tmp_path: Path) -> None:
    """``split.py --round`` over copies of the round's files leaves each byte for byte as it is, and the round is
    25-35% test."""
    paths = [_path(sc, rnd) for sc in ROUND_SCENARIOS[rnd]]
    problems = round_draw_problems(paths, tmp_path)
    assert not problems, problems


@pytest.mark.parametrize("rnd", sorted(POOLED_SHARE_ROUNDS))
def test_a_round_of_small_files_holds_its_test_share_over_all_its_files(rnd: int) -> None:
    """Each file is split.py's seeded draw (above); together the round's files are 25-35% test (or the
    round's POOLED_SHARE_FLOOR-35%)."""
    paths = [_path(sc, rnd) for sc in ROUND_SCENARIOS[rnd]]
    problems = pooled_share_problems(paths, POOLED_SHARE_FLOOR.get(rnd, 0.25))
    assert not problems, problems


def test_sets_mix_own_comments_correct_and_wrong_replies() -> None:
    """About a third of the items use free-text comments (no intents); correct and failing replies both occur."""
    items = [it for sc, rnd in FILES for it in load(_path(sc, rnd))]
    own = sum("expect_intents" in it["case"]["comments"][0] for it in items)
    passes = sum(it["label"]["accuracy"] == 1 and it["label"]["effectiveness"] >= 0.5
                 and it["label"]["compliance"] == 1 for it in items)
    assert len(items) >= 850
    assert own / len(items) >= 0.3
    assert 0.35 <= passes / len(items) <= 0.65
    assert CATEGORIES - {it["category"] for it in items} == set()


def test_growing_a_file_with_keep_moves_no_item_between_splits(tmp_path: Path) -> None:
    """``split.py --keep`` on a file that grew keeps each earlier item's split and draws only the new items, so a
    train item the grader's developers may have read never becomes test."""
    mod = split_module()
    items = load(_path("beauty_zh", 2))
    first, later = items[:40], items[40:]
    path = tmp_path / "replies_beauty_zh_r9.jsonl"
    path.write_text("".join(json.dumps(it, ensure_ascii=False) + "\n" for it in first), encoding="utf-8")
    mod.split_file(path)
    before = {it["id"]: it["split"] for it in load(path)}
    grown = load(path) + [{k: v for k, v in it.items() if k != "split"} for it in later]
    path.write_text("".join(json.dumps(it, ensure_ascii=False) + "\n" for it in grown), encoding="utf-8")
    mod.split_file(path, keep=True)
    after = {it["id"]: it["split"] for it in load(path)}
    assert all(after[i] == s for i, s in before.items())
    assert set(after.values()) == {"train", "test"} and len(after) == len(items)
    assert 0.2 <= sum(s == "test" for s in after.values()) / len(after) <= 0.4
