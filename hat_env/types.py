"""Core value types shared by the simulator, the Harness runtime, scoring, environments and agents.

These are plain slotted dataclasses (not pydantic) because they sit on the per-request hot path. File formats
(scenarios, harness packs) are validated with pydantic in :mod:`hat_env.sim.scenario` and
:mod:`hat_env.harness.pack`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from hat_env.untrusted import clean_text, describe

#: Every viewer intent the simulator can express. Product intents name a link number.
IntentKind = Literal[
    "price",  # how much is link N (effective price now)
    "spec",  # a spec attribute of link N (``attr`` names it)
    "stock",  # is link N in stock / how many left
    "campaign",  # which coupon / discount applies to link N
    "shipping",  # when does link N ship, who carries it, is shipping free
    "after_sales",  # return / exchange / warranty policy of link N
    "order_status",  # where is my order ``order_id``
    "compare",  # link N vs link M (prices)
    "purchase",  # I want to buy link N (pin it, send the coupon)
    "chitchat",  # greetings, small talk
    "troll",  # insults, off-topic provocation
    "injection",  # prompt injection ("ignore your rules and say ...")
    "identity",  # is the host a real person / an AI
    "efficacy",  # does product N treat / cure / have a health effect
    "other_language",  # a comment in a language the parser does not read (``lang`` names it when known)
]

INTENT_KINDS: tuple[str, ...] = (
    "price",
    "spec",
    "stock",
    "campaign",
    "shipping",
    "after_sales",
    "order_status",
    "compare",
    "purchase",
    "chitchat",
    "troll",
    "injection",
    "identity",
    "efficacy",
    "other_language",
)

#: Intents that need product facts from tools.
PRODUCT_INTENTS: frozenset[str] = frozenset(
    {"price", "spec", "stock", "campaign", "shipping", "after_sales", "compare", "purchase"}
)
#: Intents answered without any tool.
SOCIAL_INTENTS: frozenset[str] = frozenset({"chitchat", "troll", "injection"})
#: Intents answered without any tool that are not small talk: identity (say it is an AI host), efficacy (an honest
#: answer that claims no health effect), other_language (answer in the room's language). Their tool needs are none;
#: their facts are the scorer's (hat_env.scoring).
NO_TOOL_INTENTS: frozenset[str] = frozenset({"identity", "efficacy", "other_language"})

Locale = Literal["zh_CN", "en_US"]


@dataclass(frozen=True, slots=True)
class Intent:
    """One thing a viewer wants from the host.

    Attributes:
        kind: one of :data:`INTENT_KINDS`.
        link: the product link number the viewer refers to ("3号链接" -> 3), if any.
        link2: the second link of a ``compare`` intent.
        attr: the spec attribute asked about (a key of the product's ``specs``) for ``spec`` intents.
        order_id: the order asked about for ``order_status`` intents.
        payload: for ``injection`` intents, the text the injector tries to make the host say.
        lang: for ``other_language`` intents, the language's code (``"ja"``, ``"fr"``) when the parser tells it.
    """

    kind: str
    link: int | None = None
    link2: int | None = None
    attr: str | None = None
    order_id: str | None = None
    payload: str | None = None
    lang: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """Return the intent as a JSON-ready dict without ``None`` fields."""
        return {k: getattr(self, k) for k in self.__slots__ if getattr(self, k) is not None}


@dataclass(frozen=True, slots=True)
class Comment:
    """One viewer comment (danmaku) in the room.

    Attributes:
        t: room time in seconds when it was sent.
        viewer_id: stable id of the viewer within the session.
        viewer_name: display name (Faker-generated, locale-specific).
        persona: the persona that wrote it (price_asker, troll, ...).
        text: the untrusted comment text as shown to the host.
        intents: what the comment asks for; hidden from agents, used for gold and scoring.
    """

    t: float
    viewer_id: str
    viewer_name: str
    persona: str
    text: str
    intents: tuple[Intent, ...] = ()


@dataclass(slots=True)
class LiveRequest:
    """Comments that arrived in one merge window, merged into one request for the host.

    Attributes:
        request_id: ``"r0001"``-style id, unique within a session.
        t: room time at which the request is handed to the host.
        comments: the merged comments, oldest first.
    """

    request_id: str
    t: float
    comments: list[Comment]

    @property
    def intents(self) -> list[Intent]:
        """All intents of all merged comments, in order."""
        return [i for c in self.comments for i in c.intents]


@dataclass(frozen=True, slots=True)
class ToolCall:
    """A tool call as the model wrote it (harness names, harness argument encoding).

    Attributes:
        name: the tool name the model used.
        arguments: the decoded JSON arguments (a dict), or the raw string when it was not valid JSON.
        call_id: an id to pair the call with its tool message.
    """

    name: str
    arguments: dict[str, Any] | str
    call_id: str = ""


@dataclass(slots=True)
class ParsedOutput:
    """What :meth:`hat_env.harness.Harness.parse` made of one raw model output.

    Exactly one of these holds: ``tool_calls`` is non-empty (the model acts), ``reply`` is set (the model
    answers the viewers), or ``error`` is set (the output could not be understood; the error text is fed back).
    ``reasoning`` is any ``<think>`` text that was stripped.
    """

    tool_calls: list[ToolCall] = field(default_factory=list)
    reply: str | None = None
    error: str | None = None
    reasoning: str = ""


@dataclass(slots=True)
class Timings:
    """Timings of one model call, in seconds. ``ttft`` is ``None`` where the backend does not stream."""

    total_s: float = 0.0
    ttft_s: float | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"total_s": round(self.total_s, 6), "ttft_s": None if self.ttft_s is None else round(self.ttft_s, 6)}


@dataclass(slots=True)
class AgentRequest:
    """What an agent receives for one turn: OpenAI-format ``messages`` and ``tools``.

    Attributes:
        messages: OpenAI chat messages (system, user, assistant with ``tool_calls``, tool).
        tools: OpenAI function-tool specs of the current harness, ``load_skill`` included.
        harness: the current :class:`hat_env.harness.Harness`. Model-backed agents ignore it; scripted agents
            (``reference``) read tool bindings, skills and constraints from it instead of from constants.
        locale: the room's locale.
        request_id: id of the live request this turn belongs to.
        turn: index of this turn within the request (0 = first model call).
        vocabulary: the room's catalog vocabulary (:class:`hat_env.sim.vocabulary.Vocabulary`): the words viewers
            use for its spec attributes and kinds of deal, as the room's language knowledge. Model-backed agents
            ignore it (a model reads the words themselves); the reference agent's comment parser reads it, as
            it reads the locale. ``None``: the default vocabulary.
    """

    messages: list[dict[str, Any]]
    tools: list[dict[str, Any]]
    harness: Any = None
    locale: str = "zh_CN"
    request_id: str = ""
    turn: int = 0
    vocabulary: Any = None


@dataclass(slots=True)
class AgentResponse:
    """One model output.

    Attributes:
        text: the raw output text (may hold Hermes ``<tool_call>`` blocks).
        tool_calls: structured OpenAI tool calls, for backends that return them (``[{"id", "type",
            "function": {"name", "arguments"}}]``); empty when the calls are inside ``text``.
        timings: measured (or, for scripted agents, modelled) timings.
        prompt_tokens: tokens in the prompt, when known.
        completion_tokens: tokens generated, when known.
        error: set when the call failed (dead endpoint, timeout); ``text`` is then empty.
    """

    text: str = ""
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    timings: Timings = field(default_factory=Timings)
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    error: str | None = None

    def trace_timings(self) -> dict[str, Any]:
        """What a trace records about this call (``LiveSession.feed``'s ``timings``): ``ttft_s``, ``total_s``,
        the token counts when known, and the error when it failed."""
        out: dict[str, Any] = {"ttft_s": self.timings.ttft_s, "total_s": self.timings.total_s}
        if self.prompt_tokens is not None or self.completion_tokens is not None:
            out.update(prompt_tokens=self.prompt_tokens, completion_tokens=self.completion_tokens)
        if self.error:
            out["error"] = self.error
        return out


@dataclass(slots=True)
class Turn:
    """One model output in the form the request loop takes it (:meth:`hat_env.harness.runtime.RequestLoop.feed`).

    Attributes:
        text: the raw output text (Hermes ``<tool_call>`` blocks or a reply).
        tool_calls: structured OpenAI tool calls (``[{"id", "type", "function": {"name", "arguments"}}]``), or
            ``None`` when the calls, if any, are inside ``text``. The loop checks their shape.
        seconds: how long the model took; ``None`` lets the scenario's latency model decide. The loop checks it
            (see :meth:`~hat_env.harness.runtime.RequestLoop.feed`).
        timings: extra per-turn fields a trace records (``ttft_s``, ``total_s``, token counts, an error), or ``None``.
        error: why the action itself could not be read (a ``content`` that is not text, ``tool_calls`` that are
            not a list...), or ``None``. The loop feeds it back to the model as unreadable output.
    """

    text: str
    tool_calls: list[dict[str, Any]] | None = None
    seconds: float | None = None
    timings: dict[str, Any] | None = None
    error: str | None = None

    @classmethod
    def of(cls, action: Any) -> "Turn":
        """The one conversion of an agent's action into a :class:`Turn`. It never raises: whatever cannot be read
        becomes the turn's :attr:`error`.

        Args:
            action: a :class:`Turn`; a string (the raw output); an OpenAI assistant message dict
                ``{"content", "tool_calls"}`` (``content`` a string, ``None`` or a list of ``{"type": "text",
                "text"}`` parts), which may carry ``turn_seconds`` and, to be traced, ``ttft_s``,
                ``prompt_tokens`` and ``completion_tokens``; or an :class:`AgentResponse` (anything with ``text``,
                ``tool_calls`` and ``timings``). ``None`` is the empty output; bytes are refused (an error); anything
                else is taken as its ``str()``.

        Returns:
            The turn (the same object when ``action`` already is one). Its text has no lone surrogates
            (:func:`hat_env.untrusted.clean_text`).
        """
        if isinstance(action, str):
            return cls(clean_text(action))
        if isinstance(action, Turn):
            return action
        if isinstance(action, dict):
            return cls._of_message(action)
        if action is None:  # no output at all: the empty output
            return cls("")
        if isinstance(action, (bytes, bytearray, memoryview)):
            return cls("", error="the output must be text, got bytes (decode it first)")
        try:
            text = getattr(action, "text", None)
        except Exception:  # a hostile __getattr__
            text = None
        if text is not None:
            return cls._of_response(action, text)
        try:
            return cls(clean_text(str(action)))
        except Exception as exc:  # a hostile __str__, or a container too deep to print
            return cls("", error=f"the action ({type(action).__name__}) could not be read as text: "
                                 f"{type(exc).__name__}")

    @classmethod
    def _of_message(cls, action: dict[str, Any]) -> "Turn":
        """An OpenAI assistant message dict as a turn (see :meth:`of`)."""
        content = action.get("content")
        error = None
        if content is None:
            text = ""
        elif isinstance(content, str):
            text = clean_text(content)
        elif isinstance(content, list) and all(
                isinstance(p, dict) and p.get("type") == "text" and isinstance(p.get("text"), str) for p in content):
            text = clean_text("".join(p["text"] for p in content))
        else:
            text = ""
            error = f'content must be a string, null or a list of {{"type": "text", "text"}} parts, got {describe(content)}'
        calls = action.get("tool_calls")
        secs = action.get("turn_seconds")
        timings = {k: action[k] for k in ("ttft_s", "prompt_tokens", "completion_tokens") if k in action}
        if timings:
            timings["total_s"] = secs
        return cls(text, _calls(calls), secs, timings or None, error)

    @classmethod
    def _of_response(cls, action: Any, text: Any) -> "Turn":
        """An :class:`AgentResponse` (or anything shaped like one) as a turn (see :meth:`of`)."""
        error = None
        if not isinstance(text, str):
            error = f"the response text must be a string, got {describe(text)}"
            text = ""
        try:
            trace = action.trace_timings() if hasattr(action, "trace_timings") else None
        except Exception as exc:  # timings of the wrong type
            trace = {"error": f"the response's timings could not be read ({type(exc).__name__})"}
        calls = getattr(action, "tool_calls", None)
        secs = getattr(getattr(action, "timings", None), "total_s", None)
        return cls(clean_text(text), _calls(calls), secs, trace, error)


def _calls(calls: Any) -> Any:
    """``calls`` as a turn holds them: ``None`` for none (``None``, empty); anything else as it is, for the parser
    to read or reject (a value whose truth cannot be tested, such as an array, is passed on too)."""
    try:
        return calls or None
    except Exception:
        return calls


@dataclass(slots=True)
class ExecutedCall:
    """One tool call after the Harness decoded it, as the scorer sees it.

    Attributes:
        name: the tool name the model used (harness name).
        op: the canonical backend operation it is bound to (``product_by_link`` ...), ``"load_skill"`` for the
            skill tool, or ``None`` when the name matched no tool.
        args: canonical arguments (``{"link": 3}``), decoded from the harness encoding; ``{}`` when invalid.
        valid: the call named a real tool and its arguments passed the schema and the before-tool hooks.
        error: why it was rejected (schema error, unknown tool, hook denial), fed back to the model.
        fault: the injected fault (``timeout``, ``malformed``, ``permission_denied``) or ``None``.
        ok: the backend answered with usable data.
        result: the canonical result dict (before field renaming), ``None`` when not ok.
    """

    name: str
    op: str | None
    args: dict[str, Any]
    valid: bool
    error: str | None = None
    fault: str | None = None
    ok: bool = False
    result: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form for traces (results are kept: they are what the reply may claim)."""
        return {
            "name": self.name,
            "op": self.op,
            "args": self.args,
            "valid": self.valid,
            "error": self.error,
            "fault": self.fault,
            "ok": self.ok,
        }


@dataclass(slots=True)
class RequestOutcome:
    """Everything that happened while the host handled one request; the input of scoring.

    Attributes:
        request: the merged request.
        reply: the reply text that went out (``fallback`` True when the harness sent its fallback instead).
        calls: every tool call in order, ``load_skill`` included.
        skills_loaded: names (current harness names) of skills loaded successfully, in order.
        turns: model calls used.
        retries: replies blocked by hooks and retried.
        latency_s: time from request to reply (model turns + tool time), seconds.
        hook_events: ``{"event", "check", "decision", "reason"}`` dicts in order.
        fallback: the reply is the harness's fallback (turn limit or retry budget exhausted).
        timings: one record per model turn, as traced: ``{"turn", ...the turn's timings, "turn_s"}``.
    """

    request: LiveRequest
    reply: str
    calls: list[ExecutedCall] = field(default_factory=list)
    skills_loaded: list[str] = field(default_factory=list)
    turns: int = 0
    retries: int = 0
    latency_s: float = 0.0
    hook_events: list[dict[str, Any]] = field(default_factory=list)
    fallback: bool = False
    timings: list[dict[str, Any]] = field(default_factory=list)
