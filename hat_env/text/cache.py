"""A cache by text that keeps only short texts.

Replies and comments repeat (a hook and the scorer read the same reply; an evaluation grades the same wording many
times), so their normalisations are cached. A long text is rare and its cached form is large (a normalised
:class:`~hat_env.text.offsets.Mapped` keeps two offsets per character: ~200 KB for 3,000 characters), so an
``lru_cache`` keyed by arbitrary text grows to gigabytes under a stream of long, distinct inputs (a fuzzer, a
hostile viewer, a model that rambles). :func:`short_text_cache` caches texts up to ``max_chars`` characters and
computes longer ones each time.
"""

from __future__ import annotations

from functools import lru_cache, wraps
from typing import Any, Callable, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

#: Texts longer than this are not cached (replies the rubric reads are far shorter: a live-room reply is a few
#: hundred characters at most).
CACHE_CHARS = 1024


def short_text_cache(maxsize: int, max_chars: int = CACHE_CHARS) -> Callable[[F], F]:
    """Decorate a function whose first argument is a text: calls with a text of at most ``max_chars`` characters
    go through an ``lru_cache(maxsize)``, longer ones are computed uncached.

    Args:
        maxsize: entries the cache keeps (least recently used first out).
        max_chars: the longest text that is cached.

    Returns:
        The decorator; the decorated function has ``cache_clear`` and ``cache_info`` as ``lru_cache`` gives.
    """

    def deco(fn: F) -> F:
        cached = lru_cache(maxsize=maxsize)(fn)

        @wraps(fn)
        def call(text: str, *args: Any) -> Any:
            return cached(text, *args) if len(text) <= max_chars else fn(text, *args)

        call.cache_clear = cached.cache_clear  # type: ignore[attr-defined]
        call.cache_info = cached.cache_info  # type: ignore[attr-defined]
        return call  # type: ignore[return-value]

    return deco


__all__ = ["CACHE_CHARS", "short_text_cache"]
