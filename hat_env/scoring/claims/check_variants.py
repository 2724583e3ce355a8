"""Stock claims about a variant the product's data lists (``variants``: sizes, colours): "38码有货", "black is
in stock", "Negro / 38 está agotado", "白色 38码还有5件", and selling a sold-out variant.

A clause that names variants of its subject product (by the words of their names: :mod:`hat_env.sim.
room_words`; "38码" names every 38码 variant) is about those variants, not the product as a whole: its in-stock,
sold-out and "only a few" words, its stock counts and its urging to buy are judged here against the variants'
stock now (:meth:`hat_env.sim.catalog.Product.variant_stock`). In stock is true when one of them has stock; sold
out when none has; a count when one of them has that many. A count in a later clause of the same sentence
("白色 38码有货，库存5件") is the variant's too. The variant's words are not spec claims ("黑色" is no colour the
specs lack: the data names it as a variant).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hat_env.scoring.claims.check_common import claim_state, claim_in_clause
from hat_env.sim.room_words import variants_named
from hat_env.text import normalize

if TYPE_CHECKING:
    from hat_env.scoring.claims.facts import ProductFacts  # noqa: F401 - named in the Hit alias
    from hat_env.scoring.claims.read import Reading

#: the claims of the usual readings that a variant clause replaces (counts, availability) or drops (its words)
_REPLACED = frozenset({"availability", "stock"})
_WORD_CLAIMS = ("spec:", "size_code", "label:")

Hit = tuple[int, int, "ProductFacts", list[tuple[str, int]]]  # (start, end, product, [(variant name, stock now)])


def _hits(r: "Reading", i: int, pids: tuple[str, ...] | None = None) -> list[Hit]:
    """The variant mentions of clause ``i`` (normalised spans), each with its product and named variants."""
    c = r.clauses[i]
    ct = r.ctext(i)
    out: list[Hit] = []
    for p in r.room.products:
        if not p.variants or (pids is not None and p.product_id not in pids):
            continue
        pf = r.facts.of(p.product_id)
        now = p.variant_stock(pf.stock)
        names = [normalize(v.name, r.vocab.locale).text for v, _k in now]
        for k, s, e in variants_named(ct, names):
            a, b = c.start + s, c.start + e
            if r.in_mention(a, b):
                continue
            prev = next((h for h in out if h[0] == a and h[1] == b and h[2] is pf), None)
            if prev is not None:
                prev[3].append((now[k][0].name, now[k][1]))
            else:
                out.append((a, b, pf, [(now[k][0].name, now[k][1])]))
    return sorted(out, key=lambda h: h[0])


def variant_clauses(r: "Reading", stated: list[int]) -> set[int]:
    """Judge every stated clause of ``r`` naming variants of its subject product (and counts in later clauses of
    the same sentence); returns those clauses (their product-wide availability readings are replaced)."""
    if not any(p.variants for p in r.room.products):
        return set()
    done: set[int] = set()
    carry: dict[int, Hit] = {}
    for i in stated:
        hits = _hits(r, i)
        if hits:
            pids, _how = r.subject(hits[0][0], i)
            hits = [h for h in hits if h[2].pid in pids] or []
        sent = r.clauses[i].sentence
        if hits:
            done.add(i)
            _judge(r, i, hits)
            carry[sent] = hits[-1]
        elif sent in carry:  # "白色 38码有货，库存5件", "Black / M: grab it now"
            if any(x.attribute == "stock" and claim_in_clause(r, x, i) for x in r.report.claims):
                _counts(r, i, [carry[sent]])
            if _buy(r, i, [carry[sent]]):
                done.add(i)
    return done


def _spec_of_variant(r: "Reading", pf: "ProductFacts", rows: list[tuple[str, int]]) -> list[tuple[str, str | None]]:
    """The spec answers a true stock claim about named variants gives: each asked spec attribute of the product
    whose value lists one of the variants' names ("de +2,0 hay stock" for dioptres "+1,5 / +2,0 / +2,5": the
    viewer asking for +2 learns it exists)."""
    asked = {it.attr for it in r.intents if it.kind == "spec" and it.attr and it.attr != "unknown"}
    out: list[tuple[str, str | None]] = []
    for k in sorted(asked):
        value = normalize(str(pf.product.specs.get(k, "")), r.vocab.locale).text.lower()
        if value and any(normalize(n, r.vocab.locale).text.lower() in value for n, _s in rows):
            out.append((f"spec:{k}", pf.pid))
    return out


def _judge(r: "Reading", i: int, hits: list[Hit]) -> None:
    """Availability words, counts and urging to buy in a clause naming variants (each word belongs to the
    mention before it, else the first)."""
    c = r.clauses[i]
    r.report.claims[:] = [x for x in r.report.claims if not (x.attribute in _REPLACED and claim_in_clause(r, x, i))]
    v = r.vocab
    seen: list[tuple[int, int]] = []
    for name in ("sold_out", "low_stock", "in_stock"):
        for m in r.call(name, i):
            s, e = c.start + m.start(), c.start + m.end()
            if any(a < e and s < b for a, b in seen) or any(h[0] <= s < h[1] for h in hits):
                continue
            seen.append((s, e))
            h = _owner(hits, s)
            pf, rows = h[2], h[3]
            pos = claim_state(r, i, s)
            label = f"{r.label(pf.pid)} {'/'.join(n for n, _k in rows)}"
            if name == "low_stock":
                ok = any(0 < k <= v.low_stock_max for _n, k in rows) if pos else True
                want = "low"
            else:
                want_in = (name == "in_stock") == pos
                want = "in stock" if want_in else "sold out"
                ok = any(k > 0 for _n, k in rows) if want_in else all(k <= 0 for _n, k in rows)
            stock = ", ".join(f"{n} {k}" for n, k in rows)
            keys = [] if name == "low_stock" and not ok else [("stock", pf.pid)]
            if ok and want == "sold out":  # nothing to pay for: saying so answers a price or purchase question
                keys += [("price", pf.pid), ("purchase", pf.pid)]
            if ok:
                keys += _spec_of_variant(r, pf, rows)
            r.claim(s, e, (pf.pid,), "availability", want, "variant", pos, "true" if ok else "false",
                    "" if ok else f"{label}: '{r.m.original(s, e)}' but its stock is {stock}", keys)
    _counts(r, i, hits)
    _buy(r, i, hits)


def _buy(r: "Reading", i: int, hits: list[Hit]) -> bool:
    """Urging to buy in clause ``i`` a variant named (there or earlier in the sentence) that is sold out: false
    (it voids a purchase answer, as :func:`.check_facts.read_sold_out_sale` does). Returns whether the clause urges to
    buy at all."""
    c = r.clauses[i]
    m = r.cfind("buy_words", i)
    if m is None or not claim_state(r, i, c.start + m.start()):
        return False
    s, e = c.start + m.start(), c.start + m.end()
    h = _owner(hits, s)
    if all(k <= 0 for _n, k in h[3]):
        r.claim(s, e, (h[2].pid,), "availability", "buy", "variant", True, "false",
                f"{r.label(h[2].pid)} {'/'.join(n for n, _k in h[3])}: '{r.m.original(s, e)}' but it is sold out",
                [("purchase", h[2].pid)])  # the urging voids a purchase answer, not the right price
    return True


def _counts(r: "Reading", i: int, hits: list[Hit]) -> None:
    """Re-judge the stock counts of clause ``i`` against the variants named (before each count, else the first)."""
    for x in r.report.claims:
        if x.attribute != "stock" or not claim_in_clause(r, x, i) or not isinstance(x.value, (int, float)):
            continue
        h = _owner_src(r, hits, x.span[0])  # a count belongs to the mention before it
        rows = h[3]
        ok = any(abs(float(x.value) - k) < 0.5 for _n, k in rows)
        x.verdict = "true" if ok else "false"
        x.reason = "" if ok else (f"{r.label(h[2].pid)} {'/'.join(n for n, _k in rows)}: '{x.text}' but its stock is "
                                  + ", ".join(str(k) for _n, k in rows))
        x.answers = frozenset({("stock", h[2].pid)})


def drop_variant_words(r: "Reading") -> None:
    """Drop the spec and size readings of a variant's own words ("黑色", "38码" of "黑色 38码"): the data names them
    as a variant of the product the clause is about."""
    if not any(p.variants for p in r.room.products) or not r.report.claims:
        return
    spans: list[tuple[int, int]] = []
    for i in range(len(r.clauses)):
        for a, b, _pf, _rows in _hits(r, i):
            spans.append(r.m.span(a, b))
    if spans:
        r.report.claims[:] = [x for x in r.report.claims if not (x.attribute.startswith(_WORD_CLAIMS) and any(
            a <= x.span[0] and x.span[1] <= b for a, b in spans))]


def _owner(hits: list[Hit], pos: int) -> Hit:
    """The mention a word at ``pos`` belongs to: the last one starting before it, else the first."""
    before = [h for h in hits if h[0] <= pos]
    return before[-1] if before else hits[0]


def _owner_src(r: "Reading", hits: list[Hit], pos: int) -> Hit:
    """:func:`_owner` of a position ``pos`` in the reply as written (a claim's span)."""
    before = [h for h in hits if r.m.span(h[0], h[1])[0] <= pos]
    return before[-1] if before else hits[0]


__all__ = ["drop_variant_words", "variant_clauses"]
