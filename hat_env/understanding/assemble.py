"""Building the intents of a comment from its keyword hits and product mentions: which product each question is
about, what a quantity word asks, comparisons, conditions, and the questions a joined group or a follow-up clause
("3号有货吗 5号呢") carries to other products; a question about a kind of deal is asked once."""

from __future__ import annotations

import re
from bisect import bisect_right
from typing import Any

from hat_env.types import Intent
from hat_env.understanding.attributes import drop_conditions, spec_attr
from hat_env.understanding.catalog import Catalog
from hat_env.understanding.clauses import Hit, Mention, clause_text, is_emoji
from hat_env.understanding.lexicon import Lexicon
from hat_env.understanding.names import is_joiner_gap, joined_past_variant, link_for, shared_links, two_products
from hat_env.understanding.possessives import ordered_links as ordered
from hat_env.understanding.questions import QUESTION_CHARS, is_question, subject_statement
from hat_env.understanding.qualifiers import (VARIANT_ATTRS, measure_before, names_its_value, other_values_next,
                                              variant_then_stock)
from hat_env.understanding.later import carried_questions, joined_parts, named_parts, opinions_beside, restates

from hat_env.understanding.later import _WORDISH, PRODUCT_KINDS


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
            text, words = clause_text(f, bounds, c), _WORDISH.findall(clause_text(f, bounds, c))
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


def deal_prices(f: str, hits: list[Hit], bounds: list[int], lex: Lexicon) -> list[Hit]:
    """A deal named as the condition of a price question asks the price after it, not about the deal.

    A word that is both a deal and a price ("秒杀价", "flash price") asks the price when its part of the clause also
    asks "how much" (or names another price word), else it asks about the deal ("blender flash price til when")
    unless another deal word of its part does ("flash price + PAW code stack?": the price and the code); a
    deal word right after a deal-condition lead ("how much w coupon", "cuánto cuesta con cupón", "how much with
    the deal") in a part of a clause that asks a price is no campaign question.

    Args:
        f: the folded comment.
        hits: the keyword hits, sorted.
        bounds: the clause bounds.
        lex: the compiled words (``joint_re`` parts, ``deal_condition_re``).

    Returns:
        The hits without the dropped campaign (or price) roles.
    """
    deals = [h for h in hits if (h[2] == "kind" and h[3] == "campaign") or h[2] == "deal"]
    if not deals:
        return hits
    parts = sorted({m.start() for m in lex.joint_re.finditer(f)} | set(bounds))
    drop: set[Hit] = set()
    priced: list[Hit] = []
    for d in deals:
        part = bisect_right(parts, d[0])
        start = parts[part - 1] if part > 0 else 0
        same = [h for h in hits if bisect_right(parts, h[0]) == part]
        if d[2] == "deal":  # "how much w the code", "price with the coupon": the deal is the price's condition
            asked = [h for h in same if ((h[2] == "qty" and h[3] != "count") or (h[2] == "kind" and h[3] == "price"))
                     and h[1] <= d[0] and lex.deal_condition_re.fullmatch(f[h[1]:d[0]].strip()) is not None]
            if asked:
                drop.add(d)
                for h in asked:
                    if h[2] == "qty":
                        drop.add(h)
                        priced.append((h[0], h[1], "kind", "price"))
            continue
        if _price_right_after(f, d, same, parts, part):  # "羽绒服秒杀多少钱", "flash sale price?": the price at it
            drop.add(d)
            continue
        compound = [h for h in same if h[2] == "kind" and h[3] == "price" and (h[0], h[1]) == (d[0], d[1])]
        asks_price = any((h[2] == "qty" and h[3] != "count"  # not "cuánto me ahorro"
                          and (next_token(f, h[1], parts) in (None, *lex.qty_next)
                               or lex.deal_condition_re.fullmatch(f[h[1]:d[0]].strip()) is not None))  # "how much w"
                         or (h[2] == "kind" and h[3] == "price" and (h[0], h[1]) != (d[0], d[1])) for h in same)
        other_deal = any((h[2] == "deal" or (h[2] == "kind" and h[3] == "campaign")) and (h[0], h[1]) != (d[0], d[1])
                         for h in same)
        buying = any(h[2] == "kind" and h[3] == "purchase" for h in same)
        if compound and buying and not asks_price:  # "秒杀价拍两盒": the price it is bought at, no question
            drop.add(d)
            drop.update(compound)
        elif compound and asks_price:
            drop.add(d)
        elif compound and not other_deal:  # the only deal word of its part: the question is about the deal
            drop.update(compound)
        elif asks_price and lex.deal_condition_re.search(f, start, d[0]) is not None:
            drop.add(d)
            for h in same:  # its quantity word asks the price ("how much w coupon")
                if h[2] == "qty" and h[3] != "count":
                    drop.add(h)
                    priced.append((h[0], h[1], "kind", "price"))
    if not drop:
        return hits
    for d in deals:  # "cuánto con la flash y el cupón": a deal joined on to a condition is a condition too
        part = bisect_right(parts, d[0])
        if d in drop or part == 0 or not any(x in drop and bisect_right(parts, x[0]) == part - 1
                                             and bisect_right(bounds, x[0]) == bisect_right(bounds, d[0]) for x in deals):
            continue
        j = lex.joint_re.match(f, parts[part - 1])
        rest = f[j.end():d[0]].split() if j is not None else None
        if rest is not None and len(rest) <= 1 and all(len(w) <= 3 for w in rest):
            drop.add(d)
    return sorted([h for h in hits if h not in drop] + priced)


#: what may follow the price word that closes a deal-conditioned price question ("秒杀多少钱呀", "flash sale price?")
_CLOSING = re.compile(r"[\s?？!！。.,，~～呀啊呢吗嘛哇]*")


def _price_right_after(f: str, d: Hit, same: list[Hit], parts: list[int], part: int) -> bool:
    """Whether the campaign word ``d`` is right before (at most a space or "的" between) a price word or price
    quantity word that ends its part of the clause ("羽绒服秒杀多少钱", "券多少钱", "一起买多少钱", "flash sale
    price?"): the deal says which price is asked, it asks nothing about the deal."""
    end = parts[part] if part < len(parts) else len(f)
    for h in same:
        if not ((h[2] == "kind" and h[3] == "price") or (h[2] == "qty" and h[3] != "count")) or h[0] < d[1]:
            continue
        if f[d[1]:h[0]].strip(" 的") or h[0] - d[1] > 2:
            continue
        if any(x[0] >= h[1] and x[2] in ("kind", "spec", "deal", "value") for x in same):
            continue
        if _CLOSING.fullmatch(f, h[1], end) is not None:
            return True
    return False


def spread(found: list[tuple[int, Intent]], mentions: list[Mention], group_of: dict[int, int], bounds: list[int],
            f: str, cat: Catalog | None = None) -> list[tuple[int, Intent]]:
    """Product intents also for the other links of their group ("link 2 and link 5 price", "2号和3号有货吗"), and
    for a follow-up clause that only names another product ("3号有货吗 5号呢"). With the room's catalog ``cat``, a
    variant of the first product between the two still joins them ("me llevo la freidora blanca y la sartén")."""
    if len(mentions) < 2:
        return found
    kinds_with_link = [(p, it) for p, it in found if it.link is not None and it.kind in PRODUCT_KINDS]
    if not kinds_with_link or any(it.kind == "compare" for _, it in found):
        return found
    out = list(found)
    # groups of link mentions joined by a joiner word, or link mentions next to each other in one clause
    singles = [m for m in mentions if len(m[2]) == 1]
    groups: dict[int, list[Mention]] = {}
    for i, m in enumerate(singles):
        gid = group_of.get(m[0])
        if gid is None and i > 0:
            prev = singles[i - 1]
            gap = f[prev[1] : m[0]]
            if is_joiner_gap(gap) or not gap or joined_past_variant(gap, prev[2], cat):  # only spaces, joiners and articles (it may be a clause bound), or
                # nothing ("1号2号3号各多少")
                gid = group_of.get(prev[0], prev[0])
                if prev[0] not in group_of:
                    groups.setdefault(gid, []).append(prev)
                group_of[prev[0]] = gid
                group_of[m[0]] = gid
        if gid is not None:
            groups.setdefault(gid, []).append(m)
    named_clauses = {m[3] for m in mentions}
    for ms in groups.values():
        links = {next(iter(m[2])) for m in ms}
        own = {m[3] for m in ms}
        if len(own) == 1:  # asked before the group and again after it, in its clause: each end asks its own
            lo, hi = min(m[0] for m in ms), max(m[1] for m in ms)  # ("cuánto cuesta la freidora y la sartén tiene
            inside = [p for p, it in kinds_with_link if bisect_right(bounds, p) in own]  # garantía?")
            if any(p < lo for p in inside) and any(p >= hi for p in inside):
                continue
        for p, it in kinds_with_link:
            c = bisect_right(bounds, p)  # asked in the group's clause, or in a later one that names nothing
            if c not in own and (c < max(own) or c in named_clauses):  # ("口红和粉底一起买便宜吗 粉底油皮行不")
                continue
            if it.link in links:
                for m in ms:
                    (ln,) = m[2]
                    out.append((m[0], Intent(it.kind, link=ln, attr=it.attr if it.kind in ("spec", "campaign") else None)))
    # follow-up clauses: a product named, nothing asked, the previous clause asked something
    asked_clauses = {bisect_right(bounds, p) for p, _ in kinds_with_link}
    for m in singles:
        c = m[3]
        if c in asked_clauses or c == 0 or not is_question(clause_text(f, bounds, c)):
            continue
        prev = [it for p, it in kinds_with_link if bisect_right(bounds, p) == c - 1]
        (ln,) = m[2]
        for it in prev:
            out.append((m[0], Intent(it.kind, link=ln, attr=it.attr if it.kind in ("spec", "campaign") else None)))
    return out


def focus_deals(out: list[Intent]) -> list[Intent]:
    """A question about a kind of deal is asked once: "any deal on the bundle?" drops the plain campaign question
    about the same link, and "does the code work with the bundle?" is one question about the bundle (its answer
    says what stacks with it)."""
    if len(out) < 2:
        return out
    focused = {it.link for it in out if it.kind == "campaign" and it.attr is not None}
    if not focused:
        return out
    out = [it for it in out if not (it.kind == "campaign" and it.attr is None and it.link in focused)]
    bundles = {it.link for it in out if it.kind == "campaign" and it.attr == "bundle"}
    return [it for it in out if not (it.kind == "campaign" and it.attr in ("code", "coupon") and it.link in bundles)]


def next_token(f: str, end: int, joints: list[int]) -> str | None:
    """The token right after a quantity word, or ``None`` at the end of its part of the clause."""
    stop = joints[bisect_right(joints, end - 1)] if bisect_right(joints, end - 1) < len(joints) else len(f)
    i = end
    while i < stop and f[i] in " \t":
        i += 1
    if i >= stop or f[i] in QUESTION_CHARS or is_emoji(f[i]) and f[i] not in "💰💵":
        return None
    if f[i].isascii() and (f[i].isalpha() or f[i] == "'"):
        m = re.match(r"'?[a-z]+", f[i:stop])
        return m.group() if m else None
    return f[i]


__all__ = ["PRODUCT_KINDS", "assemble", "focus_deals", "next_token", "spread"]
