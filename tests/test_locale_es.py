"""A locale added by data alone (issue 14 item 3): the built-in es_ES room (hogar_es) and a locale file brought
by a room from its own folder run whole sessions; a decimal comma reads as a number in the claims engine."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hat_env.agents import make_agent
from hat_env.envs.session import LiveSession
from hat_env.harness.core import Harness
from hat_env.locales import get_locale, locales_dir
from hat_env.runner import run_session
from hat_env.sim.scenario import resolve_scenario_path
from hat_env.text.normalize import normalize


def _requests(path: Path) -> list[dict[str, Any]]:
    return [r for r in map(json.loads, path.read_text(encoding="utf-8").splitlines()) if r["type"] == "request"]


def _room_in_own_locale(tmp_path: Path) -> Path:
    """hogar_es copied to ``tmp_path`` as a room in locale ``es_AR``, whose file (es_ES's, with its own header,
    greeting, fallback and disclosure) lies in ``tmp_path/locales``."""
    text = resolve_scenario_path("hogar_es").read_text(encoding="utf-8")
    sc = tmp_path / "room.yaml"
    sc.write_text(text.replace("locale: es_ES", "locale: es_AR"), encoding="utf-8")
    loc = (locales_dir() / "es_ES.yaml").read_text(encoding="utf-8")
    for old, new in [("locale: es_ES", "locale: es_AR\nfaker_locale: es_ES"),
                     ("  user_header: 'Comentarios de los espectadores:'", "  user_header: 'Comentarios del chat:'"),
                     ("  - Gracias por acompañarnos, pregúntame lo que quieras sobre los productos",
                      "  - Gracias por sumarte, che, preguntame lo que quieras de los productos"),
                     ("  - Gracias por acompañarnos\n", "  - Gracias por sumarte\n"),
                     ("  fallback: ¡Un momento, lo compruebo enseguida!", "  fallback: ¡Dame un segundito y lo chequeo!"),
                     ("  disclosure: (presentadora IA)", "  disclosure: (conductora IA)")]:
        assert old in loc, old
        loc = loc.replace(old, new)
    (tmp_path / "locales").mkdir()
    (tmp_path / "locales" / "es_AR.yaml").write_text(loc, encoding="utf-8")
    return sc


def test_a_room_brings_a_locale_from_its_folder_and_a_whole_session_runs_in_it(tmp_path: Path) -> None:
    sc = _room_in_own_locale(tmp_path)
    h = Harness.load("default").apply([
        {"op": "set", "path": "prompt.language", "value": "room"},
        {"op": "set", "path": "constraints.required_disclosure", "value": True},
        {"op": "set", "path": "constraints.max_reply_chars", "value": 170},
    ])
    trace = tmp_path / "t.jsonl"
    summary = run_session(LiveSession(sc, harness=h, trace=trace, duration_s=400), make_agent("reference"))
    recs = _requests(trace)
    assert get_locale("es_AR").host.disclosure == "(conductora IA)"
    user = next(m["content"] for m in recs[0]["messages"] if m["role"] == "user")
    assert user.startswith("Comentarios del chat:\n[")  # the prompt's fixed strings are the file's
    assert all(r["reply"].endswith("(conductora IA)") for r in recs)  # its disclosure, said in every reply
    assert any("Gracias por sumarte" in r["reply"] for r in recs)  # its phrasebook
    assert any("€" in r["reply"] and "," in r["reply"] for r in recs)  # its money format
    assert summary["components"]["constraints"] == 1.0
    assert summary["score"] >= 95, summary
    rnd = run_session(LiveSession(sc, harness=h, duration_s=400), make_agent("random", seed=1))
    assert rnd["score"] < 20, rnd


def test_a_decimal_comma_is_a_number_where_the_locale_writes_one() -> None:
    assert normalize("cuesta 29,90 € y pesa 3,5 kg, 1,000 uds", "es_ES").text == "cuesta 29.90 € y pesa 3.5 kg, 1,000 uds"
    assert normalize("29,90", "en_US").text == "29,90"
    assert get_locale("es_ES").formats.amount(29.9) == "29,90 €"


def test_the_spanish_room_replies_in_spanish_with_its_facts(tmp_path: Path) -> None:
    trace = tmp_path / "t.jsonl"
    summary = run_session(LiveSession("hogar_es", trace=trace, duration_s=300), make_agent("reference"))
    recs = _requests(trace)
    assert summary["score"] >= 95, summary
    sold = [r for r in recs if any(i.get("link") == 6 and i["kind"] in ("price", "purchase")
                                   for c in r["comments"] for i in c["intents"])]
    assert sold and all("agotado" in r["reply"].lower() for r in sold)
    assert not any(c["op"] == "pin_product" and c["args"].get("product_id") == "S006" for r in recs for c in r["calls"])
