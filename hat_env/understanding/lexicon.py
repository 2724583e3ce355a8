"""The comment parser's vocabulary, compiled: every locale file's ``parser`` section (:class:`hat_env.locales
.ParserSpec`) and the spec words and campaign-type words of the room's catalog vocabulary
(:mod:`hat_env.sim.vocabulary`; the default one unless a room declares its own), folded
(:func:`~hat_env.understanding.fold.fold`) and turned into a few precompiled patterns, built on first use and
cached per vocabulary.

A word has one or more *roles*: ``("kind", k)`` an intent keyword, ``("spec", attr)`` a spec word (``attr`` None:
a generic spec question), ``("value", attr)`` a spec value that names its attribute, ``("cond", None)`` a health
condition, ``("qty", None)`` a quantity word, ``("idweak", None)`` an identity word that needs an addressee,
``("addr", None)`` an addressee, ``("deal", type)`` a word for a kind of deal (``bundle``, ``code``: the
vocabulary's ``campaign_words``; it replaces the word's other roles). Every pattern is an alternation of literal words factored into a trie (no
nested quantifiers), so matching is linear in the comment's length.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hat_env.understanding.lexicon_build import build_lexicon as _build
from hat_env.understanding.lexicon_fields import Lexicon
from hat_env.understanding.sounds import SoundTables, sound_tables
from hat_env.understanding.wordpat import Role, alternation, locale_words, trie_pattern

if TYPE_CHECKING:  # pragma: no cover - typing only
    from hat_env.sim.vocabulary import Vocabulary


_DEFAULT: list[Lexicon] = []
_BY_KEY: dict[str, Lexicon] = {}


def lexicon(vocabulary: "Vocabulary | None" = None) -> Lexicon:
    """The compiled vocabulary of every built-in locale with the spec and deal words of ``vocabulary`` (``None``:
    the default catalog vocabulary). Built on first use, then cached per vocabulary (:attr:`Vocabulary.key`)."""
    if vocabulary is None or (_DEFAULT and vocabulary.key == _DEFAULT[0].vocabulary_key):
        if not _DEFAULT:
            from hat_env.sim.vocabulary import default_vocabulary

            _DEFAULT.append(_build(default_vocabulary()))
        return _DEFAULT[0]
    if not _DEFAULT:
        lexicon()
        if vocabulary.key == _DEFAULT[0].vocabulary_key:
            return _DEFAULT[0]
    hit = _BY_KEY.get(vocabulary.key)
    if hit is None:
        if len(_BY_KEY) > 32:
            _BY_KEY.clear()
        hit = _BY_KEY[vocabulary.key] = _build(vocabulary)
    return hit


__all__ = ["Lexicon", "Role", "SoundTables", "alternation", "lexicon", "locale_words", "sound_tables", "trie_pattern"]
