"""The optional LLM judge: request layout, robust parsing, voting, abstentions and agreement.

The judges here are scripted (small classes returning fixed JSON, garbage, errors or exceptions): they test the
parsing, voting and agreement mechanics, not any model's judgement.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from hat_env.evaluation.judge import (
    RUBRIC,
    Verdict,
    Vote,
    agreement,
    combine,
    facts_of,
    judge_one,
    judge_request,
    judge_results,
    parse_verdict,
)
from hat_env.types import AgentRequest, AgentResponse, ExecutedCall


class FixedJudge:
    """Scripted judge: always answers the same text."""

    def __init__(self, text: str, name: str = "fixed"):
        self.text = text
        self.name = name
        self.requests: list[AgentRequest] = []

    def act(self, request: AgentRequest) -> AgentResponse:
        self.requests.append(request)
        return AgentResponse(text=self.text)


def verdict_json(acc: Any, eff: Any, reason: str = "ok") -> str:
    return json.dumps({"accuracy": acc, "effectiveness": eff, "reason": reason})


class SequenceJudge:
    """Scripted judge: answers its texts in turn, one per request."""

    name = "sequence"

    def __init__(self, texts: list[str]):
        self.texts = list(texts)

    def act(self, request: AgentRequest) -> AgentResponse:
        return AgentResponse(text=self.texts.pop(0))


class AsyncJudge:
    """Scripted async judge (``aact``)."""

    name = "async"

    async def aact(self, request: AgentRequest) -> AgentResponse:
        return AgentResponse(text=verdict_json(1, 1))


class RaisingJudge:
    """Scripted judge whose endpoint is down."""

    name = "raising"

    def act(self, request: AgentRequest) -> AgentResponse:
        raise ConnectionError("endpoint down")


class ErrorJudge:
    """Scripted judge returning an adapter error."""

    name = "error"

    def act(self, request: AgentRequest) -> AgentResponse:
        return AgentResponse(error="timeout after 30 s")


RECORD = {
    "comments": ["3号链接多少钱？", {"viewer": "小鹿", "text": "有优惠券吗"}],
    "facts": {"product_by_link(link=3)": {"title": "清透防晒霜", "final_price": 89, "coupon": {"amount": 30}}},
    "reply": "3号链接清透防晒霜，领30元券后到手89元。",
    "locale": "zh_CN",
}


def test_request_carries_rubric_comments_facts_and_reply() -> None:
    j = FixedJudge(verdict_json(1, 1))
    v = judge_one(RECORD, j)
    assert v.accuracy == 1 and v.effectiveness == 1.0 and not v.abstained
    req = j.requests[0]
    assert req.tools == [] and req.harness is None
    assert req.messages[0] == {"role": "system", "content": RUBRIC}
    for word in ("Accuracy", "Effectiveness", "factual error", "false promise", "0.5", '"accuracy"'):
        assert word in RUBRIC
    user = req.messages[1]["content"]
    assert "3号链接多少钱？" in user and "[小鹿] 有优惠券吗" in user
    assert '"final_price": 89' in user and RECORD["reply"] in user
    r2 = judge_request(["hi"], {}, "Hello!", "en_US")
    assert r2.locale == "en_US" and "Hello!" in r2.messages[1]["content"]


@pytest.mark.parametrize(
    "text, expected",
    [
        ('{"accuracy": 1, "effectiveness": 0.5, "reason": "partial"}', (1, 0.5, "partial")),
        ('<think>the price is right {"accuracy": 0}</think>\n{"accuracy": 0, "effectiveness": 1}', (0, 1.0, "")),
        ('Verdict:\n```json\n{"accuracy": true, "effectiveness": "0.5", "reason": "x"}\n```', (1, 0.5, "x")),
        ('Sure! {"Accuracy": "pass", "Effectiveness": 1.0} Hope that helps.', (1, 1.0, "")),
        ('{"note": "draft"} then {"accuracy": "fail", "effectiveness": 0, "reason": "wrong price"}',
         (0, 0.0, "wrong price")),
        ('{"accuracy": 1, "effectiveness": 0.7}', None),  # out of the 0 / 0.5 / 1 scale
        ('{"accuracy": 2, "effectiveness": 1}', None),
        ('{"accuracy": 1}', None),
        ('accuracy: 1, effectiveness: 1', None),
        ("I cannot judge this.", None),
        ("", None),
        ('{"accuracy": 1, "effectiveness": 1', None),  # truncated
    ],
)
def test_parse_verdict(text: str, expected: tuple | None) -> None:
    got = parse_verdict(text)
    if expected is None:
        assert got is None
    else:
        assert (got["accuracy"], got["effectiveness"], got["reason"]) == expected


def test_majority_for_accuracy_and_median_for_effectiveness() -> None:
    judges = [FixedJudge(verdict_json(1, 1), "a"), FixedJudge(verdict_json(1, 0.5), "b"),
              FixedJudge(verdict_json(0, 0), "c")]
    v = judge_one(RECORD, judges)
    assert (v.accuracy, v.effectiveness, v.abstentions) == (1, 0.5, 0)
    assert [x.judge for x in v.votes] == ["a", "b", "c"] and v.reason == "ok"
    v = judge_one(RECORD, [FixedJudge(verdict_json(0, 1)), FixedJudge(verdict_json(0, 1)),
                           FixedJudge(verdict_json(1, 0))])
    assert (v.accuracy, v.effectiveness) == (0, 1.0)


def test_garbage_abstains_and_ties_resolve_low() -> None:
    judges = [FixedJudge(verdict_json(1, 1)), FixedJudge("lol no json"), FixedJudge(verdict_json(0, 0.5))]
    v = judge_one(RECORD, judges)
    assert v.abstentions == 1 and not v.abstained
    assert v.accuracy == 0  # 1-1 tie fails, conservatively
    assert v.effectiveness == 0.5  # lower median of 1 and 0.5
    assert "unparseable" in (v.votes[1].error or "")


def test_every_kind_of_failure_abstains() -> None:
    v = judge_one(RECORD, [RaisingJudge(), ErrorJudge(), FixedJudge("{}")])
    assert v.abstained and v.accuracy is None and v.effectiveness is None and v.abstentions == 3
    assert "ConnectionError" in (v.votes[0].error or "") and "timeout" in (v.votes[1].error or "")
    d = v.to_dict()
    assert d["abstained"] and len(d["votes"]) == 3


def test_async_and_callable_judges() -> None:
    v = judge_one(RECORD, [AsyncJudge(), lambda request: verdict_json(1, 0.5)])
    assert (v.accuracy, v.effectiveness, v.abstentions) == (1, 0.5, 0)


def test_one_to_three_judges() -> None:
    with pytest.raises(ValueError):
        judge_results([RECORD], [])
    with pytest.raises(ValueError):
        judge_results([RECORD], [FixedJudge(verdict_json(1, 1))] * 4)
    assert judge_results([RECORD], FixedJudge(verdict_json(1, 1)))[0].accuracy == 1  # a single judge


def test_judge_results_and_agreement() -> None:
    records = [dict(RECORD, reply=f"reply {i}") for i in range(5)]
    judge = SequenceJudge([
        verdict_json(1, 1),
        verdict_json(0, 0.5),
        "garbage",
        verdict_json(1, 0.5),
        verdict_json(0, 0),
    ])
    verdicts = judge_results(records, [judge])
    assert [v.accuracy for v in verdicts] == [1, 0, None, 1, 0]
    programmatic = [
        {"accuracy": 1.0, "effectiveness": 1.0},  # agrees on both
        {"components": {"accuracy": 0.0, "effectiveness": 1.0}},  # accuracy agrees, effectiveness not
        {"accuracy": 1.0, "effectiveness": 1.0},  # judge abstained: left out
        {"scores": {"components": {"accuracy": 0.0, "effectiveness": 0.5}}},  # effectiveness agrees only
        {"accuracy": 0.0, "effectiveness": 0.0},  # agrees on both
    ]
    agr = agreement(verdicts, programmatic)
    assert agr["n"] == 4 and agr["abstained"] == 1 and agr["judge_abstentions"] == 1
    assert agr["accuracy_agreement"] == pytest.approx(3 / 4)
    assert agr["effectiveness_agreement"] == pytest.approx(3 / 4)
    assert agr["effectiveness_mae"] == pytest.approx(0.5 / 4)
    with pytest.raises(ValueError):
        agreement(verdicts, programmatic[:2])
    empty = agreement([Verdict(None, None, [Vote("x")])], [{"accuracy": 1, "effectiveness": 1}])
    assert empty == {"accuracy_agreement": 0.0, "effectiveness_agreement": 0.0, "abstained": 1, "n": 0,
                     "judge_abstentions": 1, "effectiveness_mae": 0.0}


def test_combine_directly() -> None:
    v = combine([Vote("a", 1, 1.0), Vote("b", 1, 0.0), Vote("c", 0, 0.5)])
    assert (v.accuracy, v.effectiveness) == (1, 0.5)
    assert combine([]).abstained


def test_facts_from_trace_calls() -> None:
    call = ExecutedCall("get_product", "product_by_link", {"link": 3}, True, ok=True, result={"final_price": 89})
    skill = ExecutedCall("load_skill", "load_skill", {"name": "item-qa"}, True, ok=True)
    failed = {"name": "get_stock", "op": "stock", "args": {"product_id": "P3"}, "result": None}
    facts = facts_of({"calls": [call, skill, failed]})
    assert facts == {"product_by_link(link=3)": {"final_price": 89}}
    assert facts_of({"facts": {"x": 1}, "calls": [call]}) == {"x": 1}


def test_run_judges_joins_records_with_cases() -> None:
    from hat_env.evaluation.judge import run_judges

    cases = [{"id": "s/0", "locale": "en_US", "comments": [{"viewer": "v1", "text": "price of link 3?"}],
              "gold": {"facts": ["price of E003"]}}]
    records = [{"case_id": "s/0", "trial": 0, "reply": "Link 3 is $99.",
                "components": {"accuracy": 1.0, "effectiveness": 1.0}},
               {"case_id": "s/0", "trial": 1, "reply": "Link 3 is $9.",
                "components": {"accuracy": 0.0, "effectiveness": 0.5}, "facts": {"price": 99}}]
    j = FixedJudge(verdict_json(1, 1), "scripted")
    out = run_judges(records, cases, [j])
    assert out["n"] == 2 and out["accuracy_agreement"] == 0.5 and out["judges"] == ["scripted"]
    assert [v["case_id"] for v in out["verdicts"]] == ["s/0", "s/0"]
    first, second = (r.messages[1]["content"] for r in j.requests)
    assert "[v1] price of link 3?" in first and "price of E003" in first
    assert '{"price": 99}' in second
