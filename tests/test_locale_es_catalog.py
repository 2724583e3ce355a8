"""The open catalog in es_ES: the reference agent answers shipping windows and fees, no-returns policies and
warranties in years, bundles, checkout codes, gifts and yes/no attributes in Spanish (their texts are the locale
file's, not English fallbacks), a locale file that lacks one of those texts is refused naming the key, and a decimal
comma in a catalog number ("1,1 kg") is read where the locale writes one and refused elsewhere."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from hat_env.agents import make_agent
from hat_env.envs.session import stream
from hat_env.evaluation.runner import run_case
from hat_env.locales import get_locale, load_locale_file, locales_dir
from hat_env.sim.comments import render_comment
from hat_env.sim.room import RoomState
from hat_env.sim.scenario import load_scenario, resolve_scenario_path
from hat_env.types import Intent
from hat_env.yamlio import FileError


def _open_catalog_room(tmp_path: Path) -> Path:
    """hogar_es with the open catalog's features: shipping windows, an oversize fee, installation, cold chain, a
    product without returns, warranties in years, a yes/no attribute, a weight with a decimal comma, a checkout
    code and a bundle (with stacking) beside the room's coupon, flash sale and gift."""
    sc = yaml.safe_load(resolve_scenario_path("hogar_es").read_text(encoding="utf-8"))
    p = {x["link"]: x for x in sc["catalog"]["products"]}
    p[1]["shipping"] = {"ships_in": {"min": 5, "max": 7, "unit": "days"}, "carrier": "SEUR", "free_shipping": True,
                        "fee": 0, "oversize": True, "oversize_fee": 19, "installation_fee": 0}
    p[1]["returns"] = {"return_days": 0, "exchange": True, "warranty": {"value": 2, "unit": "years"}}
    p[1]["specs"].update(apto_lavavajillas="sí", weight="1,1 kg")
    p[2]["shipping"] = {"ships_in": {"max": 48, "unit": "hours"}, "carrier": "MRW", "free_shipping": False, "fee": 4.5,
                        "cold_chain": True, "installation_fee": 25}
    p[2]["returns"] = {"return_days": 30, "exchange": False, "warranty": {"value": 1, "unit": "years"}}
    p[2]["specs"]["apto_lavavajillas"] = "no"
    sc["vocabulary"] = {
        "extends": "default",
        "attributes": {"apto_lavavajillas": {"type": "bool", "labels": {"es_ES": "apto para lavavajillas"},
                                             "words": {"es_ES": ["lavavajillas", "apto para lavavajillas"]}}},
        "campaign_questions": {"bundle": {"es_ES": ["¿hay pack de {L}?", "¿{L} entra en algún pack?"]},
                               "code": {"es_ES": ["¿hay código de descuento para {L}?", "¿código promocional de {L}?"]}},
    }
    sc["campaigns"] += [
        {"campaign_id": "CODE-CASA8", "type": "code", "title": "CASA8: 8 € menos desde 60 €", "start_s": 0,
         "end_s": 900, "products": [], "code": "CASA8", "amount": 8, "threshold": 60},
        {"campaign_id": "PACK-TEXTIL", "type": "bundle", "start_s": 0, "end_s": 900, "products": ["S003", "S005"],
         "title": "Pack textil: sábanas y toallas con un 10% de descuento en el conjunto", "bundle_qty": 2,
         "bundle_discount_pct": 10},
    ]
    sc["stacking"] = [["code", "bundle"], ["coupon", "flash_sale"]]
    out = tmp_path / "hogar_es_abierto.yaml"
    out.write_text(yaml.safe_dump(sc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return out


def _sweep(room: RoomState) -> list[Intent]:
    """Every product question on every link (each spec, each kind of deal, a compare with the next link), the
    room's deals without a link, an order and the social kinds: what a suite asks, intent by intent."""
    links = sorted(p.link for p in room.products)
    out: list[Intent] = []
    for p in room.products:
        out += [Intent(k, link=p.link) for k in ("price", "stock", "shipping", "after_sales", "purchase")]
        out += [Intent("spec", link=p.link, attr=a) for a in p.specs]
        out += [Intent("campaign", link=p.link, attr=a) for a in (None, "bundle", "code", "gift")]
        out.append(Intent("compare", link=p.link, link2=links[(links.index(p.link) + 1) % len(links)]))
    out += [Intent("campaign", attr=a) for a in ("bundle", "code", "gift")]
    return out + [Intent("order_status", order_id="ES1001"), Intent("chitchat"), Intent("troll")]


def _words(table: dict[str, Any]) -> set[str]:
    """The Latin words of a sentence table's texts, placeholders left out."""
    out: set[str] = set()
    for v in table.values():
        for t in ([v] if isinstance(v, str) else v):
            out |= set(re.findall(r"[a-z]+", re.sub(r"\{\w+\}", " ", t).lower()))
    return out


def test_the_reference_answers_the_open_catalog_in_spanish(tmp_path: Path) -> None:
    path = _open_catalog_room(tmp_path)
    room = RoomState(load_scenario(path), stream(1, "catalog"))
    # English: every word of the en_US sentences that no es_ES sentence uses ("ships", "within", "returns", "off")
    english = _words(get_locale("en_US").reply.sentences.root) - _words(get_locale("es_ES").reply.sentences.root)
    assert {"ships", "within", "returns", "bundle", "installation", "warranty"} <= english
    agent = make_agent("reference")
    replies: list[tuple[dict[str, Any], str]] = []
    for i, it in enumerate(_sweep(room)):
        for t in (100.0, 600.0):  # the flash sale runs until 450 s
            text = render_comment((it,), "es_ES", random.Random(f"es-sweep:{i}:{t}"), room)
            case = {"id": f"es/{i}", "suite": "es-sweep", "category": it.kind, "scenario": str(path),
                    "locale": "es_ES", "seed": 1, "t": t,
                    "comments": [{"viewer": "v1", "persona": "sweep", "text": text, "intents": [it.to_dict()]}]}
            rec = run_case(case, agent)
            assert not rec["fallback"], (it, rec)
            replies.append((it.to_dict(), rec["reply"]))
    bad = [(it, r) for it, r in replies if english & set(re.findall(r"[a-z]+", r.lower()))]
    assert not bad, bad
    said = {(it["kind"], it.get("link")): r for it, r in replies}
    # the open catalog's facts are said (in Spanish, by the checks above)
    assert "5-7" in said[("shipping", 1)] and "19 €" in said[("shipping", 1)]
    assert "48" in said[("shipping", 2)] and "25 €" in said[("shipping", 2)]
    assert "CASA8" in said[("campaign", None)] or any("CASA8" in r for it, r in replies if it.get("attr") == "code")
    assert any("1,1 kg" in r for it, r in replies if it.get("attr") == "weight" and it.get("link") == 1)


def test_a_locale_file_without_an_open_catalog_text_is_refused_naming_the_key(tmp_path: Path) -> None:
    text = (locales_dir() / "es_ES.yaml").read_text(encoding="utf-8")
    line = next(ln for ln in text.splitlines(keepends=True) if ln.startswith("    ship_window: "))
    p = tmp_path / "es_ES.yaml"
    p.write_text(text.replace(line, ""), encoding="utf-8")
    with pytest.raises(FileError) as err:
        load_locale_file(p)
    assert any(f == "reply.sentences" and "ship_window" in r for f, _ln, r in err.value.problems), err.value.problems


@pytest.mark.parametrize("value", ["1,1 kg", "0,75 kg"])
def test_a_decimal_comma_in_a_catalog_number_reads_where_the_locale_writes_one(tmp_path: Path, value: str) -> None:
    sc = yaml.safe_load(resolve_scenario_path("hogar_es").read_text(encoding="utf-8"))
    sc["catalog"]["products"][0]["specs"]["weight"] = value
    es = tmp_path / "es.yaml"
    es.write_text(yaml.safe_dump(sc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    vocab = load_scenario(es).vocab  # es_ES writes a decimal comma: the value loads
    attr = vocab.attribute("weight")
    assert attr is not None and attr.type == "number"
    point = value.replace(",", ".")
    assert vocab.matches(attr, value, f"pesa {point} kg") and not vocab.matches(attr, value, "pesa 11 kg")
    sc["locale"] = "en_US"
    en = tmp_path / "en.yaml"
    en.write_text(yaml.safe_dump(sc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    with pytest.raises(FileError) as err:  # en_US writes a decimal point: a clear error, with the fix
        load_scenario(en)
    field, line, reason = err.value.problems[0]
    assert field == "catalog.products.0.specs.weight" and line is not None
    assert "decimal comma" in reason and repr(point) in reason, reason
