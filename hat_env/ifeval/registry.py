"""The Live-IFEval instruction types: :data:`INSTRUCTIONS` and the functions that validate, describe and check an
instruction dict ``{"type": TYPE_ID, **params}``."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Any, Callable

from pydantic import BaseModel, ValidationError

from hat_env.ifeval import checks as C
from hat_env.ifeval import describe as D
from hat_env.ifeval.params import (
    CapitalFrequencyParams,
    CharsParams,
    EndParams,
    ForbiddenParams,
    FrequencyParams,
    KeywordsParams,
    LanguageParams,
    LinkParams,
    NoParams,
    PostscriptParams,
    RepeatParams,
    SentencesParams,
    StartParams,
    ViewerParams,
    WordsParams,
)
from hat_env.ifeval.text import norm_locale


class Stage(IntEnum):
    """The kind of edit an instruction asks of a reply, in the order edits compose: additions first, removals and
    shortening later, case changes and the wrapping quotes last. The reference agent's rewriter applies
    instructions in this order; the suite sampler lists them in it."""

    ADD = 0
    PAD = 1
    POSTSCRIPT = 2
    PREFIX = 3
    END = 4
    REMOVE = 5
    SHRINK = 6
    COMMA = 7
    CASE = 8
    WRAP = 9


@dataclass(frozen=True)
class InstructionType:
    """One verifiable instruction type.

    Attributes:
        id: the type id (``"keywords:existence"``).
        model: the pydantic params model.
    """

    id: str
    model: type[BaseModel]
    _describe: Callable[[Any, str], str]
    _check: Callable[[str, Any, str, dict[str, Any]], bool]
    _stage: Callable[[Any], Stage]

    def validate(self, params: dict[str, Any] | BaseModel | None) -> BaseModel:
        """Validated params (a ``"type"`` key, as in a whole instruction dict, is ignored).

        Raises:
            ValueError: the params do not fit the type.
        """
        if isinstance(params, self.model):
            return params
        d = dict(params or {})
        d.pop("type", None)
        try:
            return self.model.model_validate(d)
        except ValidationError as exc:
            errs = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'params'}: {e['msg']}" for e in exc.errors())
            raise ValueError(f"instruction {self.id}: {errs}") from None

    def describe(self, params: dict[str, Any] | BaseModel | None, locale: str) -> str:
        """The instruction as shown to the model, in ``locale``'s language."""
        return self._describe(self.validate(params), norm_locale(locale))

    def check(self, reply: str, params: dict[str, Any] | BaseModel | None, locale: str,
              context: dict[str, Any] | None = None) -> bool:
        """Strict check of ``reply`` (``context``: see :mod:`hat_env.ifeval.context`)."""
        return bool(self._check(reply or "", self.validate(params), norm_locale(locale), context or {}))

    def stage(self, params: dict[str, Any] | BaseModel | None) -> Stage:
        """The kind of edit the instruction asks for, given its params (see :class:`Stage`)."""
        return self._stage(self.validate(params))


def _const(s: Stage) -> Callable[[Any], Stage]:
    return lambda p: s


def _by_relation(attr: str) -> Callable[[Any], Stage]:
    """Padding for an "at least" length, shortening for a "less than" one."""
    return lambda p: Stage.PAD if getattr(p, attr) == "at least" else Stage.SHRINK


INSTRUCTIONS: dict[str, InstructionType] = {
    t.id: t
    for t in [
        InstructionType("keywords:existence", KeywordsParams, D.existence, C.existence, _const(Stage.ADD)),
        InstructionType("keywords:frequency", FrequencyParams, D.frequency, C.frequency,
                        lambda p: Stage.ADD if p.relation == "at least" else Stage.REMOVE),
        InstructionType("keywords:forbidden_words", ForbiddenParams, D.forbidden, C.forbidden,
                        _const(Stage.REMOVE)),
        InstructionType("keywords:mention_link", LinkParams, D.mention_link, C.mention_link, _const(Stage.ADD)),
        InstructionType("language:response_language", LanguageParams, D.language, C.language, _const(Stage.ADD)),
        InstructionType("length_constraints:number_words", WordsParams, D.words, C.words, _by_relation("relation")),
        InstructionType("length_constraints:number_chars", CharsParams, D.chars, C.chars, _by_relation("relation")),
        InstructionType("length_constraints:number_sentences", SentencesParams, D.sentences, C.sentences,
                        _by_relation("relation")),
        InstructionType("detectable_content:postscript", PostscriptParams, D.postscript, C.postscript,
                        _const(Stage.POSTSCRIPT)),
        InstructionType("detectable_content:mention_viewer", ViewerParams, D.mention_viewer, C.mention_viewer,
                        _const(Stage.PREFIX)),
        InstructionType("startend:start_checker", StartParams, D.start, C.start, _const(Stage.PREFIX)),
        InstructionType("startend:end_checker", EndParams, D.end, C.end, _const(Stage.END)),
        InstructionType("startend:quotation", NoParams, D.quotation, C.quotation, _const(Stage.WRAP)),
        InstructionType("change_case:english_lowercase", NoParams, D.lowercase, C.lowercase, _const(Stage.CASE)),
        InstructionType("change_case:english_capital", NoParams, D.uppercase, C.uppercase, _const(Stage.CASE)),
        InstructionType("change_case:capital_word_frequency", CapitalFrequencyParams, D.capital_frequency,
                        C.capital_frequency, _const(Stage.CASE)),
        InstructionType("punctuation:no_comma", NoParams, D.no_comma, C.no_comma, _const(Stage.COMMA)),
        InstructionType("combination:repeat_prompt", RepeatParams, D.repeat_prompt, C.repeat_prompt,
                        _const(Stage.PREFIX)),
    ]
}


def get_type(type_id: str) -> InstructionType:
    """The registered type ``type_id``.

    Raises:
        ValueError: no such type.
    """
    t = INSTRUCTIONS.get(type_id)
    if t is None:
        raise ValueError(f"unknown instruction type {type_id!r}; known: {sorted(INSTRUCTIONS)}")
    return t


def resolve(inst: dict[str, Any]) -> tuple[InstructionType, BaseModel]:
    """The type of an instruction dict and its validated params.

    Raises:
        ValueError: not a dict with a known ``type``, or bad params.
    """
    if not isinstance(inst, dict) or "type" not in inst:
        raise ValueError(f"an instruction is a dict with a 'type' key, got {inst!r}")
    t = get_type(str(inst["type"]))
    return t, t.validate(inst)


def validate_instruction(inst: dict[str, Any]) -> dict[str, Any]:
    """``inst`` checked and normalised (defaults filled): ``{"type": ..., **params}``.

    Raises:
        ValueError: unknown type or bad params.
    """
    t, p = resolve(inst)
    return {"type": t.id, **p.model_dump(exclude_none=True)}


def validate_instructions(instructions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every instruction normalised (:func:`validate_instruction`); the first error names its index."""
    out = []
    for i, inst in enumerate(instructions or []):
        try:
            out.append(validate_instruction(inst))
        except ValueError as exc:
            raise ValueError(f"instructions[{i}]: {exc}") from None
    return out


def describe(inst: dict[str, Any], locale: str) -> str:
    """The text of one instruction dict in ``locale``'s language."""
    t, p = resolve(inst)
    return t.describe(p, locale)


def check(reply: str, inst: dict[str, Any], locale: str, context: dict[str, Any] | None = None) -> bool:
    """Strict check of one instruction dict."""
    t, p = resolve(inst)
    return t.check(reply, p, locale, context)


def check_all(reply: str, instructions: list[dict[str, Any]], locale: str,
              context: dict[str, Any] | None = None) -> list[bool]:
    """Strict result of every instruction, in order."""
    return [t.check(reply, p, locale, context) for t, p in (resolve(i) for i in instructions or [])]


__all__ = [
    "INSTRUCTIONS",
    "InstructionType",
    "Stage",
    "check",
    "check_all",
    "describe",
    "get_type",
    "resolve",
    "validate_instruction",
    "validate_instructions",
]
