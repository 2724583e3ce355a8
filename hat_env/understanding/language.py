"""Which language a comment is in, when it is one the parser does not read (anything but Chinese, English and
Spanish): by script (kana, Hangul, Cyrillic...) or, for Latin script, by its function words
(``data/languages.yaml``; the understood languages' markers are in the locale files)."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from hat_env.understanding.lexicon import lexicon

_DATA = Path(__file__).with_name("data") / "languages.yaml"
_HAN = re.compile(r"[\u3400-\u9fff]")
_LATIN_WORD = re.compile(r"[a-zñ]+(?:'[a-z]+)?")
_LETTER = re.compile(r"[^\W\d_]")


@lru_cache(maxsize=1)
def _tables() -> tuple[list[tuple[str, re.Pattern[str]]], dict[str, frozenset[str]], int, int]:
    with _DATA.open(encoding="utf-8") as fh:
        data: Any = yaml.safe_load(fh)
    if not isinstance(data, dict) or not isinstance(data.get("scripts"), dict) or not isinstance(data.get("markers"), dict):
        raise ValueError(f"{_DATA}: expected scripts and markers mappings")
    scripts = []
    for code, ranges in data["scripts"].items():
        try:
            cls = "".join(f"{chr(int(a))}-{chr(int(b))}" for a, b in ranges)
        except (TypeError, ValueError):
            raise ValueError(f"{_DATA}: scripts.{code}: expected [first, last] code point pairs") from None
        scripts.append((str(code), re.compile(f"[{cls}]")))
    markers = {str(k): frozenset(str(w) for w in v) for k, v in data["markers"].items()}
    return scripts, markers, int(data.get("min_chars", 2)), int(data.get("min_markers", 2))


@lru_cache(maxsize=1)
def _written() -> dict[str, re.Pattern[str]]:
    """``written``: code -> a pattern of the accented letters and one-letter words only that language writes (in
    the comment as written, lower-cased: folding drops the accents)."""
    with _DATA.open(encoding="utf-8") as fh:
        data: Any = yaml.safe_load(fh)
    out = {}
    for code, ws in (data.get("written") or {}).items():
        if not isinstance(ws, list) or not all(isinstance(w, str) and w.strip() for w in ws):
            raise ValueError(f"{_DATA}: written.{code}: expected a list of letters or words")
        out[str(code)] = re.compile("|".join(rf"(?<!\w){re.escape(w.strip())}(?!\w)" if len(w.strip()) == 1
                                             else re.escape(w.strip()) for w in ws))
    return out


@lru_cache(maxsize=1)
def _foreign_markers() -> frozenset[str]:
    return frozenset().union(*_tables()[1].values())


@lru_cache(maxsize=1)
def _any_script() -> re.Pattern[str]:
    return re.compile("|".join(rx.pattern for _, rx in _tables()[0]))


def other_language(folded: str, written: str | None = None) -> str | None:
    """The code of the language ``folded`` (a folded comment) is in, when the parser does not read it; ``None``
    for Chinese, English, Spanish, mixed text of those, and anything it cannot tell. ``written``: the comment as
    written, whose letters only one language writes ("ã", a word "é" or "è") count as one marker more."""
    scripts, markers, min_chars, min_markers = _tables()
    if not folded.isascii() and _any_script().search(folded) is not None:
        letters = None
        for code, rx in scripts:
            n = len(rx.findall(folded))
            if n >= min_chars:
                if letters is None:
                    letters = len(_LETTER.findall(folded))
                if n * 4 >= letters:
                    return code
    if not folded.isascii() and _HAN.search(folded):
        return None
    words = set(_LATIN_WORD.findall(folded))
    told = bool(written) and any(rx.search(written.lower()) for rx in _written().values())
    if len(words) < min_markers or len(words & _foreign_markers()) + told < min_markers:
        return None
    own = lexicon().markers
    served = max((len(words & m) for m in own.values()), default=0)
    best, best_n = None, 0
    low = written.lower() if written else ""
    tells = {code: 1 for code, rx in _written().items() if low and rx.search(low) is not None}
    for code, m in markers.items():
        n = len(words & m) + tells.get(code, 0)
        if n > best_n:
            best, best_n = code, n
    if best is not None and best_n >= min_markers and best_n > served:
        return best
    return None


__all__ = ["other_language"]
