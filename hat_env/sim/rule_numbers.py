"""Numbers as compliance rules read them: prices (``parse_price``, a decimal comma in ``es_ES``), counts in digits or
Chinese numerals (``parse_count``), a cited price in numerals, and the numbers a grant claim states.

Split out of :mod:`hat_env.sim.compliance` (one concern: reading numbers); the names stay importable from there.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hat_env.sim.rule_text import ReplyText

_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")
#: A number bound to a grant claim just before it ("40元券已发", "$10 coupon sent") or just after it ("便宜20").
_NUM_BEFORE = re.compile(r"(\d[\d,]*(?:\.\d+)?)\s*(?:元|块钱?|%|％|折|美元|dollars?|bucks)?\s*(?:的|off)?\s*$", re.I)
_NUM_AFTER = re.compile(r"^\s*(?:[$¥€£]|价值)?\s*(\d[\d,]*(?:\.\d+)?)")


def _grant_numbers(reply: ReplyText, m: Any) -> list[float]:
    """The numbers a grant claim states: inside the match, and one bound to it just before or after."""
    text = reply.text
    cs, ce = reply.clause(m.start())
    found = _NUMBER.findall(m.group())
    before = _NUM_BEFORE.search(text[cs : m.start()])
    if before:
        found.append(before.group(1))
    after = _NUM_AFTER.search(text[m.end() : max(ce, m.end())])
    if after:
        found.append(after.group(1))
    return [float(x.replace(",", "")) for x in found]


def _price_value(s: str | None) -> float | None:
    """A cited price in digits ("599", "1,299.00") or Chinese numerals ("五百九十九", read as :mod:`hat_env.text`
    reads them), else ``None``."""
    if not s:
        return None
    t = s.replace(",", "")
    if not t[:1].isdigit():
        from hat_env.text import Mapped  # lazy: only a price in numerals needs the number tables
        from hat_env.text.numbers import zh_numerals

        t = zh_numerals(Mapped.of(t.replace("点", "."))).text
    try:
        return float(t)
    except ValueError:
        return None


def parse_price(s: str, locale: str = "") -> float:
    """A price as a rule matched it: ``"1,299.00"`` (decimal point, comma thousands) or, in a locale with a
    decimal comma, ``"39,90"`` / ``"1.299,90"``.

    Raises:
        ValueError: not a number.
    """
    s = s.strip().rstrip(".,")
    from hat_env.text.normalize import _decimal_comma  # the locale file's formats.decimal_sep, as replies are read

    if locale and locale != "any" and _decimal_comma(locale):
        if "," in s:
            return float(s.replace(".", "").replace(",", "."))
        if _THOUSANDS_DOT.fullmatch(s):
            return float(s.replace(".", ""))
        return float(s)  # "39.90" written with a point still reads as written
    return float(s.replace(",", ""))


#: ``1.299`` in a decimal-comma locale: thousands, not a decimal.
_THOUSANDS_DOT = re.compile(r"\d{1,3}(?:\.\d{3})+")


_CN_NUM = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "俩": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}


def parse_count(s: str | None) -> int | None:
    """Parse a count written in digits or Chinese numerals (``"3"``, ``"三"``, ``"十二"``, ``"二十"``).

    Returns:
        The integer, or ``None`` for vague words (``几``) and anything unparseable.
    """
    if not s:
        return None
    s = s.strip().replace(",", "")
    if s.isdigit():
        return int(s)
    if "十" in s:
        head, _, tail = s.partition("十")
        tens = _CN_NUM.get(head, None) if head else 1
        ones = _CN_NUM.get(tail, None) if tail else 0
        if tens is None or ones is None:
            return None
        return tens * 10 + ones
    if len(s) == 1 and s in _CN_NUM:
        return _CN_NUM[s]
    return None
