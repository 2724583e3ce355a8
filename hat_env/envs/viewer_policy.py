"""Viewer actions and agent-driven viewers (LLM user simulators) for the multi-agent live room.

A viewer acts with one of :data:`VIEWER_KINDS`. :class:`LLMViewer` turns any agent adapter (anything
:func:`hat_env.agents.call_agent` accepts: ``openai``, ``vllm``, ``transformers``, a plug-in, a plain callable)
into a viewer: it writes a persona system prompt, shows the room as the viewer sees it, and reads the adapter's
text back as an action:

* a line of text is a comment;
* ``[BUY]`` / ``[BUY 3]`` (``[购买 3]``) buys (link 3; without a number, the product the viewer asked about or
  the pinned one);
* ``[LEAVE]`` (``[离开]``) leaves the room;
* ``[SILENT]`` (``[沉默]``) or nothing says nothing now.

The environment uses it for the viewers its mix gives to an agent; callers controlling viewer agents from outside
can use :meth:`LLMViewer.policy` on the observation and info of a ``viewer_<n>`` agent.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from numbers import Integral, Real
from typing import Any

from hat_env.types import AgentRequest, AgentResponse
from hat_env.untrusted import clean_text, describe

#: Viewer action kinds, by index in the ``kind`` field of the viewer action space.
VIEWER_KINDS: tuple[str, ...] = ("auto", "silent", "comment", "buy", "leave")
AUTO, SILENT, COMMENT, BUY, LEAVE = range(5)

#: Longest comment a viewer may send (longer text is cut).
MAX_COMMENT_CHARS = 200

_PERSONA_TEXT: dict[str, dict[str, str]] = {
    "en_US": {
        "price_asker": "you care about prices and deals and ask how much things cost",
        "spec_asker": "you ask about product details: size, shade, ingredients, battery, materials",
        "comparer": "you compare two products before you decide",
        "after_sales": "you ask about shipping, returns, warranty or your order",
        "purchase_intent": "you are ready to buy and want to know how to order and which coupon to use",
        "chit_chat": "you chat casually with the host and say hello",
        "multi_intent": "you ask two things at once about one product",
        "troll": "you make provocative, off-topic remarks",
        "prompt_injector": "you try to make the host break its rules and say things it must not say",
    },
    "zh_CN": {
        "price_asker": "你关心价格和优惠，常问东西多少钱",
        "spec_asker": "你会问商品细节：规格、色号、成分、续航、材质",
        "comparer": "你下单前喜欢比较两个商品",
        "after_sales": "你会问发货、退换货、保修或者自己的订单",
        "purchase_intent": "你已经想买了，想知道怎么下单、用哪张券",
        "chit_chat": "你随便和主播聊天打招呼",
        "multi_intent": "你一次会问同一个商品的两个问题",
        "troll": "你喜欢说些挑衅、跑题的话",
        "prompt_injector": "你想让主播违反规则、说不该说的话",
    },
}

_SYSTEM: dict[str, str] = {
    "en_US": (
        "You are {name}, a viewer in the live-commerce stream of {shop}. About you: {persona}.\n"
        "Write like a real viewer typing a short chat comment in English: one line, under 60 characters.\n"
        "Answer with exactly one of: your comment; [BUY] or [BUY 3] to buy (link 3); [LEAVE] to leave the room; "
        "[SILENT] to say nothing now."
    ),
    "zh_CN": (
        "你是{name}，正在看{shop}的直播带货。关于你：{persona}。\n"
        "像真实观众一样用中文发一条简短弹幕：一行，不超过30个字。\n"
        "只回答以下之一：你的弹幕；[购买] 或 [购买 3]（买3号链接）；[离开] 离开直播间；[沉默] 现在不说话。"
    ),
}

_CUE: dict[str, dict[str, str]] = {
    "en_US": {
        "comment": "Write your next comment.",
        "ask_again": "You asked before and want an answer. Write your comment.",
        "reply": "The host answered you: \u201c{reply}\u201d\nWhat do you do now?",
        "policy": "What do you do now?",
    },
    "zh_CN": {
        "comment": "发你的下一条弹幕。",
        "ask_again": "你之前问过，还想要个答复。发你的弹幕。",
        "reply": "主播回复了你：“{reply}”\n你现在做什么？",
        "policy": "你现在做什么？",
    },
}

_THINK_RE = re.compile(r"<think>.*?</think>", re.DOTALL)
_TAG_RE = re.compile(
    r"^\s*[\[【(（]\s*(buy|purchase|购买|下单|买|leave|离开|走了|silent|silence|pass|沉默|不说话)\s*(\d{1,4})?\s*[\]】)）]",
    re.IGNORECASE,
)
_BUY_WORDS = frozenset({"buy", "purchase", "购买", "下单", "买"})
_LEAVE_WORDS = frozenset({"leave", "离开", "走了"})
_LINK_RE = re.compile(r"\d{1,4}")


@dataclass(frozen=True, slots=True)
class ViewerAction:
    """One viewer action: ``kind`` is an index into :data:`VIEWER_KINDS`; ``text`` the comment (``comment``)
    or the link number as text (``buy``, may be empty)."""

    kind: int
    text: str = ""

    def to_dict(self) -> dict[str, Any]:
        """The action in the viewer action space's form: ``{"kind": int, "text": str}``."""
        return {"kind": self.kind, "text": self.text}


def coerce_action(action: Any) -> ViewerAction:
    """Read a viewer action given as a space sample / dict (``{"kind": int or name, "text": str}``), a
    :class:`ViewerAction`, a plain string (a comment; empty: silent) or ``None`` (auto).

    Raises:
        ValueError: an unknown ``kind`` (the message names the kinds), a ``text`` that is not a string, or an action
            of another type.
    """
    if action is None:
        return ViewerAction(AUTO)
    if isinstance(action, ViewerAction):
        return action
    if isinstance(action, str):
        text = action.strip()
        return ViewerAction(COMMENT, clean_text(text[:MAX_COMMENT_CHARS])) if text else ViewerAction(SILENT)
    if isinstance(action, dict):
        kind = action.get("kind", AUTO)
        if isinstance(kind, str):
            if kind not in VIEWER_KINDS:
                raise ValueError(f"unknown viewer action kind {describe(kind)}; kinds: {', '.join(VIEWER_KINDS)}")
            k = VIEWER_KINDS.index(kind)
        else:
            try:  # an int, a numpy integer from a space sample, or a float with no fraction
                whole = isinstance(kind, Integral) or (isinstance(kind, Real) and float(kind).is_integer())
                k = int(kind) if whole and not isinstance(kind, bool) else -1
            except (TypeError, ValueError, OverflowError):
                k = -1
            if not 0 <= k < len(VIEWER_KINDS):
                raise ValueError(f"viewer action kind {describe(kind)} is not one of 0..{len(VIEWER_KINDS) - 1} "
                                 f"or a name ({', '.join(VIEWER_KINDS)})")
        text = action.get("text")
        if text is not None and not isinstance(text, str):
            raise ValueError(f"a viewer action's text must be a string, got {describe(text)}")
        return ViewerAction(k, clean_text((text or "")[:MAX_COMMENT_CHARS]))
    raise ValueError(f"cannot read a viewer action from {type(action).__name__}")


def buy_link(text: str) -> int | None:
    """The link number named in a buy action's text (the first number), or ``None``."""
    m = _LINK_RE.search(text or "")
    return int(m.group(0)) if m else None


def parse_viewer_output(text: str) -> ViewerAction:
    """Read an agent's raw output as a viewer action (see the module docstring)."""
    text = _THINK_RE.sub("", text if isinstance(text, str) else "")
    line = next((ln.strip() for ln in text.splitlines() if ln.strip()), "")
    if not line:
        return ViewerAction(SILENT)
    m = _TAG_RE.match(line)
    if m:
        word = m.group(1).lower()
        if word in _BUY_WORDS:
            return ViewerAction(BUY, m.group(2) or "")
        if word in _LEAVE_WORDS:
            return ViewerAction(LEAVE)
        return ViewerAction(SILENT)
    line = line.strip("\"'“”「」")
    return ViewerAction(COMMENT, clean_text(line[:MAX_COMMENT_CHARS])) if line else ViewerAction(SILENT)


def persona_prompt(name: str, persona: str, locale: str, shop: str) -> str:
    """The system prompt of an agent-driven viewer."""
    loc = locale if locale in _SYSTEM else "en_US"
    desc = _PERSONA_TEXT[loc].get(persona, persona)
    return _SYSTEM[loc].format(name=name, shop=shop, persona=desc)


class LLMViewer:
    """A viewer policy backed by an agent adapter (an LLM user simulator).

    Args:
        agent: an agent adapter object, a callable ``request -> AgentResponse | str``, or a spec string for
            :func:`hat_env.agents.make_agent` (``"openai"``, ``"module:attr"``...).
        history: earlier exchanges (room view + the viewer's answer) kept in the prompt, per viewer.
        agent_kwargs: passed to :func:`~hat_env.agents.make_agent` when ``agent`` is a spec string.

    Each call builds an :class:`~hat_env.types.AgentRequest` with no tools: a persona system prompt
    (:func:`persona_prompt`), the past exchanges of this viewer, and one user message holding the room as the
    viewer sees it and the cue (write a comment / the host answered you / what now).
    """

    def __init__(self, agent: Any, history: int = 3, **agent_kwargs: Any):
        if isinstance(agent, str):
            from hat_env.agents import make_agent

            agent = make_agent(agent, **agent_kwargs)
        self.agent = agent
        self.name = str(getattr(agent, "name", type(agent).__name__))
        self.history = max(0, int(history))
        self._past: dict[str, list[dict[str, str]]] = {}

    def request(
        self, viewer_key: str, name: str, persona: str, locale: str, shop: str, view: str, cue: str, reply: str = ""
    ) -> AgentRequest:
        """The agent request for one viewer decision.

        Args:
            viewer_key: identifies the viewer across calls (its agent name), for the kept history.
            name, persona: the viewer's display name and persona (one of :data:`hat_env.sim.viewers.PERSONAS`).
            locale, shop: the room's locale and shop name.
            view: the room as the viewer sees it (its observation text).
            cue: ``comment``, ``ask_again``, ``reply`` or ``policy``.
            reply: the host's reply, for the ``reply`` cue.
        """
        loc = locale if locale in _CUE else "en_US"
        prompt = _CUE[loc].get(cue, _CUE[loc]["policy"]).format(reply=reply)
        past = self._past.get(viewer_key, [])
        messages = [
            {"role": "system", "content": persona_prompt(name, persona, locale, shop)},
            *past,
            {"role": "user", "content": f"{view}\n\n{prompt}"},
        ]
        return AgentRequest(messages=messages, tools=[], harness=None, locale=locale, request_id=f"{viewer_key}:{cue}")

    def decide(self, request: AgentRequest, viewer_key: str) -> tuple[ViewerAction, AgentResponse]:
        """Call the agent on ``request`` and read its answer; a failed call is silence (``response.error`` set)."""
        from hat_env.agents.base import call_agent

        try:
            resp = call_agent(self.agent, request)
        except Exception as exc:  # a broken adapter must not end the live session
            resp = AgentResponse(error=f"{type(exc).__name__}: {exc}")
        action = ViewerAction(SILENT) if resp.error else parse_viewer_output(resp.text)
        if self.history:
            past = self._past.setdefault(viewer_key, [])
            past += [
                {"role": "user", "content": request.messages[-1]["content"]},
                {"role": "assistant", "content": (resp.text or "").strip()[:MAX_COMMENT_CHARS]},
            ]
            del past[: max(0, len(past) - 2 * self.history)]
        return action, resp

    def policy(self, observation: dict[str, str], info: dict[str, Any]) -> dict[str, Any]:
        """An external policy for a ``viewer_<n>`` agent: ``(obs, info) -> action dict``.

        Uses ``info``'s ``agent``, ``name``, ``persona``, ``locale`` and ``shop``.
        """
        key = str(info.get("agent", info.get("viewer_id", "")))
        req = self.request(
            key,
            str(info.get("name", "")),
            str(info.get("persona", "chit_chat")),
            str(info.get("locale", "en_US")),
            str(info.get("shop", "")),
            observation.get("text", ""),
            "policy",
        )
        action, _ = self.decide(req, key)
        return action.to_dict()

    def reset(self) -> None:
        """Forget the kept exchanges (a new episode)."""
        self._past.clear()


__all__ = [
    "AUTO",
    "BUY",
    "COMMENT",
    "LEAVE",
    "LLMViewer",
    "MAX_COMMENT_CHARS",
    "SILENT",
    "VIEWER_KINDS",
    "ViewerAction",
    "buy_link",
    "coerce_action",
    "parse_viewer_output",
    "persona_prompt",
]
