"""The reference agent follows the constraints of the harness it is given (issue 14 item 4): forbidden words,
the length limit (answering in the declared order, which the scorer mirrors), the disclosure; it never says a
sentence twice, checks stock before quoting or selling, answers what a shipping question asks, reads a coupon's
own threshold, and picks skills from what the model can read, not from their hidden metadata."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hat_env.agents import make_agent
from hat_env.agents.reply import ReplyPart, compose_reply
from hat_env.envs.room import load_harness
from hat_env.envs.session import LiveSession
from hat_env.harness.core import Harness
from hat_env.runner import run_session
from hat_env.scoring.limits import answer_order, capacity, held_intents
from hat_env.sim.scenario import load_scenario
from hat_env.types import Intent


def _records(path: Path) -> list[dict[str, Any]]:
    return [r for r in map(json.loads, path.read_text(encoding="utf-8").splitlines()) if r["type"] == "request"]


def _run(tmp_path: Path, scenario: str, harness: Harness | None = None, **kw: Any) -> tuple[dict[str, Any],
                                                                                              list[dict[str, Any]]]:
    trace = tmp_path / f"{scenario}.jsonl"
    summary = run_session(LiveSession(scenario, harness=harness, trace=trace, **kw), make_agent("reference"))
    return summary, _records(trace)


def _patched(scenario: str, *ops: dict[str, Any]) -> Harness:
    return load_harness(None, load_scenario(scenario)).apply(list(ops))


@pytest.mark.parametrize("scenario,words", [
    ("healthfood_zh", ["到手", "链接"]),
    ("electronics_en", ["now", "coupon", "Link"]),
])
def test_forbidden_words_are_never_said_and_never_retried(tmp_path: Path, scenario: str, words: list[str]) -> None:
    h = _patched(scenario, {"op": "set", "path": "constraints.forbidden_words", "value": words})
    summary, recs = _run(tmp_path, scenario, h, duration_s=300)
    assert summary["fallbacks"] == 0
    assert summary["components"]["constraints"] == 1.0
    for r in recs:
        assert not any(w.casefold() in r["reply"].casefold() for w in words), r["reply"]
        assert r["retries"] == 0, r["hook_events"]
    assert summary["score"] >= 90, summary


def test_a_part_whose_every_wording_is_banned_is_not_said() -> None:
    parts = [ReplyPart(Intent("price", link=3), {"final_price": 89}), ReplyPart(Intent("stock", link=2), {"stock": 5})]
    reply = compose_reply(parts, "zh_CN", 100, banned=("到手",))
    assert "到手" not in reply and "库存5" in reply


def test_no_sentence_is_said_twice() -> None:
    parts = [ReplyPart(Intent("after_sales", link=1), {"return_days": 30}),
             ReplyPart(Intent("after_sales", link=2), {"return_days": 30}),
             ReplyPart(Intent("price", link=4), {"final_price": 129}),
             ReplyPart(Intent("price", link=5), {"final_price": 129})]
    for loc in ("en_US", "zh_CN"):
        for limit in (40, 60, 80, 150):
            reply = compose_reply(parts, loc, limit)
            sep = "。" if loc == "zh_CN" else ". "
            said = [s for s in reply.rstrip("。.").split(sep) if s]
            assert len(said) == len(set(said)), reply
            assert len(reply) <= limit


def test_the_limit_rule_orders_and_counts_answers() -> None:
    its = [Intent("chitchat"), Intent("injection", payload="x"), Intent("price", link=1), Intent("spec", link=2, attr="size"),
           Intent("stock", link=3), Intent("troll")]
    assert [i.kind for i in answer_order(its)] == ["price", "spec", "stock", "chitchat", "troll", "injection"]
    assert capacity(40, "en_US") == 2 and capacity(40, "zh_CN") == 3 and capacity(None, "en_US") is None
    assert capacity(40, "en_US", disclosure="(AI host)") == 1
    assert [i.kind for i in held_intents(its, 40, "en_US")] == ["price", "spec", "injection"]
    assert len(held_intents(its, 150, "zh_CN")) == len(its)


@pytest.mark.parametrize("scenario", ["healthfood_zh", "electronics_en"])
def test_under_a_40_character_limit_the_reference_answers_what_the_limit_holds(tmp_path: Path, scenario: str) -> None:
    h = _patched(scenario, {"op": "set", "path": "constraints.max_reply_chars", "value": 40})
    summary, recs = _run(tmp_path, scenario, h, duration_s=400)
    assert all(len(r["reply"]) <= 40 for r in recs)
    assert summary["fallbacks"] == 0 and summary["components"]["constraints"] == 1.0
    assert summary["score"] >= 95, summary


def test_a_sold_out_product_is_said_sold_out_and_not_pinned(tmp_path: Path) -> None:
    summary, recs = _run(tmp_path, "healthfood_zh", seed=0)
    out = {p.link: p.product_id for p in load_scenario("healthfood_zh").catalog.products if p.stock <= 0}
    assert out, "the room has a sold-out link"
    asked = [(r, i["link"]) for r in recs for c in r["comments"] for i in c["intents"]
             if i["kind"] in ("price", "purchase") and i.get("link") in out]
    assert asked, "the room's sold-out link is asked for"
    for r, link in asked:
        assert f"{link}号链接目前售罄" in r["reply"] or f"{link}号链接售罄" in r["reply"], r["reply"]
        assert not any(c["op"] == "pin_product" and c["args"].get("product_id") == out[link] for c in r["calls"])
        assert any(c["op"] == "stock" and c["args"].get("product_id") == out[link] for c in r["calls"])
    assert summary["score"] >= 95


def test_a_shipping_question_gets_what_it_asks_at_any_length() -> None:
    facts = {"ships_within_hours": 48, "carrier": "顺丰", "free_shipping": True, "fee": 0.0}
    free = ReplyPart(Intent("shipping", link=2), {**facts, "focus": "free"})
    carrier = ReplyPart(Intent("shipping", link=2), {**facts, "focus": "carrier"})
    for limit in (80, 20, 8):
        assert "包邮" in compose_reply([free], "zh_CN", limit)
        assert "顺丰" in compose_reply([carrier], "zh_CN", limit)
    en = {"ships_within_hours": 24, "carrier": "USPS", "free_shipping": False, "fee": 3.99}
    assert "$3.99" in compose_reply([ReplyPart(Intent("shipping", link=1), {**en, "focus": "free"})], "en_US", 20)
    assert "USPS" in compose_reply([ReplyPart(Intent("shipping", link=1), {**en, "focus": "carrier"})], "en_US", 20)


def test_a_product_coupon_keeps_its_own_threshold() -> None:
    part = ReplyPart(Intent("campaign", link=3), {
        "coupon_amount": 30, "coupon": {"coupon_id": "CPN-P3", "amount": 30, "threshold": 0},
        "campaigns": [{"type": "coupon", "amount": 30, "threshold": 199, "campaign_id": "CPN-STORE"},
                      {"type": "coupon", "amount": 30, "threshold": 0, "campaign_id": "CPN-P3"}]})
    reply = compose_reply([part], "zh_CN", 150)
    assert "30元券" in reply and "199" not in reply


def _swap_metadata(h: Harness) -> Harness:
    """The harness with the reply skills' hidden metadata (intents) rotated: what a model reads is unchanged."""
    reply = [s for s in h.spec.skills if s.kind == "reply"]
    intents = [s.metadata.get("intents", "") for s in reply]
    ops = [{"op": "update_skill", "skill": s.name, "set": {"metadata": {"kind": "reply", "intents": it}}}
           for s, it in zip(reply, intents[1:] + intents[:1])]
    return h.apply(ops)


def test_skills_are_chosen_from_what_the_model_reads(tmp_path: Path) -> None:
    base = Harness.load("default")
    _, a = _run(tmp_path, "electronics_en", base, duration_s=200)
    (tmp_path / "b").mkdir()
    _, b = _run(tmp_path / "b", "electronics_en", _swap_metadata(base), duration_s=200)
    assert [r["skills_loaded"] for r in a] == [r["skills_loaded"] for r in b]
    assert [r["reply"] for r in a] == [r["reply"] for r in b]
