"""The tense of a clause read from its sentence: a deal an earlier clause says comes later ("待会还有秒杀，秒杀价79元"),
a deal another clause says is over ("之前秒杀价339，秒杀已经过了"). Used by the flash-sale claims (check_facts)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hat_env.scoring.claims.read import Reading


def later_in_sentence(r: "Reading", i: int, after: bool = False) -> bool:
    """Whether an earlier clause of clause ``i``'s sentence says a deal comes later and clause ``i`` does not speak
    of now ("待会还有秒杀，秒杀价79元": the second clause is that later sale); with ``after``, a later clause too
    ("下半场有牛仔裤秒杀129元，可以蹲一下": wait for it)."""
    if r.cfind("active_words", i) is not None:
        return False
    sent = r.clauses[i].sentence
    ks = range(len(r.clauses)) if after else range(i)
    return any(k != i and r.clauses[k].sentence == sent and r.cfind("inactive_words", k) is not None for k in ks)


def said_in_sentence(r: "Reading", i: int, words: str) -> bool:
    """Whether another clause of clause ``i``'s sentence holds one of ``words`` (a vocabulary key) and neither it
    nor clause ``i`` speaks of now or of ending soon ("之前秒杀价339，秒杀已经过了": the first clause's sale is the
    ended one; "秒杀还有几秒就结束了" is still on)."""
    if r.cfind("active_words", i) is not None:
        return False
    sent = r.clauses[i].sentence
    return any(k != i and r.clauses[k].sentence == sent and r.cfind(words, k) is not None
               and r.cfind("active_words", k) is None and r.cfind("ending_soon", k) is None
               for k in range(len(r.clauses)))


__all__ = ["later_in_sentence", "said_in_sentence"]
