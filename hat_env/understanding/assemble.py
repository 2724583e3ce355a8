"""Building the intents of a comment from its keyword hits and product mentions: which product each question is
about, what a quantity word asks, comparisons, conditions. A deal as a price's condition and a question about a
kind of deal asked once are :mod:`.deals`; the questions a joined group or a follow-up clause ("3号有货吗 5号呢")
carries to other products are :mod:`.spread` (both re-exported here)."""

from __future__ import annotations

import re
from bisect import bisect_right
from typing import Any

from hat_env.types import Intent
from hat_env.understanding.attributes import drop_conditions, spec_attr
from hat_env.understanding.catalog import Catalog
from hat_env.understanding.clauses import Hit, Mention, clause_text
from hat_env.understanding.deals import deal_prices, focus_deals, next_token
from hat_env.understanding.deals import _CLOSING, _price_right_after  # noqa: F401 - defined here before the split
from hat_env.understanding.lexicon import Lexicon
from hat_env.understanding.names import link_for, shared_links, two_products
from hat_env.understanding.possessives import ordered_links as ordered
from hat_env.understanding.questions import is_question, subject_statement
from hat_env.understanding.qualifiers import (VARIANT_ATTRS, measure_before, names_its_value, other_values_next,
                                              variant_then_stock)
from hat_env.understanding.later import (PRODUCT_KINDS, WORDISH, carried_questions, joined_parts, named_parts,
                                         opinions_beside, restates)
from hat_env.understanding.spread import spread


def _stock_after_name(f: str, h: Hit, hits: list[Hit], mentions: list[Mention], bounds: list[int],
                      lex: Lexicon) -> bool:
    """Whether the stock word of hit ``h`` (a ``name_stock_words`` word: "left", "back") asks the stock: ending a
    clause that asks a count before it ("and how many bags left"), right after a product mention of its clause, ending the clause, or after a count ("still 3 left", "only 9 fridges
    left or is that fake") in a clause naming a product; the clause holds no other keyword and no sending verb."""
    c = bisect_right(bounds, h[0])
    lo = bounds[c - 1] if c > 0 else 0
    if any(x[2:] == ("qty", "count") and lo <= x[0] < h[0] and not f[h[1]:bounds[c] if c < len(bounds) else len(f)]
           .strip(" ?？!！.。") for x in hits):
        return True  # "how many bags left": a count asked of what is left ends its clause
    counted = re.search(r"(?<![\d.,])\d{1,4}\s*$", f[:h[0]]) is not None or any(  # "still 3 left", "only 9 fridges
        m[3] == c and 0 <= h[0] - m[1] <= 1 and re.search(r"(?<![\d.,])\d{1,4}\s*$", f[:m[0]]) for m in mentions)  # left"
    if not counted and not any(m[3] == c and 0 <= h[0] - m[1] <= 1 and not f[m[1]:h[0]].strip() for m in mentions):
        return False
    if counted and not any(m[3] == c for m in mentions):
        return False
    end = bounds[c] if c < len(bounds) else len(f)
    if not counted and re.search(r"[\w\u4e00-\u9fff]", f[h[1]:end]):
        return False  # a count before the word asks it with more after it ("only 3 cat food left for real?")
    if any(x is not h and bisect_right(bounds, x[0]) == c and x[3] != "chitchat" for x in hits):
        return False
    return lex.ship_re is None or lex.ship_re.search(clause_text(f, bounds, c)) is None


def assemble(f: str, hits: list[Hit], value_hits: list[tuple[int, int, int, str]], mentions: list[Mention],
             bounds: list[int], any_id: bool, found: list[tuple[int, Intent]], lex: Lexicon,
             cat: Catalog | None, vocabulary: Any = None) -> list[tuple[int, Intent]]:
    """The intents of the keyword hits, each with the product of its clause.

    Args:
        f: the folded comment.
        hits: the keyword hits (sorted here).
        value_hits: spec values of named products (``attributes.value_hits``).
        mentions: the product mentions, merged.
        bounds: the clause bounds.
        any_id: whether an order id was named (an id-less order question is then not added).
        found: the intents so far (order ids); appended to.
        lex: the compiled words.
        cat: the room's catalog, or ``None``.
        vocabulary: the room's catalog vocabulary (see :func:`attributes.spec_attr`), or ``None``.

    Returns:
        ``found`` with the intents of the hits: ``compare`` for a comparison word and two products (what they are
        compared on is dropped from its clause), product intents with their product, ``spec`` with its key,
        ``efficacy`` for a condition in a question, a ``spec(attr="unknown")`` for a question about a product that
        names nothing else.
    """
    hits.sort()
    if lex.bare_stock:  # "hay freidora?" asks the stock; "hay talla 44?", "hay descuento?" ask what they name
        busy_clauses = {bisect_right(bounds, v[0]) for v in value_hits}
        for h in hits:
            if h[3] != "chitchat" and f[h[0]:h[1]] not in lex.bare_stock:
                busy_clauses.add(bisect_right(bounds, h[0]))
                if h[2] in ("spec", "value") and not other_values_next(h, hits, bounds):
                    busy_clauses.add(bisect_right(bounds, h[0]) + 1)  # "牛仔裤腰围有几码 26的有吗": it goes on
        hits = [h for h in hits if not (h[2:] == ("kind", "stock") and f[h[0]:h[1]] in lex.bare_stock
                                        and bisect_right(bounds, h[0]) in busy_clauses
                                        and not (any(0 <= bisect_right(bounds, h[0]) - m[3] <= 1 for m in mentions)
                                                 and variant_then_stock(h, hits, bounds)))]
    if lex.name_stock:
        hits = [h for h in hits if not (h[2:] == ("kind", "stock") and f[h[0]:h[1]] in lex.name_stock)
                or _stock_after_name(f, h, hits, mentions, bounds, lex)]
    if lex.condition_re is not None:
        hits = drop_conditions(f, hits, bounds, lex)
    deal_ends = [h[1] for h in hits if h[2] == "deal" or (h[2] == "kind" and h[3] == "campaign")]
    if deal_ends:  # "秒杀还有吗", "活动还有吗": right after a deal word, "still there?" asks about the deal; and
        deal_starts = [h[0] for h in hits if h[2] == "deal" or (h[2] == "kind" and h[3] == "campaign")]
        hits = [h for h in hits if not (h[2] == "kind" and h[3] == "stock" and (  # before one ("还有没有多的券")
            any(0 <= h[0] - e <= 1 and not f[e:h[0]].strip() for e in deal_ends)
            or any(0 <= s - h[1] <= 3 and bisect_right(bounds, s) == bisect_right(bounds, h[0])
                   and not any(h[1] <= m[0] < s for m in mentions) for s in deal_starts)))]
    hits = deal_prices(f, hits, bounds, lex)
    joints: list[int] = bounds
    spec_subs: set[int] = set()
    if any(h[2] == "qty" for h in hits):  # parts of clauses, for the quantity rule
        joints = sorted({m.start() for m in lex.joint_re.finditer(f)} | set(bounds))
        # a quantity word asks the amount of a spec, a shipping fee, a stock count or a deal ("优惠多少") in its
        # part of the clause
        spec_subs = {bisect_right(joints, h[0]) for h in hits
                     if h[2] in ("spec", "value", "deal")
                     or (h[2] == "kind" and h[3] in ("shipping", "stock", "campaign"))}
        spec_subs |= {bisect_right(joints, v[0]) for v in value_hits}
    bare_qty: list[int] = []  # quantity words that ask the amount of nothing the parser names
    flags = set()
    q_cache: dict[int, bool] = {}

    def question(c: int) -> bool:
        if c not in q_cache:
            q_cache[c] = is_question(clause_text(f, bounds, c))
        return q_cache[c]

    def ability_after(m: Mention) -> bool:  # "la sartén sirve para inducción", "dental chews ok for a small dog"
        am = lex.ability_re.search(f, m[1])
        return am is not None and not f[m[1]:am.start()].strip() and bisect_right(bounds, am.start()) == m[3]

    def asked_before(m: Mention) -> bool:  # "does it charge fast? the 65w one": the name after the question
        return m[3] > 0 and question(m[3] - 1) and not any(x[3] == m[3] - 1 for x in mentions)

    def link_at(pos: int) -> int | None:
        return link_for(pos, bisect_right(bounds, pos), mentions)

    def effect_link(pos: int) -> int | None:  # "can my cat with kidney issues eat the whiskerwell food": a shared
        ln = link_at(pos)  # name before the condition, one product named in its clause: that product
        if ln is None:
            c = bisect_right(bounds, pos)
            ones = {next(iter(m[2])) for m in mentions if m[3] == c and len(m[2]) == 1}
            if len(ones) == 1:
                return next(iter(ones))
        return ln

    id_clauses = {bisect_right(bounds, p) for p, it in found if it.kind == "order_status" and it.order_id} \
        | {bisect_right(bounds, h[0]) for h in hits if h[2] == "kind" and h[3] == "order_status"}
    stock_clauses = {bisect_right(bounds, h[0]) for h in hits if h[2] == "kind" and h[3] in ("stock", "purchase")}

    def qualifier(c: int) -> bool:  # "口红豆沙色还有货吗", "卫衣 M码 还有吗": a value says which one is asked for
        return c in stock_clauses or (c + 1 in stock_clauses and not question(c))

    praised = {bisect_right(bounds, h[0]) for h in hits if h[2] == "kind" and h[3] == "chitchat"}
    spec_words = [h for h in hits if h[2] == "spec"]
    known_at = {(h[0], h[1], link_at(h[0])) for h in spec_words  # a word of several attributes, one of them known
                if sum(1 for x in spec_words if x[:2] == h[:2]) > 1
                and spec_attr(cat, lex, link_at(h[0]), h[3], vocabulary) not in (None, "unknown")}
    ships = [h for h in hits if h[2] == "kind" and h[3] == "shipping"  # the shipping named, not asked when
             and lex.question_re.search(f, h[0], h[1]) is None]  # ("几天到" is a question of its own)
    cuts = sorted({m.start() for m in lex.joint_re.finditer(f)} | set(bounds)) if ships else bounds

    def shipping_fee(pos: int) -> bool:  # a shipping word in the price word's part, not after "with" ("con envío")
        part = bisect_right(cuts, pos)
        return any(bisect_right(cuts, h[0]) == part and lex.deal_condition_re.search(
            f, cuts[part - 1] if part > 0 else 0, h[0]) is None for h in ships)

    spec_at: dict[tuple[int | None, int], int] = {}  # (link, clause) -> spec intents there
    compared: tuple[int, int | None, int | None] | None = None  # the compare's clause and links
    efficacy_cond: list[tuple[int, int | None, int]] = []
    for start, end, typ, val in hits:
        clause = bisect_right(bounds, start)
        if typ == "kind":
            k = str(val)
            if k in ("troll", "chitchat", "identity"):
                if k not in flags:
                    found.append((start, Intent(k)))
                    flags.add(k)
            elif k == "order_status":
                if not any_id and "order" not in flags:
                    found.append((start, Intent("order_status")))
                    flags.add("order")
            elif k == "compare":
                if "compare" not in flags:
                    pair = two_products([m for m in mentions if m[3] == clause]) or two_products(mentions)
                    if pair is not None:
                        found.append((pair[0], Intent("compare", link=pair[1], link2=pair[2])))
                        flags.add("compare")
                        compared = (clause, pair[1], pair[2])
            elif k == "efficacy":
                found.append((start, Intent("efficacy", link=effect_link(start))))
            else:
                ln = link_at(start)
                if k in ("shipping", "after_sales") and ((any_id and (ln is None or ln in ordered(f, mentions, lex,
                                                                                      id_clauses))) or clause in id_clauses):
                    continue  # "订单A1003什么时候到", "pedido ES1004 reembolso", "where's my refund": about the order
                if k == "price" and shipping_fee(start):
                    continue  # "cuánto cuesta el envío", "envío de las sábanas cuánto es": the fee is shipping's
                # a name several products share asks about each ("康源家的有满减吗"); shipping is the shop's ("does
                # trailpaw ship to hawaii")
                each = shared_links(start, clause, mentions) if ln is None and k != "shipping" else ()
                valued = {v[2] for v in value_hits if bisect_right(bounds, v[0]) == clause} & set(each)
                if valued:  # "guitar sunburst still in stock?": the products the value is of
                    each = tuple(x for x in each if x in valued)
                for one in each or (ln,):
                    found.append((start, Intent(k, link=one)))
        elif typ in ("spec", "value"):
            if typ == "value" and qualifier(clause):
                continue
            if typ == "spec" and val in VARIANT_ATTRS and qualifier(clause) and names_its_value(f, start, end):
                continue  # "arnés talla M queda?", "compro las zapatillas talla 40": which one, no size question
            if clause in praised and not question(clause):
                continue  # "口红颜色好好看": a spec word in praise asks nothing
            ln = link_at(start)
            each = shared_links(start, clause, mentions) if ln is None else ()
            if len(each) > 1 and cat is not None and cat.specs_known:  # "guitar scale length": of the products the
                having = tuple(x for x in each if spec_attr(cat, lex, x, val, vocabulary) != "unknown")  # name
                each = having or each  # shares, the ones that have the attribute
            stated = re.search(r"\d\s*$", f[:start]) is not None  # "my dog is 60 lbs": the viewer's own measure
            for ln in each or (ln,):  # a name several products share asks each ("贝安芯家的东西产地是哪")
                attr = spec_attr(cat, lex, ln, val, vocabulary, stated=stated)
                if attr == "unknown" and (start, end, ln) in known_at:
                    continue  # "四件套什么面料": 面料 is the fabric the set has, not a material it lacks
                if attr == "unknown" and val in lex.policy_attrs:  # no such spec: the shop's policy ("warranty")
                    found.append((start, Intent("after_sales", link=ln)))
                    continue
                found.append((start, Intent("spec", link=ln, attr=attr)))
                if attr != "unknown":  # a spec the product has makes a condition in its clause part of that question
                    spec_at[(ln, clause)] = spec_at.get((ln, clause), 0) + 1
        elif typ == "deal":  # "is link 1 part of a bundle", "coupon code?": a question about that kind of deal
            found.append((start, Intent("campaign", link=link_at(start), attr=val)))
        elif typ == "cond":
            efficacy_cond.append((start, effect_link(start), clause))
        elif typ == "cheer":  # "已拍", "冲冲冲": a purchase said as done or cheered is no request
            continue
        elif typ == "qty":
            sub = bisect_right(joints, start)
            if sub in spec_subs:
                continue
            nxt = next_token(f, end, joints)
            if val != "count" and nxt is None and measure_before(f, start, joints, [(m[0], m[1]) for m in mentions]):
                found.append((start, Intent("spec", link=link_at(start), attr="unknown")))
                continue  # "充绒量多少", "含糖量是多少": the amount of a measure no spec word names, not a price
            if val != "count" and (nxt is None or nxt in lex.qty_next):
                ln = link_at(start)
                for one in (shared_links(start, clause, mentions) if ln is None else ()) or (ln,):
                    found.append((start, Intent("price", link=one)))
            else:
                flags.add("quantity")
                bare_qty.append(start)
    for start, end, link, attr in value_hits:
        ln = link_at(start)
        if qualifier(bisect_right(bounds, start)):
            continue
        if ln == link or (ln is None and link in shared_links(start, bisect_right(bounds, start), mentions)):
            found.append((start, Intent("spec", link=link, attr=attr)))  # "the guitar in sunburst": the one that is
    for start, ln, clause in efficacy_cond:
        if (ln, clause) not in spec_at and not (ln is None and any(c == clause for _, c in spec_at)) \
                and question(clause):  # "how many people does the tent sleep": part of the spec question
            found.append((start, Intent("efficacy", link=ln)))
    named_effects = {bisect_right(bounds, p) for p, it in found if it.kind == "efficacy" and it.link is not None}
    if named_effects:  # "will the dog bed fix my dogs arthritis": the effect is the named product's, not the shared name's
        found = [(p, it) for p, it in found if not (it.kind == "efficacy" and it.link is None
                                                    and bisect_right(bounds, p) in named_effects)]
    effects = {(it.link, bisect_right(bounds, p)) for p, it in found if it.kind == "efficacy"}
    if effects:  # "每天吃车厘子能补铁吗": the effect is what is asked, not a spec the product lacks
        found = [(p, it) for p, it in found if not (it.kind == "spec" and it.attr == "unknown"
                                                    and (it.link, bisect_right(bounds, p)) in effects)]
    if bare_qty and mentions:  # "坚果保质期多久 有几包": a count of something no spec names, in a clause of its own
        asked = {bisect_right(bounds, h[0]) for h in hits if h[2] != "qty"}
        # after a question whose answer is an amount of its own ("litter box returns? how many days"), the count
        # asks that amount
        amounts = {bisect_right(bounds, p) + 1 for p, it in found
                   if it.kind in ("after_sales", "shipping", "campaign", "stock", "price")}
        asked |= amounts
        for start in bare_qty:
            c = bisect_right(bounds, start)
            ln = link_at(start)
            if c not in asked and ln is not None and question(c) and not any(m[3] == c for m in mentions) \
                    and not (c > 0 and restates(clause_text(f, bounds, c), clause_text(f, bounds, c - 1), lex)):
                found.append((start, Intent("spec", link=ln, attr="unknown")))
    if "identity" not in flags and any(h[2] == "idweak" for h in hits):
        m = lex.identity_re.search(f)
        if m is not None:
            found.append((m.start(), Intent("identity")))
    if compared is not None:  # "哪个SPF高", "which is cheaper": what the two are compared on, in the compare's
        # clause or in a clause next to it that names no product ("s2 or the buds, price diff?")
        named = {m[3] for m in mentions}
        on = {compared[0]} | {c for c in (compared[0] - 1, compared[0] + 1) if c not in named}
        found = [(p, it) for p, it in found
                 if not (it.link in (None, compared[1], compared[2]) and (
                     (it.kind in ("spec", "price", "campaign") and bisect_right(bounds, p) == compared[0])
                     or (it.kind in ("spec", "price") and bisect_right(bounds, p) in on)
                     or (it.kind == "campaign" and bisect_right(bounds, p) in on and lex.comparative_re is not None
                         and lex.comparative_re.match(f, p) is not None)))]  # "reloj o zapatillas, cuál más barato"
    product_found = any(it.kind in PRODUCT_KINDS or it.kind in ("compare", "efficacy", "order_status")
                        for _, it in found)
    if not product_found and mentions:  # a question about a product that names nothing else (before the later
        # clauses it carries to: "洁面乳能卸妆吗 会不会紧绷" asks two)
        def back_ref_after(m: Mention) -> bool:  # "..., is this one corded"; "q tal la sarten, se pega?"
            """Whether the clause after ``m``'s asks, names nothing and points back, or closes with a short question."""
            c, rest = m[3] + 1, f[bounds[m[3] + 1] + 1:] if m[3] + 1 < len(bounds) else ""
            if lex.back_ref_re is None or c > len(bounds) or any(x[3] == c for x in mentions) or not question(c) \
                    or any(bisect_right(bounds, h[0]) == c for h in hits) or any(it.kind != "chitchat" for _, it in found):
                return False
            text, words = clause_text(f, bounds, c), WORDISH.findall(clause_text(f, bounds, c))
            return lex.back_ref_re.search(text) is not None or (
                text.rstrip()[-1:] in lex.question_marks and len(words) <= 3 and not rest.strip()
                and any(w not in lex.common and w not in lex.function_chars for w in words))

        for m in mentions:
            own = len(m[2]) == 1 and (question(m[3]) or "quantity" in flags or ability_after(m) or asked_before(m)
                                      or subject_statement(f, m, bounds, hits, mentions, lex))
            if own or (len(m[2]) == 1 and back_ref_after(m)):  # a question pointing back is at its own clause
                (ln,) = m[2]
                found.append((m[0] if own else bounds[m[3]] + 1, Intent("spec", link=ln, attr="unknown")))
                break
        else:  # a question about a name several products share ("精华液孕妇能用吗"): no product, still a question
            shared = next((x for x in mentions if question(x[3])), None)
            if shared is not None and not found:
                found.append((shared[0], Intent("spec", attr="unknown")))
    found.extend(carried_questions(f, hits, value_hits, mentions, bounds, found, lex))
    found.extend(named_parts(f, hits, value_hits, mentions, bounds, found, lex))
    found.extend(joined_parts(f, hits, value_hits, mentions, bounds, found, lex))
    return opinions_beside(f, found, bounds, lex)


# deal_prices, focus_deals, next_token (.deals) and spread (.spread) were defined here; they stay importable from here
__all__ = ["PRODUCT_KINDS", "assemble", "deal_prices", "focus_deals", "next_token", "spread"]
