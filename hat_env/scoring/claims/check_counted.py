"""Chinese counts of a thing the product's title or spec values count ("6个杯子" where the set holds "4个品茗杯";
"一壶六杯" for a title "一壶四杯"): the thing is named by its head, the noun's last character ("品茗杯", "茶杯" and
"杯子" are all 杯), read from the data's own words, never from a list.

A count is true when it is the data's count of a thing of that head, or the sum of them ("5个杯子" for 4个品茗杯 and
1个公道杯); another number is false. A count of one (an article more often than a count), a stock, purchase or
bundle clause, a question and a thing the data counts nowhere say nothing here.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from hat_env.text import normalize

if TYPE_CHECKING:
    from hat_env.scoring.claims.read import Reading

#: measure words between a count and its noun ("4个品茗杯", "6只碗"); a noun may also follow bare ("1壶4杯").
_MEASURE = "个只件套片瓶盒袋支条双张块根包枚"
#: a count, an optional measure word, then up to four Chinese characters (the noun and what follows it)
_COUNT = re.compile(r"(?<![\d.])(\d+)\s?([%s]?)([\u4e00-\u9fff]{1,4})" % _MEASURE)
#: heads that are units, times or money, not things ("12个月", "3个小时"): the number checks read those
_NOT_THINGS = frozenset("月天年日周时分秒克斤升码号度寸米次倍元块毛岁档级层")
#: a rate before a count ("每天两粒", "一次3片", "一日两粒": number words are digits by now, "1日2粒"): a dose,
#: not how many the product holds
_RATE = re.compile(r"每[天日次顿餐人]?|(?<![\d.])[一1][次天日顿]|[天日]服")
#: what may follow a noun's head and end the noun ("杯子", "杯每个", "杯和...")
_AFTER_HEAD = frozenset("子儿每的和与都是也还各共就哦呢呀啊")


def _data_counts(texts: list[str], locale: str) -> list[tuple[int, str]]:
    """``(count, noun)`` for each count of a thing in the data texts (a noun of one to four characters after the
    count and its measure word, up to a mark or another number)."""
    out: list[tuple[int, str]] = []
    for text in texts:
        for x in _COUNT.finditer(normalize(text, locale).text):
            noun = x.group(3) if x.group(2) else x.group(3)[:1]  # "1壶4杯": a bare noun is one character
            if noun[-1] not in _NOT_THINGS and not (len(noun) == 1 and noun in _MEASURE):
                out.append((int(x.group(1)), noun))
    return out


def _head_at(s: str, heads: set[str]) -> str | None:
    """The head of the noun ``s`` starts with: a character of ``heads`` within its first four characters that ends
    it (the text's end or a word that follows a noun: "杯子", "杯每个"); ``None`` when the noun ends in another."""
    for k, ch in enumerate(s[:4]):
        if ch in heads and (k + 1 == len(s) or s[k + 1] in _AFTER_HEAD):
            return ch
    return None


def read_counted_things(r: "Reading") -> None:
    """Record a claim for each Chinese count of a thing the product's title or spec values count: true when it is
    one of the data's counts of things of that head (or their sum), false otherwise."""
    if r.vocab.lang != "zh":
        return
    for x in _COUNT.finditer(r.text):
        n = int(x.group(1))
        if n <= 1 or r.in_mention(x.start(), x.end(1)) or (not x.group(2) and x.group(3)[0] in _MEASURE):
            continue  # an article; a link's number ("7号主食罐"); a bare measure word ("一套6个") counts the product
        if _RATE.search(r.text, max(r.clauses[r.clause_at(x.start())].start, x.start() - 8), x.start()):
            continue  # "每天两粒": a dose, not the pack's count
        i = r.clause_at(x.start())
        if any(q.dim == "money" and r.clauses[i].start <= q.start < r.clauses[i].end for q in r.quantities):
            continue  # "两套一共134.3元": how many are bought for a price
        if r.clauses[i].question or any(r.cfind(w, i) for w in ("stock_context", "in_stock", "low_stock",
                                                                  "buy_words", "bundle_words")):
            continue
        pids, _how = r.subject(x.start(), i)
        pfs = r.pfs(pids)
        verdicts: list[tuple[bool, str, list[int], str]] = []
        for pf in pfs:
            p = pf.product
            titled = _data_counts([p.title], r.vocab.locale)
            specced = _data_counts([str(v) for v in p.specs.values()], r.vocab.locale)
            heads = {noun[-1] for _n, noun in titled + specced}
            head = _head_at(x.group(3), heads)
            if head is None:
                continue
            in_spec = [c for c, noun in specced if noun.endswith(head)]
            mine = [c for c, noun in titled if noun.endswith(head)] + in_spec
            verdicts.append((n in mine or n == sum(in_spec), pf.pid, sorted(set(mine)), head))
        if not verdicts:
            continue
        heads_said = {h for ok, _p, _m, h in verdicts}
        s, e = x.start(), x.start(3) + min(x.group(3).index(h) for h in heads_said) + 1
        orig = r.m.original(s, e)
        good = [pid for ok, pid, _m, _h in verdicts if ok]
        if good:
            r.claim(s, e, tuple(good), "number", float(n), "count", True, "true", "",
                    [a for pid in good for a in (("spec:unknown", pid), ("spec:*", pid))])
        else:
            _ok, pid, mine, _h = verdicts[0]
            r.claim(s, e, (pid,), "number", float(n), "count", True, "false",
                    f"{r.label(pid)}: '{orig}' but the data counts {', '.join(str(m) for m in mine)}",
                    [("spec:unknown", pid), ("spec:*", pid)])


__all__ = ["read_counted_things"]
