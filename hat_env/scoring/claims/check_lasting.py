"""How long a deal is said to last: "runs all stream long", "valid till the very end", "整场有效" (until the stream
ends: some running deal of the kind the clause names must end no earlier than the stream), and "valid all week",
"明天还有", "toda la semana" (beyond the stream: no campaign's data says so). The words are the claims
vocabulary's ``deal_lasts_stream`` and ``deal_lasts_beyond`` (``vocab/<locale>.yaml``); the deal's kind is the
clause's flash-sale or coupon words, else any running deal."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hat_env.scoring.claims.check_common import claim_group, negated_after, claim_state

if TYPE_CHECKING:
    from hat_env.scoring.claims.read import Reading

#: the campaign types a clause's deal words name
_KINDS = (("flash_words", ("flash_sale",)), ("coupon_words", ("coupon", "code")), ("bundle_words", ("bundle",)))


def deal_lasting(r: "Reading", i: int) -> None:
    """Judge a deal's said duration in clause ``i`` (see the module's docstring)."""
    st = r.stext(i)
    kinds: tuple[str, ...] = ()
    for name, ks in _KINDS:
        if r.vocab.find(name, st) is not None:
            kinds += ks
    if not kinds and r.vocab.find("deal_words", st) is None:
        return  # "I'll be here all stream long": no deal's duration
    c0 = r.clauses[i].start
    for name, beyond in (("deal_lasts_beyond", True), ("deal_lasts_stream", False)):
        m = r.cfind(name, i)
        if m is None:
            continue
        s, e = c0 + m.start(), c0 + m.end()
        if not claim_state(r, i, s) or negated_after(r, i, e):
            return
        pids, _ = claim_group(r, i, s)
        pfs = r.pfs(pids)
        if not pfs:
            return
        camps = [c for pf in pfs for c in pf.campaigns_active if not kinds or c.type in kinds]
        end = r.room.scenario.duration_s
        ok = not beyond and any(c.end_s >= end for c in camps)
        why = "no campaign runs past the stream" if beyond else (
            f"it ends at {min(c.end_s for c in camps):g} s, before the stream ends at {end:g} s" if camps
            else "no such deal is running")
        r.claim(s, e, pids, "deal_duration", m.group(), "", True, "true" if ok else "false",
                "" if ok else f"{r.label(pfs[0].pid)}: '{r.m.original(s, e)}' but {why}",
                [("campaign", pf.pid) for pf in pfs] if ok else [])
        return


__all__ = ["deal_lasting"]
