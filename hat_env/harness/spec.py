"""The Harness as data: prompt sections, tool bindings, skills, hooks and interaction constraints.

A harness pack is a folder ``NAME/`` holding ``harness.yaml`` (everything below but skills) and
``skills/SKILL_NAME/SKILL.md`` files in the Agent Skills format. These models validate both; errors name the
file, the field path and the line.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from hat_env import saferegex

SKILL_NAME_RE = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
TOOL_NAME_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_.\-]{0,63}$")

EVENTS = ("request_received", "before_tool", "after_tool", "before_reply")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Codec(_Strict):
    """How a canonical argument value is written in the harness's encoding.

    ``identity``: as is. ``int_as_str``: an integer written as a string (``3`` -> ``"3"``). ``prefix``: a string
    id with ``prefix`` prepended (``P003`` -> ``SKU-P003``). ``enum``: ``map`` from harness value to canonical
    value.
    """

    type: Literal["identity", "int_as_str", "prefix", "enum"] = "identity"
    prefix: str = ""
    map: dict[str, str] = Field(default_factory=dict)


class ArgBinding(_Strict):
    """Where a canonical argument sits in the tool's arguments (dotted ``path``) and how it is encoded."""

    path: str = Field(pattern=r"^[A-Za-z_][A-Za-z0-9_\-]*(\.[A-Za-z_][A-Za-z0-9_\-]*)*$")
    codec: Codec = Field(default_factory=Codec)


class ToolSpec(_Strict):
    """One tool the model sees, bound to a canonical backend operation.

    Attributes:
        name: the name the model calls.
        op: the canonical operation (see :data:`hat_env.sim.tools.OPS`); ``None`` for a distractor that exists
            only to be ignored (calling it is needless and returns an error).
        description: what the model reads about it.
        parameters: JSON Schema of the arguments object (OpenAI function ``parameters``).
        args: canonical argument name -> where and how it appears in the arguments.
        results: canonical result field -> the field name the model sees (renamed fields only).
    """

    name: str
    op: str | None
    description: str = ""
    parameters: dict[str, Any] = Field(default_factory=lambda: {"type": "object", "properties": {}})
    args: dict[str, ArgBinding] = Field(default_factory=dict)
    results: dict[str, str] = Field(default_factory=dict)

    @field_validator("name")
    @classmethod
    def _name(cls, v: str) -> str:
        if not TOOL_NAME_RE.match(v):
            raise ValueError(f"tool name {v!r} must match {TOOL_NAME_RE.pattern}")
        return v


class SkillSpec(_Strict):
    """A Skill (Agent Skills format). ``metadata.kind`` is ``reply`` or ``strategy``; ``metadata.intents`` a
    comma-separated list of the viewer intents a reply skill answers."""

    name: str
    description: str = Field(min_length=1, max_length=1024)
    body: str = ""
    metadata: dict[str, str] = Field(default_factory=dict)
    allowed_tools: str | None = Field(None, alias="allowed-tools")

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    @field_validator("name")
    @classmethod
    def _name(cls, v: str) -> str:
        if not (1 <= len(v) <= 64 and SKILL_NAME_RE.match(v)):
            raise ValueError(f"skill name {v!r}: 1-64 chars of a-z, 0-9 and '-', no leading/trailing/double '-'")
        return v

    @property
    def kind(self) -> str:
        """``reply`` or ``strategy``."""
        return self.metadata.get("kind", "strategy")

    @property
    def intents(self) -> frozenset[str]:
        """Intent kinds a reply skill covers."""
        return frozenset(x.strip() for x in self.metadata.get("intents", "").split(",") if x.strip())


class Section(_Strict):
    """One section of the system prompt. ``source`` fills it from live state (products, campaigns, skills,
    constraints, room) instead of, or after, ``text``. ``{placeholders}`` in text take room values."""

    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    title: str
    text: str = ""
    source: Literal["products", "campaigns", "skills", "constraints", "room"] | None = None


class PromptSpec(_Strict):
    """The system-prompt pipeline: ordered sections and the markup they are rendered in.

    ``language`` is the language the harness writes its prompt in: the renderer's fixed strings (the product
    lines, the rule lines, the user message's header) come from that locale file's ``prompt`` section
    (:mod:`hat_env.locale_text`); ``room`` takes the room's locale. ``strings`` overrides any of them
    (:data:`hat_env.locale_text.PROMPT_FIELDS` names each and its placeholders)."""

    markup: Literal["markdown", "xml", "json", "plain"] = "markdown"
    sections: list[Section] = Field(min_length=1)
    language: str = Field("en_US", pattern=r"^(room|[a-z]{2,3}_[A-Z]{2})$")
    strings: dict[str, str] = Field(default_factory=dict)

    @field_validator("strings")
    @classmethod
    def _strings(cls, v: dict[str, str]) -> dict[str, str]:
        from hat_env.locale_text import check_prompt_strings

        check_prompt_strings(v)
        return v


class SkillToolSpec(_Strict):
    """The built-in tool that discloses a skill's body."""

    name: str = "load_skill"
    param: str = "name"
    description: str = "Load a skill by name and read its instructions."


class Constraints(_Strict):
    """Interaction constraints the hooks enforce.

    Attributes:
        max_reply_chars: longest reply allowed (characters); ``None`` for no limit.
        turn_limit: most model calls per request before the fallback reply goes out.
        max_retries: most blocked replies per request before the fallback reply goes out.
        forbidden_words: words a reply may never contain (in addition to the compliance rules).
        required_disclosure: text every reply must contain: one text for every locale, a table by locale
            (``{"zh_CN": "AI主播", "en_US": "AI host", "default": "AI"}``: the room's locale, else ``default``,
            else the locale file's ``host.disclosure``), ``true`` for the locale file's ``host.disclosure``, or
            ``None`` (see :meth:`disclosure`).
        require_reply_skill: a reply skill must be loaded before the reply.
        feedback: message templates fed back when a hook blocks (keys: ``missing_skill``, ``too_long``,
            ``forbidden``, ``disclosure``, ``compliance``, ``bad_output``, ``unknown_tool``, ``bad_args``,
            ``duplicate_call``); ``{placeholders}`` take details.
        fallback_reply: the reply sent when the turn limit or retry budget runs out, per locale (the room's
            locale, else ``default``, else the locale file's ``host.fallback``; see :meth:`fallback`).
        instructions: verifiable instructions every reply should follow (Live-IFEval), each a dict
            ``{"type": TYPE_ID, **params}`` of :data:`hat_env.ifeval.INSTRUCTIONS` (e.g.
            ``{"type": "startend:end_checker", "end_phrase": "Happy shopping!"}``). They are shown in the
            ``constraints`` prompt section and checked by :mod:`hat_env.evaluation.ifeval`; no hook enforces them.
    """

    max_reply_chars: int | None = Field(150, ge=10)
    turn_limit: int = Field(8, ge=1, le=64)
    max_retries: int = Field(2, ge=0, le=16)
    forbidden_words: list[str] = Field(default_factory=list)
    required_disclosure: str | dict[str, str] | bool | None = None
    require_reply_skill: bool = True
    feedback: dict[str, str] = Field(default_factory=dict)
    fallback_reply: dict[str, str] = Field(default_factory=dict)
    instructions: list[dict[str, Any]] = Field(default_factory=list)

    @field_validator("instructions")
    @classmethod
    def _instructions(cls, v: list[dict[str, Any]]) -> list[dict[str, Any]]:
        from hat_env.ifeval import validate_instructions

        validate_instructions(v)  # raises on an unknown type or bad params; the dicts are kept as written
        return v

    @field_validator("required_disclosure")
    @classmethod
    def _disclosure(cls, v: str | dict[str, str] | bool | None) -> str | dict[str, str] | bool | None:
        if v is False or v == "" or v == {}:
            return None
        if isinstance(v, dict) and any(not isinstance(t, str) or not t for t in v.values()):
            raise ValueError("every disclosure text in the table must be a non-empty string")
        return v

    def disclosure(self, locale: str | None) -> str | None:
        """The text every reply must contain in a ``locale`` room, or ``None`` (``locale`` ``None``: a table's
        ``default`` entry, or nothing)."""
        d = self.required_disclosure
        if d is None or isinstance(d, str):
            return d
        if isinstance(d, dict):
            if locale is not None and locale in d:
                return d[locale]
            if "default" in d:
                return d["default"]
        return _host_text(locale, "disclosure")

    def fallback(self, locale: str) -> str:
        """The fallback reply in a ``locale`` room: the harness's for the locale, its ``default``, else the locale
        file's ``host.fallback``."""
        own = self.fallback_reply.get(locale) or self.fallback_reply.get("default")
        return own or _host_text(locale, "fallback") or "..."


def _host_text(locale: str | None, key: str) -> str | None:
    """The locale file's ``host.<key>`` text, or ``None`` for an unknown locale."""
    if locale is None:
        return None
    from hat_env.locales import get_locale

    try:
        return str(getattr(get_locale(locale).host, key))
    except ValueError:
        return None


class HookSpec(_Strict):
    """A declarative hook: on ``event``, run the named built-in ``check`` (optionally only for tools whose name
    matches the ``matcher`` regex) with ``params``. Python hooks come only from installed entry points.

    ``matcher`` is searched in the tool name the model wrote, so it runs on RE2 (linear time; no lookaround or
    backreferences, see :mod:`hat_env.saferegex`); a pattern RE2 refuses is a validation error with the reason.
    """

    event: Literal["request_received", "before_tool", "after_tool", "before_reply"]
    check: str
    matcher: str | None = None
    params: dict[str, Any] = Field(default_factory=dict)

    @field_validator("matcher")
    @classmethod
    def _regex(cls, v: str | None) -> str | None:
        if v is not None and (why := saferegex.problem(v)) is not None:
            raise ValueError(f"matcher {v[:80]!r}: {why}")
        return v


class HarnessSpec(_Strict):
    """A whole harness. ``skills`` come from the pack's ``skills/`` folder (or inline, e.g. from a patch)."""

    name: str = Field(pattern=r"^[A-Za-z0-9_\-]{1,64}$")
    version: str = "1"
    description: str = ""
    prompt: PromptSpec
    skill_tool: SkillToolSpec = Field(default_factory=SkillToolSpec)
    tools: list[ToolSpec] = Field(min_length=1)
    skills: list[SkillSpec] = Field(default_factory=list)
    constraints: Constraints = Field(default_factory=Constraints)
    hooks: list[HookSpec] = Field(default_factory=list)
