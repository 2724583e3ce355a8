"""The parameters of each Live-IFEval instruction type, as pydantic models (unknown keys are errors).

Relations are IFEval's ``"less than"`` (``<``) and ``"at least"`` (``>=``).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

Relation = Literal["less than", "at least"]
RELATIONS: tuple[str, ...] = ("less than", "at least")


class _P(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NoParams(_P):
    """A type without parameters."""


def _nonempty_words(v: list[str]) -> list[str]:
    if any(not isinstance(w, str) or not w.strip() for w in v):
        raise ValueError("words must be non-empty strings")
    return [w.strip() for w in v]


class KeywordsParams(_P):
    """``keywords:existence``: every keyword appears."""

    keywords: list[str] = Field(min_length=1, max_length=8)

    @field_validator("keywords")
    @classmethod
    def _words(cls, v: list[str]) -> list[str]:
        return _nonempty_words(v)


class FrequencyParams(_P):
    """``keywords:frequency``: ``keyword`` appears ``relation`` ``frequency`` times."""

    keyword: str = Field(min_length=1, pattern=r"\S")
    frequency: int = Field(ge=1, le=20)
    relation: Relation = "at least"


class ForbiddenParams(_P):
    """``keywords:forbidden_words``: none of the words appears."""

    forbidden_words: list[str] = Field(min_length=1, max_length=16)

    @field_validator("forbidden_words")
    @classmethod
    def _words(cls, v: list[str]) -> list[str]:
        return _nonempty_words(v)


class LinkParams(_P):
    """``keywords:mention_link``: link ``link`` is named."""

    link: int = Field(ge=1, le=999)


class LanguageParams(_P):
    """``language:response_language``: the reply is in ``language``."""

    language: Literal["zh", "en"]


class WordsParams(_P):
    """``length_constraints:number_words``."""

    num_words: int = Field(ge=1, le=2000)
    relation: Relation


class CharsParams(_P):
    """``length_constraints:number_chars`` (non-space characters)."""

    num_chars: int = Field(ge=1, le=5000)
    relation: Relation


class SentencesParams(_P):
    """``length_constraints:number_sentences``."""

    num_sentences: int = Field(ge=1, le=100)
    relation: Relation


class PostscriptParams(_P):
    """``detectable_content:postscript``: a postscript starting with the marker."""

    postscript_marker: str = Field("P.S.", min_length=1, max_length=16)


class StartParams(_P):
    """``startend:start_checker``."""

    start_phrase: str = Field(min_length=1, max_length=80)


class EndParams(_P):
    """``startend:end_checker``."""

    end_phrase: str = Field(min_length=1, max_length=80)


class CapitalFrequencyParams(_P):
    """``change_case:capital_word_frequency``."""

    capital_frequency: int = Field(ge=1, le=50)
    capital_relation: Relation


class RepeatParams(_P):
    """``combination:repeat_prompt``: the reply starts with ``prompt_to_repeat`` (default: the viewer's comment)."""

    prompt_to_repeat: str | None = Field(None, max_length=500)


class ViewerParams(_P):
    """``detectable_content:mention_viewer``: ``name`` (default: the asking viewer's) is named."""

    name: str | None = Field(None, max_length=64)


__all__ = [
    "RELATIONS",
    "CapitalFrequencyParams",
    "CharsParams",
    "EndParams",
    "ForbiddenParams",
    "FrequencyParams",
    "KeywordsParams",
    "LanguageParams",
    "LinkParams",
    "NoParams",
    "PostscriptParams",
    "Relation",
    "RepeatParams",
    "SentencesParams",
    "StartParams",
    "ViewerParams",
    "WordsParams",
]
