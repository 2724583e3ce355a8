"""The split of ``hat_env.understanding.lexicon`` (tidy19): every name other modules import from it is still there,
the compiled vocabulary is still cached per catalog vocabulary, and the pieces stay within the size limit."""

from __future__ import annotations

from pathlib import Path

import hat_env.understanding.lexicon as lexicon_module
from hat_env.understanding.lexicon_build import build_lexicon
from hat_env.understanding.lexicon_fields import Lexicon


def test_every_old_name_is_importable_from_lexicon() -> None:
    """The names of the old module's ``__all__`` (imported across hat_env/ and tests/) are re-exported."""
    for name in ("Lexicon", "Role", "SoundTables", "alternation", "lexicon", "locale_words", "sound_tables",
                 "trie_pattern"):
        assert name in lexicon_module.__all__
        assert getattr(lexicon_module, name) is not None
    assert lexicon_module.Lexicon is Lexicon


def test_the_default_lexicon_is_built_once_and_shared() -> None:
    """``lexicon()`` and ``lexicon(default_vocabulary())`` return the one cached object."""
    from hat_env.sim.vocabulary import default_vocabulary

    first = lexicon_module.lexicon()
    assert lexicon_module.lexicon() is first
    assert lexicon_module.lexicon(default_vocabulary()) is first
    assert isinstance(first, Lexicon) and first.vocabulary_key == default_vocabulary().key


def test_a_room_vocabulary_gets_its_own_cached_lexicon() -> None:
    """A vocabulary with one more attribute ("grind size", labelled "研磨度") compiles a lexicon of its own that reads
    the new words; the default lexicon (the near miss) does not read them."""
    from hat_env.sim.vocabulary import AttributeSpec, default_vocabulary, resolve_vocabulary

    spec = default_vocabulary().spec
    attrs = {**spec.attributes, "grind_size": AttributeSpec(labels={"zh_CN": "研磨度"})}
    vocab = resolve_vocabulary(spec.model_copy(update={"attributes": attrs}))
    own = lexicon_module.lexicon(vocab)
    assert own is lexicon_module.lexicon(vocab)
    assert own is not lexicon_module.lexicon()
    assert ("spec", "grind_size") in own.roles["grind size"] and ("spec", "grind_size") in own.roles["研磨度"]
    assert "grind_size" not in lexicon_module.lexicon().attributes
    assert ("spec", "grind_size") not in lexicon_module.lexicon().roles.get("研磨度", ())
    rebuilt = build_lexicon(vocab)  # the builder alone gives an equal compilation
    assert rebuilt.roles == own.roles and rebuilt.vocabulary_key == own.vocabulary_key


def test_the_lexicon_modules_stay_small() -> None:
    """Each piece of the split stays under 400 lines."""
    folder = Path(lexicon_module.__file__).parent
    for name in ("lexicon.py", "lexicon_build.py", "lexicon_fields.py", "lexicon_parts.py"):
        assert len((folder / name).read_text(encoding="utf-8").splitlines()) < 400, name
