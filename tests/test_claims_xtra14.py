"""Correct replies that add true extra facts, paraphrase the data or say honestly that it is silent (pass
``xtra14``): the dev set ``tests/data/dev_correct_extra14.jsonl`` (106 replies written for this pass on
electronics_en, hogar_es, beauty_zh, skincare_en, optica_es and shuma_zh, labelled from the room data before grading; every third item held out)
and focused cases for each reading fixed:

- Spanish free shipping said with a copula ("el envío es gratis", "los envíos son gratuitos") is a
  free-shipping claim, false for a product that pays shipping (main read nothing and passed it);
- "gratis con" after "el envío es" says how it ships, not a gift ("el envío es gratis con SEUR");
- a deal word in a clause that says the data has no information about it ("小样的信息暂时没有") is the data's
  silence, not a claimed gift.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hat_env.scoring import grade
from tests.rooms import grade_one, passes as _passed

DEV = Path(__file__).parent / "data" / "dev_correct_extra14.jsonl"


def _components(scenario: str, comment: str, reply: str) -> dict[str, float]:
    """The components ``grade()`` gives one final ``reply`` to one free-text ``comment`` at seed 1, t=100."""
    return grade_one(scenario, 1, 100.0, comment, reply)["components"]


def _rows() -> list[dict[str, Any]]:
    with open(DEV, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def test_dev_set_agreement_floor() -> None:
    rows = _rows()
    agree = {"tune": [0, 0], "held": [0, 0]}
    for row in rows:
        case = row["case"]
        c = _components(case["scenario"], case["comments"][0]["text"], row["turns"][-1])
        agree[row["half"]][0] += int(_passed(c) == bool(row["pass"]))
        agree[row["half"]][1] += 1
    # measured: tune 68/71, held 32/35 (main on the first 68 items: tune 43/46, held 21/22)
    assert agree["tune"][0] >= 68, agree
    assert agree["held"][0] >= 32, agree


def test_spanish_shipping_is_free_with_a_copula_is_a_claim() -> None:
    c = _components("hogar_es", "¿cuánto valen las sábanas?", "Las sábanas valen 39,50 €, y además el envío es gratis.")
    assert c["accuracy"] == 0  # the sheets pay 3.95 € shipping
    c = _components("hogar_es", "¿la sartén tiene envío gratis?", "Sí, los envíos son gratuitos para la sartén.")
    assert c["accuracy"] == 1 and c["effectiveness"] == 1


def test_gratis_con_after_shipping_is_free_is_the_carrier_not_a_gift() -> None:
    c = _components("hogar_es", "¿la sartén es de aluminio?",
                    "Sí, de aluminio forjado, y el envío es gratis con SEUR.")
    assert _passed(c)


def test_a_deal_word_the_reply_says_the_data_has_no_information_on() -> None:
    c = _components("beauty_zh", "口红有赠品吗", "口红99元，赠品的信息暂时没有哦。")
    assert c["accuracy"] == 1
    c = _components("beauty_zh", "口红有赠品吗", "口红99元，还送赠品哦。")
    assert c["accuracy"] == 0


BELLEZA = str(Path(__file__).parent.parent / "scenarios" / "calibration" / "rooms" / "belleza_es.yaml")


def test_a_spanish_threshold_said_with_a_reach_verb() -> None:
    case = {"scenario": BELLEZA, "seed": 1, "t": 100.0, "comments": [{"text": "¿cuánto es el envío del sérum?"}]}
    ok = "El envío del sérum cuesta 3,95 €; si el pedido alcanza 35 € el envío es gratis."
    assert grade(case, [ok])["components"]["accuracy"] == 1
    bad = "El envío del sérum cuesta 3,95 €; si el pedido alcanza 30 € el envío es gratis."
    assert grade(case, [bad])["components"]["accuracy"] == 0


SHUMA = str(Path(__file__).parent.parent / "scenarios" / "calibration" / "rooms" / "shuma_zh.yaml")


def test_the_datas_own_text_having_none_is_an_honest_unknown() -> None:
    case = {"scenario": SHUMA, "seed": 1, "t": 100.0, "comments": [{"text": "手机壳是哪里生产的"}]}
    for reply in ("产地这个参数里没有，抱歉哦，可以咨询客服。", "参数里没有产地，抱歉。"):
        c = grade(case, [reply])["components"]
        assert c["accuracy"] == 1 and c["effectiveness"] == 1, reply
