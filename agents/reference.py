"""The reference agent: a scripted host that reads the current harness from the request it is given.

It parses the viewers' comments, plans the tool calls each intent needs, finds the tools bound to those
operations in *this* harness (names, argument paths and encodings, result field names), loads the reply skill
this harness assigns to the request's main intent, and composes a reply within this harness's constraints.
Nothing about the harness is a constant here, so it keeps working under any Harness-State Augmentation: it is
the upper reference of every score, and the default teacher for training data.

Its parts: the comment parser (:mod:`hat_env.sim.parser`, shared with the viewer simulator), the reply composer
(:mod:`hat_env.agents.reply`) and how it follows the harness's verifiable instructions
(:mod:`hat_env.agents.instructions`).
"""

from __future__ import annotations

import re

import json
import re
from functools import lru_cache
from dataclasses import dataclass, field
from typing import Any

from hat_env.agents.instructions import fit_reply
from hat_env.agents.reading import (
    PromptProduct, choose_skill, pick_region, pick_variants, prompt_products, prompt_skills, read_feedback,
    shipping_focus, tool_enum,
)
from hat_env.agents.reply import ReplyPart, compose_reply
from hat_env.harness.parse import format_hermes
from hat_env.harness.render import USER_HEADER, prompt_strings
from hat_env.ifeval import make_context
from hat_env.scoring.gold import reply_skill_for
from hat_env.sim.parser import parse_comment
from hat_env.types import NO_TOOL_INTENTS, AgentRequest, AgentResponse, Intent, Timings
from hat_env.understanding.catalog import Catalog, catalog_from_prompt, catalog_from_titles

#: Instructions whose rewrite copies viewer text into the reply (dropped on a retry after a hook blocked it).
_VIEWER_TEXT = frozenset({"combination:repeat_prompt", "detectable_content:mention_viewer"})
#: Operations that need a product id from a product lookup, per intent.
_DEPENDENT = {"stock": "stock", "campaign": "campaigns", "shipping": "shipping_policy", "after_sales": "after_sales_policy"}


@lru_cache(maxsize=32)
def _prompt_catalog(system: str, product_line: str) -> Catalog | None:
    listed = prompt_products(system, product_line)
    if listed:
        return catalog_from_titles({p.link: p.title for p in listed})
    return catalog_from_prompt(system)


#: a harness denial naming a sold-out product the reply urged to buy ("... link 3 (Title), which is sold out")
_SOLD_OUT_FEEDBACK = re.compile(r"link (\d{1,3})\b[^.\n]{0,200}?which is sold out")


def catalog_of_messages(messages: list[dict[str, Any]], product_line: str | None = None) -> Catalog | None:
    """The products the model can read in the system prompt (their link numbers and titles), for resolving
    product names in comments; ``None`` when the prompt lists none.

    Args:
        messages: the request's messages (the system prompt is read).
        product_line: the harness's product-line template (:func:`hat_env.harness.render.prompt_strings`), so a
            prompt in any wording is read; ``None``: the default wording.
    """
    for m in messages:
        if m.get("role") == "system":
            return _prompt_catalog(str(m.get("content", "")), product_line or "")
    return None


def comments_of(messages: list[dict[str, Any]], header: str = USER_HEADER) -> tuple[int, list[str]]:
    """Index of the current request's user message (the last one starting with ``header``, the harness's
    ``user_header``) and its comment texts (``[name] text`` lines)."""
    idx, pairs = _comment_lines(messages, header)
    return idx, [t for _, t in pairs]


def viewers_of(messages: list[dict[str, Any]], header: str = USER_HEADER) -> list[str]:
    """Names of the viewers who wrote the current request's comments, in order, without repeats."""
    out: list[str] = []
    for name, _ in _comment_lines(messages, header)[1]:
        if name not in out:
            out.append(name)
    return out


def _comment_lines(messages: list[dict[str, Any]], header: str) -> tuple[int, list[tuple[str, str]]]:
    for idx in range(len(messages) - 1, -1, -1):
        m = messages[idx]
        if m["role"] == "user" and str(m.get("content", "")).startswith(header):
            pairs = []
            for line in str(m["content"]).splitlines()[1:]:
                if line.startswith("[") and "] " in line:
                    name, text = line.split("] ", 1)
                    pairs.append((name[1:], text))
            return idx, pairs
    return -1, []


@dataclass
class _State:
    """What has happened in this request so far, in canonical terms."""

    results: dict[tuple, dict[str, Any]] = field(default_factory=dict)
    attempts: dict[tuple, int] = field(default_factory=dict)
    faulted: dict[tuple, bool] = field(default_factory=dict)
    failed: set[tuple] = field(default_factory=set)
    skills: list[str] = field(default_factory=list)
    replies: list[str] = field(default_factory=list)
    #: hook feedback read against the harness's templates: ``(kind, fields)`` (``kind`` ``None``: unknown)
    feedback: list[tuple[str | None, dict[str, str]]] = field(default_factory=list)
    #: the hook feedback texts as written
    feedback_text: list[str] = field(default_factory=list)
    #: the last "load a reply skill" feedback when no skill was loaded after it
    skill_asked: str | None = None


def _key(op: str, args: dict[str, Any]) -> tuple:
    return (op, tuple(sorted((k, str(v)) for k, v in args.items())))


class ReferenceAgent:
    """Scripted harness-reading host.

    Args:
        seed: unused (the policy is deterministic); accepted for a uniform agent interface.
        turn_s: modelled time of one turn, reported as its timings. It is flat on purpose: the same plan under
            any harness variant takes the same time, so scores stay comparable across variants.
    """

    name = "reference"

    def __init__(self, seed: int = 0, turn_s: float = 0.5):
        self.turn_s = turn_s

    # -- reading the conversation --------------------------------------------------------------------------
    def _state(self, req: AgentRequest, start: int) -> _State:
        h = req.harness
        st = _State()
        pending: dict[str, tuple[str, Any]] = {}
        for m in req.messages[start + 1 :]:
            role = m["role"]
            if role == "assistant":
                for tc in m.get("tool_calls") or []:
                    fn = tc["function"]
                    try:
                        args = json.loads(fn["arguments"] or "{}")
                    except json.JSONDecodeError:
                        args = {}
                    pending[tc["id"]] = (fn["name"], args)
                if not m.get("tool_calls"):
                    st.replies.append(str(m.get("content") or ""))
            elif role == "tool":
                name, args = pending.get(m.get("tool_call_id", ""), (m.get("name", ""), {}))
                content = str(m.get("content", ""))
                if name == h.spec.skill_tool.name:
                    if not content.startswith("{"):
                        st.skills.append(str(args.get(h.spec.skill_tool.param)))
                        st.skill_asked = None
                    continue
                tool = h.tools_by_name.get(name)
                if tool is None or tool.op is None:
                    continue
                try:
                    canon = h.decode_args(tool, args)
                except ValueError:
                    continue
                k = _key(tool.op, canon)
                st.attempts[k] = st.attempts.get(k, 0) + 1
                body = content.split("\n", 1)[0]
                try:
                    data = json.loads(body)
                except json.JSONDecodeError:
                    st.faulted[k] = True  # malformed output
                    continue
                if isinstance(data, dict) and "error" in data:
                    err = str(data["error"])
                    if err.startswith(("timeout", "permission denied")):
                        st.faulted[k] = True
                    else:
                        st.failed.add(k)
                    continue
                st.faulted[k] = False
                st.results[k] = h.decode_result(tool, data)
            elif role == "user" and str(m.get("content", "")).startswith("[harness]"):
                text = str(m["content"])[len("[harness]"):].strip()
                st.feedback.append(read_feedback(text, h))
                st.feedback_text.append(text)
                if st.feedback[-1][0] == "missing_skill":
                    st.skill_asked = text
        return st

    # -- planning ------------------------------------------------------------------------------------------
    def act(self, request: AgentRequest) -> AgentResponse:
        """One turn: the next tool calls, or the reply when everything needed is known."""
        h = request.harness
        if h is None:
            raise ValueError("the reference agent reads the harness: pass AgentRequest.harness")
        P = prompt_strings(h, request.locale)
        start, texts = comments_of(request.messages, P.user_header)
        system = next((str(m.get("content", "")) for m in request.messages if m["role"] == "system"), "")
        catalog = catalog_of_messages(request.messages, P.product_line)
        intents: list[Intent] = []
        asked: dict[Intent, str] = {}  # the comment each intent came from (what a shipping question asks)
        for t in texts:
            for i in parse_comment(t, request.locale, catalog=catalog, vocabulary=request.vocabulary):
                if i not in intents:
                    intents.append(i)
                    asked[i] = t
        st = self._state(request, start)
        sold = {int(n) for fb in st.feedback_text for n in _SOLD_OUT_FEEDBACK.findall(fb)}
        if sold:  # the harness said a product asked for is sold out: say so instead of selling it
            intents = list(dict.fromkeys(Intent("stock", link=i.link)
                                         if i.kind in ("purchase", "campaign") and i.link in sold else i
                                         for i in intents))
        calls: list[tuple[str, dict[str, Any]]] = []
        unavailable: set[tuple] = set()

        def need(op: str, args: dict[str, Any]) -> dict[str, Any] | None:
            """The result of ``op(args)`` if known; otherwise schedule the call (or mark it unavailable)."""
            k = _key(op, args)
            if k in st.results:
                return st.results[k]
            if k in st.failed or (st.faulted.get(k) and st.attempts.get(k, 0) >= 2):
                unavailable.add(k)
                return None
            if op in h.tool_for_op and (op, args) not in calls:
                calls.append((op, args))
            elif op not in h.tool_for_op:
                unavailable.add(k)
            return None

        listed = prompt_products(system, P.product_line)
        parts: list[ReplyPart] = []
        vocab = request.vocabulary
        for it in intents:
            part = self._plan_intent(it, need, unavailable, listed, vocab, request.locale)
            if it.kind == "shipping":
                part.facts["focus"] = shipping_focus(asked.get(it, ""))
                pick_region(part.facts, asked.get(it, ""))  # "新疆包邮吗": that region's terms
            elif it.kind in ("stock", "price", "purchase"):
                pick_variants(part.facts, asked.get(it, ""))  # "38码有货吗", "拍黑色38码": that variant's stock
            parts.append(part)
        c = h.spec.constraints
        skill = self._skill_to_load(request, st, intents, system, P.skill_line)
        if skill is not None:
            calls.append(("load_skill", {"name": skill}))
        if calls:
            text = "\n".join(self._format_call(h, op, args) for op, args in calls)
            return self._response(text)
        max_chars = c.max_reply_chars or 400
        disclosure = c.disclosure(request.locale)
        if disclosure:
            max_chars -= len(disclosure) + 1
        too_long = sum(1 for kind, _f in st.feedback if kind == "too_long")
        max_chars = int(max_chars * (0.75 ** too_long))
        banned = tuple(c.forbidden_words) + tuple(w for f in st.feedback for w in _words_of(f))
        if c.instructions:
            return self._response(self._instructed(request, parts, texts, max(20, max_chars), bool(st.feedback),
                                                   P.user_header, banned))
        reply = compose_reply(parts, request.locale, max(20, max_chars), banned)
        if disclosure:
            reply = f"{reply} {disclosure}"
        return self._response(reply)

    @staticmethod
    def _skill_to_load(request: AgentRequest, st: _State, intents: list[Intent], system: str,
                       skill_line: str) -> str | None:
        """The skill to load before replying, read as a model reads it: the skill names in the skill tool's
        schema, their descriptions in the prompt's skill lines, and the reply skills a hook's feedback names
        (``None`` when one is loaded and no hook asked for another, or no reply skill is required)."""
        h = request.harness
        if not h.spec.constraints.require_reply_skill:
            return None
        st_spec = h.spec.skill_tool
        names = tool_enum(request.tools, st_spec.name, st_spec.param)
        described = prompt_skills(system, skill_line)
        skills = {n: described.get(n, "") for n in names} or described
        if st.skills and st.skill_asked is None:
            return None
        only = None
        if st.skill_asked is not None:  # the hook says which skills are reply skills
            only = [n for n in skills if n in st.skill_asked] or None
        primary = reply_skill_for(intents) or "chitchat"
        if primary in NO_TOOL_INTENTS:  # answered like small talk: no tool, the social reply skill
            primary = "chitchat"
        return choose_skill(primary, skills, only=only, skip=set(st.skills), others=tuple(i.kind for i in intents))

    @staticmethod
    def _instructed(request: AgentRequest, parts: list[ReplyPart], texts: list[str], budget: int,
                    blocked: bool, header: str, banned: tuple[str, ...]) -> str:
        """The reply under the harness's verifiable instructions: the composed reply (with the disclosure) is
        rewritten by each instruction's ``satisfy`` (:func:`~hat_env.agents.instructions.fit_reply` shortens the
        composed part until the rewritten reply follows them all within ``max_reply_chars``).

        The composed reply passes the hooks on its own, so when a reply was ``blocked`` in this request the cause
        is viewer text that an instruction copied in (a repeated comment, a viewer's name, e.g. one holding a
        compliance term): the retry drops those instructions, since the hooks outrank the instructions."""
        c = request.harness.spec.constraints
        disclosure = c.disclosure(request.locale)
        instructions = list(c.instructions)
        if blocked:
            instructions = [i for i in instructions if i.get("type") not in _VIEWER_TEXT]

        def compose(b: int) -> str:
            reply = compose_reply(parts, request.locale, max(20, b), banned)
            return f"{reply} {disclosure}" if disclosure else reply

        limit = c.max_reply_chars
        ctx = make_context(texts, viewers_of(request.messages, header), keep=[disclosure] if disclosure else [])
        return fit_reply(compose, instructions, request.locale, ctx, max_chars=limit, budget=budget)

    def _plan_intent(self, it: Intent, need: Any, unavailable: set[tuple], listed: list[PromptProduct],
                     vocab: Any = None, locale: str = "") -> ReplyPart:
        """The facts one intent's answer needs, scheduling the calls still missing. A product is quoted or sold
        only after its stock is checked: a sold-out one is said to be sold out (with a product of its category
        from the prompt's list to look at instead), and is not pinned (``vocab``: the room's catalog vocabulary,
        for the spec label the host says in ``locale``)."""
        kind = it.kind
        if kind in ("chitchat", "troll", "injection") or kind in NO_TOOL_INTENTS:
            return ReplyPart(it, {})
        if kind == "campaign" and it.link is None and it.attr:
            # "does the code work with the bundle?": about the room's deals of that kind
            r = need("campaigns", {})
            return ReplyPart(it, {"campaigns": r["campaigns"]} if r else ({"unavailable": True} if unavailable else {}))
        if kind == "order_status":
            r = need("order_status", {"order_id": it.order_id})
            return ReplyPart(it, dict(r) if r else {"unavailable": True})
        links = [it.link, it.link2] if kind == "compare" else [it.link]
        views = [need("product_by_link", {"link": ln}) for ln in links if ln is not None]
        if not views or any(v is None for v in views):
            return ReplyPart(it, {"unavailable": True} if len(unavailable) else {})
        v = views[0]
        pid = v["product_id"]
        facts: dict[str, Any] = {
            "title": v["title"],
            "final_price": v["final_price"],
            "list_price": v["list_price"],
            "coupon_amount": (v.get("coupon") or {}).get("amount"),
            "coupon": v.get("coupon"),
        }
        if v.get("code"):
            facts["code"] = v["code"]
        stocks: list[dict[str, Any] | None] = []
        if kind in ("price", "purchase", "compare"):
            stocks = [need("stock", {"product_id": x["product_id"]}) for x in views]
            if any(s is None for s in stocks) and not unavailable:
                return ReplyPart(it, facts)  # the stock is still to come
        if kind == "compare":
            facts["items"] = [{"title": x["title"], "final_price": x["final_price"], "link": x["link"],
                               "in_stock": _in_stock(s)} for x, s in zip(views, stocks)]
            return ReplyPart(it, facts)
        if kind in ("price", "purchase"):
            facts["in_stock"] = _in_stock(stocks[0]) if stocks else None
            if stocks and stocks[0] and stocks[0].get("variants"):
                facts["variants"] = stocks[0]["variants"]  # a variant the viewer names may be sold out
            if facts["in_stock"] is False:
                facts["alternative"] = _alternative(v, listed)
                return ReplyPart(it, facts)
        if kind == "spec":
            facts.update(attr=it.attr, value=v["specs"].get(it.attr or "", ""))
            a = vocab.attribute(it.attr) if vocab is not None and it.attr else None
            if a is not None:
                if a.label(locale):
                    facts["label"] = a.label(locale)
                facts["type"] = a.type
        elif kind in _DEPENDENT:
            r = need(_DEPENDENT[kind], {"product_id": pid})
            if r is None:
                return ReplyPart(it, {"unavailable": True} if unavailable else facts)
            facts.update(r)
            if kind == "campaign":
                flash = [c.get("flash_price") for c in r.get("campaigns", []) if c.get("type") == "flash_sale"]
                facts["flash_price"] = flash[0] if flash else None
            if kind == "stock" and not r.get("stock"):
                facts["alternative"] = _alternative(v, listed)
        elif kind == "purchase":
            pin = need("pin_product", {"product_id": pid})
            coupon = v.get("coupon")
            sent = need("send_coupon", {"coupon_id": coupon["coupon_id"]}) if coupon else None
            if pin is None or (coupon and sent is None):
                return ReplyPart(it, {**facts, "unavailable": True} if unavailable else facts)
            facts["pinned"] = True
            facts["coupon_sent"] = bool(sent)
        return ReplyPart(it, facts)

    # -- output --------------------------------------------------------------------------------------------
    @staticmethod
    def _format_call(h: Any, op: str, args: dict[str, Any]) -> str:
        if op == "load_skill":
            st = h.spec.skill_tool
            return format_hermes(st.name, {st.param: args["name"]})
        tool = h.tool_for_op[op]
        return format_hermes(tool.name, h.encode_args(tool, args))

    def _response(self, text: str) -> AgentResponse:
        return AgentResponse(text=text, timings=Timings(total_s=self.turn_s, ttft_s=self.turn_s / 2))


def _in_stock(result: dict[str, Any] | None) -> bool | None:
    """Whether a stock result says the product is in stock (``None``: no result)."""
    if not isinstance(result, dict):
        return None
    n = result.get("stock")
    if isinstance(n, (int, float)) and not isinstance(n, bool):
        return n > 0
    flag = result.get("in_stock")
    return flag if isinstance(flag, bool) else None


def _alternative(view: dict[str, Any], listed: list[PromptProduct]) -> int | None:
    """Another link of the same category in the prompt's product list, to look at instead of a sold-out one."""
    mine = next((p for p in listed if p.link == view.get("link")), None)
    cat = mine.category if mine is not None else str(view.get("category") or "")
    return next((p.link for p in listed if p.link != view.get("link") and p.category == cat), None)


def _words_of(feedback: tuple[str | None, dict[str, str]]) -> list[str]:
    """The forbidden words a hook's feedback names (nothing for other feedback)."""
    kind, fields = feedback
    if kind != "forbidden":
        return []
    return [w.strip() for w in re.split(r"[,，、;；]", fields.get("words", "")) if w.strip()]
