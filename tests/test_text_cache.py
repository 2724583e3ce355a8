"""The text caches keep only short texts, so a stream of long distinct inputs cannot grow them to gigabytes, and a
long text reads the same as it would cached."""

from __future__ import annotations

import random

from hat_env.sim.rule_text import prepare
from hat_env.text.cache import CACHE_CHARS, short_text_cache
from hat_env.text.normalize import _normalize, normalize


def _long(seed: int) -> str:
    r = random.Random(seed)
    return "".join(r.choice("这款防晒霜价格八十九元 SPF50 two-year ") for _ in range(CACHE_CHARS + 200))


def test_long_texts_are_not_kept_and_read_the_same() -> None:
    _normalize.cache_clear()
    before = _normalize.cache_info().currsize
    texts = [_long(s) for s in range(20)]
    outs = [normalize(t, "zh_CN") for t in texts]
    assert _normalize.cache_info().currsize == before  # none of the 20 long texts was kept
    assert [normalize(t, "zh_CN") for t in texts] == outs  # computed again, the same
    short = "防晒霜八十九元"
    normalize(short, "zh_CN")
    assert _normalize.cache_info().currsize == before + 1  # a short one is kept
    assert normalize(short, "zh_CN") is normalize(short, "zh_CN")
    assert prepare(texts[0]).mapped.text == prepare(texts[0]).mapped.text


def test_short_text_cache_passes_extra_arguments_and_clears() -> None:
    calls: list[tuple[str, int]] = []

    @short_text_cache(maxsize=8, max_chars=5)
    def f(text: str, k: int) -> str:
        calls.append((text, k))
        return text * k

    assert f("ab", 2) == f("ab", 2) == "abab"
    assert f("abcdef", 1) == f("abcdef", 1) == "abcdef"
    assert calls == [("ab", 2), ("abcdef", 1), ("abcdef", 1)]
    f.cache_clear()
    f("ab", 2)
    assert calls[-1] == ("ab", 2) and len(calls) == 4
