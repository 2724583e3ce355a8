"""jieba and rapidfuzz, imported on first use (jieba builds its dictionary in ~0.6 s; neither may load at
``import hat_env``)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from hat_env.text.cache import short_text_cache


@lru_cache(maxsize=1)
def _jieba() -> Any:
    """The jieba module, its dictionary log quiet."""
    import logging

    import jieba

    jieba.setLogLevel(logging.WARNING)
    return jieba


@short_text_cache(maxsize=8192)
def segment(text: str) -> tuple[str, ...]:
    """Chinese word segmentation of ``text`` (jieba, precise mode), without whitespace tokens."""
    return tuple(w for w in _jieba().lcut(text) if w.strip())


def jieba_freq(word: str) -> int:
    """How often ``word`` occurs in jieba's dictionary (0: not a word of it)."""
    jb = _jieba()
    jb.initialize()
    return int(jb.dt.FREQ.get(word) or 0)


def fuzz() -> Any:
    """The ``rapidfuzz.fuzz`` module (``ratio``, ``partial_ratio``, ``token_set_ratio``...)."""
    from rapidfuzz import fuzz as f

    return f


__all__ = ["fuzz", "jieba_freq", "segment"]
