"""HSA vocabularies: the names, styles, markups, wordings and languages variants are drawn from.

There are two disjoint FAMILIES. ``train`` is what training data may use; ``heldout`` is kept for evaluation
(Harness-Variant QA), so a model can be scored on harness states whose names, casing styles, markups, section
titles, persona and description wordings, disclosure texts, forbidden words, feedback wordings, advice lines
and skill-name styles it never saw. The split is part of the API: :func:`vocabulary` returns a family's
:class:`Vocab`, and :meth:`Vocab.owns` tells whether a value could have come from it (the tests check that
the two families share nothing and that held-out variants use only held-out values). Each family's raw
material is a data file, ``hat_env/hsa/families/FAMILY.yaml``, read once on first use (schema and loading:
:mod:`hat_env.hsa.vocab_file`); this module builds the cased name pools and the ownership tables from it.

Casing styles per family: tool names ``train`` snake_case / camelCase, ``heldout`` PascalCase / kebab-case /
SCREAMING_CASE (no dots: OpenAI-style APIs reject them in function names); parameter, enum and result names
``train`` snake_case / camelCase, ``heldout`` PascalCase / kebab-case / SCREAMING_CASE; scrambled tool names
``train`` ``fn_x1y2z3w4``, ``heldout`` ``XK3Q9ZP1``. Prompt markups: ``train`` markdown / xml, ``heldout`` json /
plain. Skill names: descriptive synonyms (multi-word, so a rename never rewrites an ordinary word), versioned
(``train`` ``NAME-v3``, ``heldout`` ``NAME-202604``) and opaque codes (``train`` ``sk-1a2b3c``, ``heldout``
``zq123-abc``). Id prefixes, wrapper objects, distractor tools, disclosures, forbidden words, feedback and advice
differ too. Both families have English and Chinese wordings (prompt sections, skills, descriptions; held-out
feedback is partly Chinese).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from hat_env.hsa.vocab_file import INTENT_STEPS, PROMO_STEPS, READ_OPS, load_family

#: The vocabulary families. ``train`` for training data, ``heldout`` for evaluation only.
FAMILIES: tuple[str, ...] = ("train", "heldout")

#: Languages of generated wording.
LANGS: tuple[str, ...] = ("en", "zh")


# -- casing ------------------------------------------------------------------------------------------------


def case_words(words: tuple[str, ...] | list[str], style: str) -> str:
    """Join ``words`` in a casing ``style``: ``snake``, ``camel``, ``pascal``, ``kebab``, ``dot`` or ``screaming``."""
    if style == "snake":
        return "_".join(w.lower() for w in words)
    if style == "camel":
        return words[0].lower() + "".join(w[:1].upper() + w[1:].lower() for w in words[1:])
    if style == "pascal":
        return "".join(w[:1].upper() + w[1:].lower() for w in words)
    if style == "kebab":
        return "-".join(w.lower() for w in words)
    if style == "dot":
        return ".".join(w.lower() for w in words)
    if style == "screaming":
        return "_".join(w.upper() for w in words)
    raise ValueError(f"unknown casing style {style!r}")


def _w(phrase: str) -> tuple[str, ...]:
    return tuple(phrase.split())


# -- the Vocab object --------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Vocab:
    """One family's vocabulary (read-only). Build it with :func:`vocabulary`.

    Attributes:
        family: ``train`` or ``heldout``.
        raw: the family's raw tables, read from ``hat_env/hsa/families/FAMILY.yaml`` (the keys and their shapes:
            :class:`hat_env.hsa.vocab_file.FamilyFile`).
        tool_names: every name a canonical operation may get (``op -> names``), before scrambling.
        values: kind -> every finite value of that kind the family can produce (see :meth:`owns`).
        patterns: kind -> patterns of the generated values (scrambled names, codes, versioned names).
        tables: cased name pools the transforms pick from (built once, see ``_tables``).

    Raw tables are also readable as attributes (``vocab.markups``, ``vocab.disclosures``...).
    """

    family: str
    raw: dict[str, Any]
    tool_names: dict[str, tuple[str, ...]] = field(default_factory=dict)
    values: dict[str, frozenset[str]] = field(default_factory=dict)
    patterns: dict[str, tuple[re.Pattern[str], ...]] = field(default_factory=dict)

    def __getattr__(self, key: str) -> Any:
        try:
            return self.__dict__["raw"][key]
        except KeyError:
            raise AttributeError(key) from None

    # -- queries -----------------------------------------------------------------------------------------
    def owns(self, kind: str, value: str) -> bool:
        """Whether ``value`` of ``kind`` could have been produced by this family.

        Kinds: ``tool_name``, ``param_name``, ``wrapper``, ``skill_tool_name``, ``skill_tool_param``,
        ``skill_name``, ``prefix``, ``enum_value``, ``result_field``, ``markup``, ``section_title``,
        ``section_id``, ``section_text``, ``tool_description``, ``disclosure``, ``forbidden_word``, ``feedback``,
        ``skill_description``, ``skill_heading``.
        """
        if value in self.values.get(kind, ()):
            return True
        return any(p.fullmatch(value) for p in self.patterns.get(kind, ()))

    def kinds(self) -> list[str]:
        """The kinds :meth:`owns` knows."""
        return sorted(set(self.values) | set(self.patterns))


def _casings(phrases: tuple[str, ...], styles: tuple[str, ...]) -> set[str]:
    return {case_words(_w(p), s) for p in phrases for s in styles}


def _build(family: str, raw: dict[str, Any]) -> Vocab:
    tool_names: dict[str, tuple[str, ...]] = {}
    for op in READ_OPS:
        names = [case_words(_w(v) + _w(n), s) for v in raw["read_verbs"] for n in raw["tool_nouns"][op]
                 for s in raw["tool_casings"]]
        tool_names[op] = tuple(dict.fromkeys(names))
    for op, (verbs, nouns) in raw["action_words"].items():
        names = [case_words(_w(v) + _w(n), s) for v in verbs for n in nouns for s in raw["tool_casings"]]
        tool_names[op] = tuple(dict.fromkeys(names))
    values: dict[str, set[str]] = {k: set() for k in (
        "tool_name", "param_name", "wrapper", "skill_tool_name", "skill_tool_param", "skill_name", "prefix",
        "enum_value", "result_field", "markup", "section_title", "section_id", "section_text", "tool_description",
        "disclosure", "forbidden_word", "feedback", "skill_description", "skill_heading")}
    for names in tool_names.values():
        values["tool_name"].update(names)
    for words, _desc, params in raw["distractors"]:
        values["tool_name"].update(case_words(_w(words), s) for s in raw["tool_casings"])
        values["param_name"].update(params)
    for phrases in raw["params"].values():
        values["param_name"].update(_casings(phrases, raw["param_casings"]))
    values["wrapper"].update(_casings(raw["wrappers"], raw["param_casings"]))
    values["skill_tool_name"].update(raw["skill_tool_names"])
    values["skill_tool_param"].update(raw["skill_tool_params"])
    for names in raw["skill_names"].values():
        values["skill_name"].update(names)
    for pres in raw["prefixes"].values():
        values["prefix"].update(pres)
    for phrases in raw["enum_values"].values():
        values["enum_value"].update(_casings(phrases, raw["param_casings"]))
    for phrases in raw["results"].values():
        values["result_field"].update(_casings(phrases, raw["param_casings"]))
    values["markup"].update(raw["markups"])
    for lang in LANGS:
        for titles in raw["section_titles"][lang].values():
            values["section_title"].update(titles)
            values["section_title"].update(t.upper() for t in titles)
        for texts in raw["section_texts"][lang].values():
            values["section_text"].update(texts)
        st = raw["skill_text"][lang]
        values["skill_heading"].update(st["headings"].values())
    for ids in raw["section_ids"].values():
        values["section_id"].update(ids)
    for descs in raw["tool_descriptions"].values():
        values["tool_description"].update(descs)
    values["tool_description"].update(d for _w_, d, _p in raw["distractors"])
    values["disclosure"].update(raw["disclosures"])
    values["forbidden_word"].update(raw["forbidden_words"])
    for texts in raw["feedback"].values():
        values["feedback"].update(texts)
    ver_fmt, ver_re = raw["skill_version"]
    code_re = raw["skill_code"][1]
    desc_names = values["skill_name"]

    class _Versioned:
        """Matches versioned names whose base is a descriptive name of this family."""

        @staticmethod
        def fullmatch(v: str) -> bool:
            m = ver_re.fullmatch(v)
            return bool(m and m.group("base") in desc_names)

    patterns: dict[str, tuple[Any, ...]] = {
        "tool_name": (raw["scramble"][1],),
        "skill_name": (_Versioned(), code_re),
        "param_name": (raw["param_code"][1],),
    }
    skill_desc_res = []
    for lang in LANGS:
        st = raw["skill_text"][lang]
        for key in ("desc_reply", "desc_strategy"):
            skill_desc_res.append(re.compile(re.escape(st[key]).replace(re.escape("{topics}"), ".+")
                                             .replace(re.escape("{text}"), ".+"), re.S))
        values["skill_description"].add(st["desc_promo"])
    patterns["skill_description"] = tuple(skill_desc_res)
    vocab = Vocab(family, raw, tool_names, {k: frozenset(v) for k, v in values.items()}, patterns)
    vocab.__dict__["tables"] = _tables(raw, tool_names)
    for key, value in raw.items():  # raw tables as plain attributes: the transforms read them in hot loops
        vocab.__dict__.setdefault(key, value)
    return vocab


def _tables(raw: dict[str, Any], tool_names: dict[str, tuple[str, ...]]) -> dict[str, Any]:
    """Precomputed, cased name pools (what the transforms pick from): ``tools[op][style]``,
    ``params[canon][style]``, ``results[field][style]``, ``enum[value][style]``, ``wrappers[style]``,
    ``distractors[style]`` (``(name, description, parameters)``)."""
    tstyles, pstyles = raw["tool_casings"], raw["param_casings"]
    tools: dict[str, dict[str, tuple[str, ...]]] = {}
    for op in tool_names:
        if op in raw["action_words"]:
            verbs, nouns = raw["action_words"][op]
        else:
            verbs, nouns = raw["read_verbs"], raw["tool_nouns"][op]
        tools[op] = {s: tuple(dict.fromkeys(case_words(_w(v) + _w(n), s) for v in verbs for n in nouns))
                     for s in tstyles}

    def cased(pools: dict[str, tuple[str, ...]]) -> dict[str, dict[str, tuple[str, ...]]]:
        return {k: {s: tuple(dict.fromkeys(case_words(_w(p), s) for p in phrases)) for s in pstyles}
                for k, phrases in pools.items()}

    return {
        "tools": tools,
        "params": cased(raw["params"]),
        "results": cased(raw["results"]),
        "enum": cased(raw["enum_values"]),
        "wrappers": {s: tuple(case_words(_w(p), s) for p in raw["wrappers"]) for s in pstyles},
        "distractors": {s: tuple((case_words(_w(w), s), d, p) for w, d, p in raw["distractors"]) for s in tstyles},
    }


@lru_cache(maxsize=None)
def vocabulary(family: str) -> Vocab:
    """The :class:`Vocab` of ``family`` (``train`` or ``heldout``), read from its file and built once per process.

    Raises:
        ValueError: an unknown family (the message names the valid ones).
        hat_env.yamlio.FileError: the family's file is missing or broken (file, key, line, reason).
    """
    if family not in FAMILIES:
        raise ValueError(f"unknown HSA family {family!r}; families: {list(FAMILIES)}")
    return _build(family, load_family(family))


__all__ = ["FAMILIES", "INTENT_STEPS", "LANGS", "PROMO_STEPS", "Vocab", "case_words", "vocabulary"]
