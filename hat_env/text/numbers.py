"""Numbers written as words, turned into digits with a map back to the original.

- Chinese numerals (``三百六十五`` -> ``365``, ``两`` -> ``2``, ``一年半`` -> ``1.5年``, ``百分之十五`` -> ``15%``)
  through cn2an, run by run, so each run keeps its original span. Words that hold a numeral character but are
  not numbers (``一起``, ``一定``, ``十分``) stay as written (the list is data: ``data/numbers.yaml``).
- English and Spanish number words (``ninety-nine`` -> ``99``, ``a hundred and twenty-nine`` -> ``129``,
  ``two-year`` -> ``2-year``, ``half an hour`` -> ``0.5 hour``) through text2num's ``alpha2digit``, run by run.
  A spoken price (``forty-nine ninety-nine``, ``tres noventa y cinco``: a number followed directly by a two-digit
  number, both in words) becomes ``49.99`` in the languages whose data sets ``spoken_price``.
- Per-language ``rewrites`` (data): regex -> template, applied after the words are digits (``29 euros con 90`` ->
  ``29.90 euros``, ``litro y medio`` -> ``1.5 litro``), each keeping the map back to the original span.

cn2an and text2num are imported on first use.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from hat_env.text.offsets import Mapped

_DATA = Path(__file__).with_name("data") / "numbers.yaml"


@lru_cache(maxsize=1)
def number_words() -> dict[str, Any]:
    """The number-word vocabulary (``data/numbers.yaml``), loaded once."""
    with _DATA.open(encoding="utf-8") as fh:
        data = yaml.safe_load(fh)
    if not isinstance(data, dict):
        raise ValueError(f"{_DATA}: expected a mapping of languages")
    return data


# --- Chinese ---------------------------------------------------------------------------------------------


@lru_cache(maxsize=1)
def _zh_tables() -> tuple[re.Pattern[str], re.Pattern[str] | None]:
    """The numeral-run regex and the kept-words regex."""
    zh = number_words()["zh"]
    d = re.escape(zh["digits"])
    run = re.compile(rf"百分之(?P<pct>[{d}点]+)|(?P<num>(?:\d+(?:\.\d+)?)?[{d}]+(?:点[{d}]+)?)")
    keep = sorted(zh.get("keep") or [], key=len, reverse=True)
    keep_rx = re.compile("|".join(re.escape(w) for w in keep)) if keep else None
    return run, keep_rx


_ZH_SMALL = set("零〇一二两俩三四五六七八九十")
#: single digits as a pair of neighbours say "two or three" ("两三个小时", "三五天", "七八成"): a range, not 23
_ZH_DIGIT = {"一": 1, "二": 2, "两": 2, "俩": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}


def _zh_pair(g: str) -> str | None:
    """A run of two neighbouring single digits ("两三", "三四", "七八"; also "三五", "a few") as the range
    ``"2-3"``; ``None`` for any other run ("二十", "五五" are numbers)."""
    if len(g) != 2 or g[0] not in _ZH_DIGIT or g[1] not in _ZH_DIGIT:
        return None
    a, b = _ZH_DIGIT[g[0]], _ZH_DIGIT[g[1]]
    return f"{a}-{b}" if b == a + 1 or (a, b) == (3, 5) else None


def _cn2an(s: str) -> str | None:
    """One Chinese numeral run as digits (cn2an), or ``None``."""
    import cn2an  # lazy: ~0.5 s on first import

    s = s.replace("俩", "两")
    try:
        v = cn2an.cn2an(s, "smart")
    except (ValueError, KeyError, IndexError, TypeError):
        return None
    if isinstance(v, float) and v.is_integer() and "点" not in s:
        v = int(v)
    return str(v)


def zh_numerals(m: Mapped) -> Mapped:
    """Replace Chinese numeral runs by digits (``二十四个月`` -> ``24个月``; ``一年半`` -> ``1.5年``), then apply the
    zh ``rewrites`` of ``data/numbers.yaml`` (``1米8`` -> ``1.8米``)."""
    return _rewrites(_zh_numerals(m), _zh_rewrites())


@lru_cache(maxsize=1)
def _zh_rewrites() -> tuple[tuple[re.Pattern[str], str], ...]:
    """The compiled zh ``rewrites`` of ``data/numbers.yaml`` (regex -> template, applied after the numerals)."""
    rules = number_words()["zh"].get("rewrites") or ()
    return tuple((re.compile(r["pattern"], re.IGNORECASE), str(r["to"])) for r in rules)


@lru_cache(maxsize=1)
def _zh_half_rx() -> re.Pattern[str]:
    """"Half" after a Chinese numeral's unit: ``个半`` before a time unit (两个半小时), or one of the zh
    ``half_after`` units of ``data/numbers.yaml`` then 半 (一年半, 一斤半, 一米半, 三块半)."""
    units = sorted(number_words()["zh"].get("half_after") or ("年", "个月", "天", "周", "小时"), key=len, reverse=True)
    return re.compile(r"(个)?半(?=[小时天月年周])|(" + "|".join(re.escape(u) for u in units) + ")半")


def _zh_numerals(m: Mapped) -> Mapped:
    """:func:`zh_numerals` without the rewrites."""
    text = m.text
    run, keep_rx = _zh_tables()
    if not any(ch in _ZH_SMALL or ch in "百千万亿半" for ch in text):
        return m
    kept: list[tuple[int, int]] = [k.span() for k in keep_rx.finditer(text)] if keep_rx else []
    pieces: list[tuple[int, int, str]] = []
    for mt in run.finditer(text):
        s, e = mt.span()
        if any(ks < e and s < ke for ks, ke in kept):
            continue
        if mt.group("pct") is not None:
            v = _cn2an(mt.group("pct"))
            if v is not None:
                pieces.append((s, e, v + "%"))
            continue
        g = mt.group("num")
        if not any(ch in _ZH_SMALL for ch in g) and not g[:1].isdigit():
            continue  # a bare 百/千/万 is not a number
        v = _zh_pair(g) or _cn2an(g)
        if v is None:
            continue
        # 一年半 / 两个半小时: "half" after the unit or the measure word
        hm = _zh_half_rx().match(text, e)
        if hm is not None and hm.group(1) is not None:
            pieces.append((s, e + 2, f"{float(v) + 0.5:g}个"))
            continue
        if hm is not None and hm.group(2) is not None:
            u = hm.group(2)
            pieces.append((s, e + len(u) + 1, f"{float(v) + 0.5:g}{u}"))
            continue
        pieces.append((s, e, v))
    m2 = m.replace(pieces)
    # 半年 / 半个月 / 半小时 standing alone
    half = [(h.start(), h.start() + 1, "0.5") for h in re.finditer(r"(?<![\d.])(?<!\d个)半(?=个?(?:小时|天|月|年))", m2.text)]
    return m2.replace(half) if half else m2


# --- English and Spanish -----------------------------------------------------------------------------------

_TOKEN = re.compile(r"[A-Za-zÀ-ÿ]+|\d+(?:\.\d+)?|\S")


@lru_cache(maxsize=4)
def _lang(lang: str) -> dict[str, Any]:
    """The compiled word lists of ``lang``."""
    d = number_words().get(lang)
    if d is None:
        raise ValueError(f"no number words for language {lang!r}")
    return {
        "words": frozenset(w.lower() for w in d["words"]),
        "joiners": frozenset(w.lower() for w in d.get("joiners") or ()),
        "scale": frozenset(w.lower() for w in d.get("scale_words") or ()),
        "not_after": frozenset(w.lower() for w in d.get("not_number_after") or ()),
        "not_before": frozenset(w.lower() for w in d.get("not_number_before") or ()),
        "article": frozenset(w.lower() for w in d.get("article_words") or ()),
        "article_count_before": frozenset(w.lower() for w in d.get("article_count_before") or ()),
        "article_count_after": frozenset(w.lower() for w in d.get("article_count_after") or ()),
        "article_copula": frozenset(w.lower() for w in d.get("article_copula") or ()),
        "article_copula_units": frozenset(w.lower() for w in d.get("article_copula_units") or ()),
        "half": str(d.get("half") or ""),
        "spoken_price": bool(d.get("spoken_price")),
        "spoken_block": tuple(f" {w.lower()} " for w in d.get("spoken_price_not_with") or ()),
        "rewrites": tuple((re.compile(r["pattern"], re.IGNORECASE), str(r["to"])) for r in d.get("rewrites") or ()),
        "less_a_cent": tuple(re.compile(p, re.IGNORECASE) for p in d.get("less_a_cent") or ()),
    }


@lru_cache(maxsize=4)
def _any_word(lang: str) -> re.Pattern[str]:
    """One regex finding any number word of ``lang`` (a fast test before the tokeniser runs)."""
    L = _lang(lang)
    words = sorted(L["words"] | ({L["half"]} if L["half"] else set()), key=len, reverse=True)
    return re.compile(r"(?<![a-zà-ÿ])(?:" + "|".join(re.escape(w) for w in words) + r")(?![a-zà-ÿ])")


def _alpha2digit(s: str, lang: str) -> str:
    """text2num's ``alpha2digit`` on one run (every number word, however small)."""
    from text_to_num import alpha2digit  # lazy

    try:
        return alpha2digit(s, lang, threshold=0)
    except (ValueError, KeyError, IndexError):
        return s


_SPOKEN_PRICE = re.compile(r"^(\d{1,4}) ([1-9]\d)$")


def word_numbers(m: Mapped, lang: str = "en") -> Mapped:
    """Replace runs of number words by digits (``ninety-nine`` -> ``99``; ``two-year`` -> ``2-year``;
    ``forty-nine ninety-nine`` -> ``49.99``; ``half an hour`` -> ``0.5 hour``; ``two and a half`` -> ``2.5``).

    Args:
        m: the text so far.
        lang: ``"en"`` or ``"es"`` (the word lists of ``data/numbers.yaml``).
    """
    L = _lang(lang)
    words, joiners, scale = L["words"], L["joiners"], L["scale"]
    text = m.text
    low = text.lower()
    if not _any_word(lang).search(low):
        return _less_a_cent(_rewrites(m, L["rewrites"]), L["less_a_cent"])
    toks = [(t.group().lower(), t.start(), t.end()) for t in _TOKEN.finditer(text)]
    pieces: list[tuple[int, int, str]] = []
    i = 0
    n = len(toks)
    while i < n:
        w, s, e = toks[i]
        start_ok = w in words or (w in ("a", "an") and i + 1 < n and toks[i + 1][0] in scale)
        if not start_ok or w in joiners:
            i += 1
            continue
        j = i
        last_num = i
        while j + 1 < n:
            nw = toks[j + 1][0]
            if nw in words or (nw in ("a", "an") and j + 2 < n and toks[j + 2][0] in scale):
                j += 1
                last_num = j
            elif nw == "-" and j + 2 < n and toks[j + 2][0] in words and toks[j + 1][1] == toks[j][2]:
                j += 2
                last_num = j
            elif nw in joiners and j + 2 < n and (toks[j + 2][0] in words or toks[j + 2][0] in ("a", "an")):
                j += 1
            else:
                break
        j = last_num
        rs, re_ = toks[i][1], toks[j][2]
        span_words = [t[0] for t in toks[i : j + 1]]
        # "one" as a pronoun: "the blue one", "one of them"
        if span_words == ["one"] and (
            (i > 0 and toks[i - 1][0] in L["not_after"]) or (j + 1 < n and toks[j + 1][0] in L["not_before"])
        ):
            i = j + 1
            continue
        # an article that is also "one" ("es una hidratante"): a number only before a count or unit word ("una
        # semana", "una unidad") or after a stock word ("solo queda una")
        if len(span_words) == 1 and span_words[0] in L["article"] and not (
            (j + 1 < n and toks[j + 1][0] in L["article_count_before"])
            or (i > 0 and toks[i - 1][0] in L["article_count_after"])
        ):
            i = j + 1
            continue
        # after a copula the article names what the product is ("es una sartén", "es una botella estándar"): a
        # number only before a unit word ("es una semana", "es una unidad por pedido")
        if len(span_words) == 1 and span_words[0] in L["article"] and i > 0 and toks[i - 1][0] in L["article_copula"] \
                and not (j + 1 < n and toks[j + 1][0] in L["article_copula_units"]):
            i = j + 1
            continue
        raw = text[rs:re_]
        src = re.sub(r"(?i)\b(a|an)\s+(?=(?:%s)\b)" % "|".join(scale or ("hundred",)), "one ", raw) if scale else raw
        out = _alpha2digit(src, lang).strip()
        if not re.search(r"\d", out):
            i = j + 1
            continue
        sp = _SPOKEN_PRICE.match(out)
        if sp is not None and L["spoken_price"] and not any(b in f" {raw.lower()} " for b in L["spoken_block"]):
            out = f"{sp.group(1)}.{sp.group(2)}"
        pieces.append((rs, re_, out))
        i = j + 1
    m2 = m.replace(pieces)
    m2 = _halves(m2, L["half"]) if L["half"] else m2
    return _less_a_cent(_rewrites(m2, L["rewrites"]), L["less_a_cent"])


def _rewrites(m: Mapped, rules: tuple[tuple[re.Pattern[str], str], ...]) -> Mapped:
    """Apply a language's ``rewrites`` (compiled pattern, template) in order, each over the whole text.

    Args:
        m: the text with number words already digits.
        rules: the compiled rewrites of the language (``data/numbers.yaml``).

    Returns:
        The rewritten text, mapped back to the original.
    """
    for rx, to in rules:
        pieces = [(x.start(), x.end(), x.expand(to)) for x in rx.finditer(m.text)]
        if pieces:
            m = m.replace(pieces)
    return m


def _less_a_cent(m: Mapped, rules: tuple[re.Pattern[str], ...]) -> Mapped:
    """``30 dollars minus a penny`` -> ``29.99 dollars``: an amount said as a whole number less one cent.

    Args:
        m: the text with number words already digits.
        rules: the language's ``less_a_cent`` patterns (group 1: the whole amount; group 2, optional: the currency
            words kept after the result).

    Returns:
        The rewritten text, mapped back to the original.
    """
    for rx in rules:
        pieces = []
        for x in rx.finditer(m.text):
            v = int(x.group(1))
            if v < 1:
                continue
            unit = x.group(2) if rx.groups >= 2 and x.group(2) else ""
            pieces.append((x.start(), x.end(), f"{v - 0.01:.2f}{unit}"))
        if pieces:
            m = m.replace(pieces)
    return m


def _halves(m: Mapped, half: str) -> Mapped:
    """``2 and a half`` -> ``2.5``; ``half an hour`` / ``half a year`` -> ``0.5 hour`` / ``0.5 year``."""
    t = m.text
    if half not in t.lower():
        return m
    pieces: list[tuple[int, int, str]] = []
    for h in re.finditer(rf"(?i)\b(\d+) and a {half}\b|\b{half} an? (?=\w)|\ba {half}\b", t):
        if h.group(1) is not None:
            pieces.append((h.start(), h.end(), f"{int(h.group(1)) + 0.5:g}"))
        elif h.group().lower().startswith(half):
            pieces.append((h.start(), h.end(), "0.5 "))
    return m.replace(pieces) if pieces else m


__all__ = ["number_words", "word_numbers", "zh_numerals"]
