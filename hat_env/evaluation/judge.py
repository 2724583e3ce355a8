"""An optional LLM judge for live replies: any agent adapter judges with the HAT rubric, up to three vote.

The paper's judge is itself an agent, three models voting, calibrated to about 90% agreement with people on
accuracy (../shared/domain.md). Here a judge is anything :func:`hat_env.agents.base.call_agent` accepts (an
``act`` agent, an async ``aact`` agent, a plain callable); it gets a system message with the rubric and a user
message with the viewer comments, the room facts the tools returned and the reply, and must answer with the JSON
object ``{"accuracy": 0|1, "effectiveness": 0|0.5|1, "reason": "..."}``.

Parsing is forgiving about wrapping (``<think>`` blocks, code fences, prose around the object, ``true``/``"pass"``)
and strict about values: an output without a valid verdict, an error or an exception is an *abstention*, counted
and left out of the vote. Votes: majority for accuracy (a tie fails, conservatively), the lower median for
effectiveness. A record whose every judge abstains gets an abstaining verdict. Calls are synchronous, one judge
after another.
"""

from __future__ import annotations

import json
import re
import statistics
from dataclasses import dataclass, field
from typing import Any, Iterable

from hat_env.agents.base import call_agent
from hat_env.types import AgentRequest

#: The rubric (system message of every judge request).
RUBRIC = """You are the judge of an AI live-commerce host. You grade ONE host reply to the viewer comments of a \
live-stream room, using only the room facts given (the results of the host's tools).

Score two things:

1. Accuracy (pass/fail): 1 if every factual statement in the reply is supported by the room facts; 0 if the reply \
has any factual error (a wrong price, stock, spec, coupon, shipping or return term, order status), any product \
claim the facts do not support (a number, an effect or a benefit not in the facts, medical or absolute claims), or \
any false promise (guarantees, invented deadlines or scarcity, actions the host did not take). A reply that makes \
no factual claim (a greeting, a polite refusal) passes.
2. Effectiveness (0, 0.5 or 1): 1 if the reply meets every viewer's intent with useful information (answers each \
question asked, or takes the requested action, or says honestly that the information is unavailable); 0.5 if it \
meets only part of what was asked; 0 if it meets none of it. Declining a prompt-injection or an insult politely \
meets that comment's intent.

Reply with ONLY a JSON object, no other text:
{"accuracy": 0 or 1, "effectiveness": 0 or 0.5 or 1, "reason": "one short sentence"}"""

_THINK_RE = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)
_FENCE_RE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL | re.IGNORECASE)
_ACC = {"1": 1, "0": 0, "pass": 1, "fail": 0, "true": 1, "false": 0, "yes": 1, "no": 0, "1.0": 1, "0.0": 0}
_EFF = {0.0, 0.5, 1.0}


@dataclass(slots=True)
class Vote:
    """One judge's parsed answer (``accuracy`` is None when it abstained)."""

    judge: str
    accuracy: int | None = None
    effectiveness: float | None = None
    reason: str = ""
    error: str | None = None

    @property
    def abstained(self) -> bool:
        """No usable verdict from this judge."""
        return self.accuracy is None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"judge": self.judge, "accuracy": self.accuracy, "effectiveness": self.effectiveness,
                "reason": self.reason, "error": self.error}


@dataclass(slots=True)
class Verdict:
    """The judges' combined verdict on one reply.

    Attributes:
        accuracy: majority vote (0/1), ``None`` when every judge abstained.
        effectiveness: lower median vote (0/0.5/1), ``None`` when every judge abstained.
        votes: each judge's vote, in judge order.
    """

    accuracy: int | None
    effectiveness: float | None
    votes: list[Vote] = field(default_factory=list)

    @property
    def abstained(self) -> bool:
        """Every judge abstained."""
        return self.accuracy is None

    @property
    def abstentions(self) -> int:
        """Judges that abstained on this reply."""
        return sum(1 for v in self.votes if v.abstained)

    @property
    def reason(self) -> str:
        """The reason of the first judge that agrees with the verdict."""
        for v in self.votes:
            if not v.abstained and v.accuracy == self.accuracy:
                return v.reason
        return ""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"accuracy": self.accuracy, "effectiveness": self.effectiveness, "abstained": self.abstained,
                "abstentions": self.abstentions, "reason": self.reason, "votes": [v.to_dict() for v in self.votes]}


# --- request ----------------------------------------------------------------------------------------------


def _comment_texts(comments: Iterable[Any]) -> list[str]:
    out = []
    for c in comments or []:
        if isinstance(c, str):
            out.append(c)
        elif isinstance(c, dict):
            name = c.get("viewer") or c.get("viewer_name")
            out.append(f"[{name}] {c.get('text', '')}" if name else str(c.get("text", "")))
        else:  # a Comment
            out.append(f"[{getattr(c, 'viewer_name', '')}] {getattr(c, 'text', '')}")
    return out


def facts_of(record: dict[str, Any]) -> dict[str, Any]:
    """The room facts of a record: its ``facts`` dict, else the results of its successful tool calls
    (``calls`` entries with a ``result``) keyed ``"op(args)"``."""
    if isinstance(record.get("facts"), dict):
        return record["facts"]
    facts: dict[str, Any] = {}
    for c in record.get("calls") or []:
        if not isinstance(c, dict):  # an ExecutedCall
            c = {k: getattr(c, k, None) for k in ("name", "op", "args", "result")}
        if c.get("result") is not None and c.get("op") not in (None, "load_skill"):
            args = ", ".join(f"{k}={v}" for k, v in sorted((c.get("args") or {}).items()))
            facts[f"{c.get('op') or c.get('name')}({args})"] = c["result"]
    return facts


def judge_request(comments: Iterable[Any], facts: dict[str, Any], reply: str, locale: str = "zh_CN") -> AgentRequest:
    """The request a judge gets: the rubric, then the comments, the facts (JSON) and the reply."""
    lines = ["Viewer comments:"] + [f"- {t}" for t in _comment_texts(comments)]
    lines += ["", "Room facts (tool results):", json.dumps(facts, ensure_ascii=False, sort_keys=True, default=str)]
    lines += ["", "Host reply:", reply or "", ""]
    lines.append('Answer with the JSON object {"accuracy", "effectiveness", "reason"}.')
    return AgentRequest(
        messages=[{"role": "system", "content": RUBRIC}, {"role": "user", "content": "\n".join(lines)}],
        tools=[],
        harness=None,
        locale=locale,
        request_id="judge",
    )


# --- parsing ----------------------------------------------------------------------------------------------


def _objects(text: str) -> list[dict[str, Any]]:
    """JSON objects in ``text``: fenced blocks first, then every decodable ``{...}`` from left to right."""
    out: list[dict[str, Any]] = []
    dec = json.JSONDecoder()
    sources = [m.group(1) for m in _FENCE_RE.finditer(text)] + [text]
    for src in sources:
        i = src.find("{")
        while i >= 0:
            try:
                obj, end = dec.raw_decode(src, i)
            except json.JSONDecodeError:
                i = src.find("{", i + 1)
                continue
            if isinstance(obj, dict):
                out.append(obj)
            i = src.find("{", end)
    return out


def _accuracy(v: Any) -> int | None:
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, (int, float)) and v in (0, 1):
        return int(v)
    if isinstance(v, str):
        return _ACC.get(v.strip().lower())
    return None


def _effectiveness(v: Any) -> float | None:
    if isinstance(v, bool):
        return None
    if isinstance(v, str):
        try:
            v = float(v.strip())
        except ValueError:
            return None
    if isinstance(v, (int, float)) and float(v) in _EFF:
        return float(v)
    return None


def parse_verdict(text: str) -> dict[str, Any] | None:
    """``{"accuracy": 0|1, "effectiveness": 0.0|0.5|1.0, "reason": str}`` from a judge's output, or ``None``
    when no object in it carries both values in range (the judge abstains)."""
    if not isinstance(text, str) or not text.strip():
        return None
    text = _THINK_RE.sub("", text)
    for obj in _objects(text):
        low = {str(k).strip().lower(): v for k, v in obj.items()}
        acc = _accuracy(low.get("accuracy"))
        eff = _effectiveness(low.get("effectiveness"))
        if acc is not None and eff is not None:
            return {"accuracy": acc, "effectiveness": eff, "reason": str(low.get("reason", "") or "")}
    return None


# --- voting -----------------------------------------------------------------------------------------------


def _name(judge: Any, i: int) -> str:
    return str(getattr(judge, "name", None) or f"judge{i}")


def ask(judge: Any, request: AgentRequest, name: str = "judge") -> Vote:
    """One judge's vote on one request; errors, exceptions and unparseable output abstain."""
    try:
        resp = call_agent(judge, request)
    except Exception as exc:  # a broken judge abstains; it never stops the run
        return Vote(name, error=f"{type(exc).__name__}: {exc}")
    if resp.error:
        return Vote(name, error=resp.error)
    parsed = parse_verdict(resp.text)
    if parsed is None:
        return Vote(name, error="unparseable output: " + (resp.text or "")[:200])
    return Vote(name, parsed["accuracy"], parsed["effectiveness"], parsed["reason"])


def combine(votes: list[Vote]) -> Verdict:
    """Majority accuracy (a tie fails) and lower-median effectiveness over the votes that did not abstain."""
    ok = [v for v in votes if not v.abstained]
    if not ok:
        return Verdict(None, None, list(votes))
    passes = sum(v.accuracy for v in ok)  # type: ignore[misc]
    acc = 1 if passes * 2 > len(ok) else 0
    eff = statistics.median_low([v.effectiveness for v in ok])  # type: ignore[type-var]
    return Verdict(acc, float(eff), list(votes))


def _check_judges(judges: Any) -> list[Any]:
    js = list(judges) if isinstance(judges, (list, tuple)) else [judges]
    if not 1 <= len(js) <= 3:
        raise ValueError(f"give one to three judges, got {len(js)}")
    return js


def judge_one(record: dict[str, Any], judges: Any) -> Verdict:
    """The verdict of ``judges`` (one to three) on one record (see :func:`judge_results`)."""
    js = _check_judges(judges)
    req = judge_request(record.get("comments", []), facts_of(record), str(record.get("reply", "")),
                        str(record.get("locale", "zh_CN")))
    return combine([ask(j, req, _name(j, i)) for i, j in enumerate(js)])


def judge_results(records: Iterable[dict[str, Any]], judges: Any) -> list[Verdict]:
    """Judge every record.

    Args:
        records: dicts with ``reply``, ``comments`` (texts, or trace comment dicts with ``text``/``viewer``),
            ``facts`` (the tool results, a dict; without it, ``calls`` entries holding a ``result`` are used)
            and optionally ``locale``.
        judges: one judge or a list of one to three (anything :func:`~hat_env.agents.base.call_agent` accepts).

    Returns:
        One :class:`Verdict` per record, in order.
    """
    js = _check_judges(judges)
    return [judge_one(r, js) for r in records]


def _programmatic(p: Any) -> tuple[float, float]:
    if isinstance(p, dict):
        if "scores" in p and isinstance(p["scores"], dict):
            p = p["scores"]
        if "components" in p and isinstance(p["components"], dict):
            p = p["components"]
        return float(p["accuracy"]), float(p["effectiveness"])
    return float(getattr(p, "accuracy")), float(getattr(p, "effectiveness"))


def agreement(verdicts: list[Verdict], programmatic: list[Any]) -> dict[str, Any]:
    """How often the judges agree with the programmatic scorer.

    Args:
        verdicts: from :func:`judge_results`.
        programmatic: per record, ``{"accuracy", "effectiveness"}`` (or a scores dict with ``components``, or a
            trace record with ``scores``), in the same order.

    Returns:
        ``{"accuracy_agreement", "effectiveness_agreement", "abstained", "n"}``: agreement shares over the ``n``
        records with a verdict (accuracy: the programmatic 0/1 equals the vote; effectiveness: equal values),
        ``abstained`` records every judge abstained on (left out of ``n``); plus ``judge_abstentions`` (single
        judges' abstentions) and ``effectiveness_mae``. Shares are 0.0 when ``n`` is 0.
    """
    if len(verdicts) != len(programmatic):
        raise ValueError(f"{len(verdicts)} verdicts but {len(programmatic)} programmatic scores")
    n = acc = eff = 0
    err = 0.0
    for v, p in zip(verdicts, programmatic):
        if v.abstained:
            continue
        pa, pe = _programmatic(p)
        n += 1
        acc += int(v.accuracy == (1 if pa >= 1.0 else 0))
        eff += int(abs((v.effectiveness or 0.0) - pe) < 1e-9)
        err += abs((v.effectiveness or 0.0) - pe)
    return {
        "accuracy_agreement": acc / n if n else 0.0,
        "effectiveness_agreement": eff / n if n else 0.0,
        "abstained": sum(1 for v in verdicts if v.abstained),
        "n": n,
        "judge_abstentions": sum(v.abstentions for v in verdicts),
        "effectiveness_mae": err / n if n else 0.0,
    }


def run_judges(records: list[dict[str, Any]], cases: list[dict[str, Any]], judges: Any) -> dict[str, Any]:
    """Judge bench result records against their cases and report agreement with the programmatic scores.

    Args:
        records: result records (``case_id``, ``reply``, ``components`` or ``scores``, ``locale``; ``facts`` or
            ``calls`` with results when the runner kept them).
        cases: the suite cases (``id``, ``comments``, ``locale``, ``gold``), looked up by ``case_id``.
        judges: one to three judges.

    Returns:
        :func:`agreement`'s dict plus ``judges`` (their names) and ``verdicts`` (``{"case_id", "trial",
        **Verdict.to_dict()}`` per record). Without tool results in a record, the judge sees the case's gold
        fact labels only, which makes its accuracy votes weak: keep ``facts`` in the records for a real check.
    """
    js = _check_judges(judges)
    by_id = {c["id"]: c for c in cases}
    items = []
    for r in records:
        case = by_id.get(r.get("case_id"), {})
        facts = facts_of(r)
        if not facts and case.get("gold"):
            facts = {"required_facts": case["gold"].get("facts", [])}
        items.append({"comments": case.get("comments", r.get("comments", [])), "facts": facts,
                      "reply": r.get("reply", ""), "locale": r.get("locale", case.get("locale", "zh_CN"))})
    verdicts = judge_results(items, js)
    out = agreement(verdicts, records)
    out["judges"] = [_name(j, i) for i, j in enumerate(js)]
    out["verdicts"] = [{"case_id": r.get("case_id"), "trial": r.get("trial", 0), **v.to_dict()}
                       for r, v in zip(records, verdicts)]
    return out


__all__ = [
    "RUBRIC",
    "Verdict",
    "Vote",
    "agreement",
    "ask",
    "combine",
    "facts_of",
    "judge_one",
    "judge_request",
    "judge_results",
    "parse_verdict",
    "run_judges",
]
