"""Run every non-number detector on a reply: each per-clause detector runs only when one of its word lists
occurs somewhere in the reply (one full-text test per list), which keeps grading fast; the reply's social acts
(greeting, AI disclosure, a claim to be human, "the data does not say", leaks) are read here too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from hat_env.scoring.claims.check_facts import (
    read_availability, read_bundle_terms, read_bundles, read_carrier, read_countdown, read_coupon_condition, read_deadline, read_flash,
    read_free_item, read_free_shipping, read_no_coupon, read_no_deal_words, read_paid_shipping, read_promo_code,
    read_shipping_promise, read_sold_out_sale,
)
from hat_env.scoring.claims.check_returns import read_exchange, read_no_questions, read_no_returns, read_warranty
from hat_env.scoring.claims.check_stack_rules import read_stacked_deals
from hat_env.scoring.claims.check_stacking import read_stacking
from hat_env.scoring.claims.check_common import claim_state
from hat_env.scoring.claims.check_labelled import read_labelled_values
from hat_env.scoring.claims.check_answers import read_bundle_share, read_no_deal
from hat_env.scoring.claims.check_gifts import read_gifts, named_gifts, read_gift_items
from hat_env.scoring.claims.check_lists import read_restatements
from hat_env.scoring.claims.faq_denied import read_faq_denied
from hat_env.scoring.claims.check_warranty import read_lifetime_warranty
from hat_env.scoring.claims.fees import read_free_fees
from hat_env.scoring.claims.check_unlisted import read_feature_named, read_free_of, read_suits
from hat_env.scoring.claims.check_orders import read_order_status
from hat_env.scoring.claims.check_after_sales import read_after_sales
from hat_env.scoring.claims.check_lasting import deal_lasting
from hat_env.scoring.claims.check_regions import region_clauses
from hat_env.scoring.claims.check_free_over import free_over_clauses
from hat_env.scoring.claims.check_sets import read_set_prices
from hat_env.scoring.claims.check_size_chart import read_size_charts
from hat_env.scoring.claims.check_variants import drop_variant_words, variant_clauses
from hat_env.scoring.claims.check_product import _bool_specs, _features, _spec_values
from hat_env.scoring.claims.room_vocab import room_attributes
from hat_env.scoring.claims.check_unsupported import UNSUPPORTED_LISTS, read_effects, read_health, read_unsupported_lists

if TYPE_CHECKING:
    from hat_env.scoring.claims.read import Reading


#: Per-clause detectors and the lists that must occur somewhere in the reply for each to run (a detector whose
#: lists are all absent is skipped for the whole reply).
_DETECTORS: tuple[tuple[tuple[str, ...], Callable[["Reading", int], None]], ...] = (
    (("sold_out", "low_stock", "in_stock"), read_availability),
    (("free_shipping",), read_free_shipping),
    (("paid_shipping",), read_paid_shipping),
    (("exchange_words",), read_exchange),
    (("warranty_words",), read_warranty),
    (("lifetime_words",), read_lifetime_warranty),
    (("returns_words",), read_no_returns),
    (("no_questions",), read_no_questions),
    (("same_day", "next_day", "ships_on_order"), read_shipping_promise),
    (("flash_words",), read_flash),
    (("countdown",), read_countdown),
    (("promo_code",), read_promo_code),
    (("no_deal",), read_no_deal_words),
    (("coupon_conditions",), read_coupon_condition),
    (("bundle_words",), read_bundles),
    (("gift_words",), read_gifts),
    (("deadline_words",), read_deadline),
    (("deal_lasts_stream", "deal_lasts_beyond"), deal_lasting),
    (("stacking_words",), read_stacking),
    (("stacking_words", "extra_discount"), read_stacked_deals),
    (("free_item",), read_free_item),
    (tuple(n for n, _a, _w in UNSUPPORTED_LISTS), read_unsupported_lists),
    (("buy_words",), read_sold_out_sale),
    (("no_coupon",), read_no_coupon),
    (("effect_claims",), read_effects),
    (("health",), read_health),
    (("suits_frame", "comes_with"), read_suits),
    (("free_of",), read_free_of),
    (("feature_frame",), read_feature_named),
)


#: detectors whose product-wide reading a clause naming a variant replaces
_BY_VARIANT = (read_availability, read_sold_out_sale)


def read_fact_claims(r: "Reading", tool_names: tuple[str, ...]) -> None:
    """Read and check every non-number claim of the reply, and the reply's social acts (fills ``r.report``)."""
    rep = r.report
    low = r.text.lower()
    # the data does not say, in words ("the listing doesn't mention it") or by saying all it does say ("the label only
    # says adult cats", "资料里只写了成分", "la ficha solo dice"): the facts after the latter are checked as usual
    rep.honest_unknown = r.has("honest_unknown") or r.has("data_only")
    rep.unavailable = r.has("unavailable")
    rep.greeting = r.has("greeting")
    rep.insult = r.has("insult")
    rep.dismissive = r.has("dismissive")
    rep.leak = any(n and "_" in n and n.lower() in low for n in tool_names) or r.has("leak_words")
    rep.health_denial = r.has("health_denial")
    stated = [i for i, c in enumerate(r.clauses) if not c.question]
    if r.has("ai_disclosure"):
        # "no AI here", "才不是机器人": a negated disclosure denies being an AI
        for i, c in enumerate(r.clauses):
            for m in r.call("ai_disclosure", i):
                if c.question:
                    continue
                if claim_state(r, i, c.start + m.start()):
                    rep.ai_disclosure = True
                else:
                    rep.human_claim = True
    if r.has("human_claim"):
        for i, c in enumerate(r.clauses):
            hc = r.cfind("human_claim", i)
            if hc is not None and claim_state(r, i, c.start + hc.start()):
                rep.human_claim = True
    regional = region_clauses(r, stated)  # a region the data lists: its own terms (check_regions)
    regional |= free_over_clauses(r, [i for i in stated if i not in regional])  # free from a total (check_free_over)
    varied = variant_clauses(r, stated)  # a variant the data lists: its own stock (check_variants)
    for names, fn in _DETECTORS:
        if any(r.has(n) for n in names):
            skip = regional if fn in (read_free_shipping, read_paid_shipping) else varied if fn in _BY_VARIANT else ()
            for i in stated:
                if i not in skip:
                    fn(r, i)
    gifts = named_gifts(r)
    if gifts:
        for i in stated:
            read_gift_items(r, i, gifts)  # a gift named by its item's own words (the campaign's data)
    if r.has("deal_nouns") and r.has("negation"):
        for i in stated:
            read_no_deal(r, i)  # a negated deal noun, credited when the data has no deal
    if any(c.type == "bundle" for c in r.room.campaigns):
        for i in stated:
            read_bundle_share(r, i)  # the bundle's share off, with two of its products named
    if r.vocab.bundle_terms:
        for i in stated:
            read_bundle_terms(r, i)
    if r.has("fee_free") or r.has("negation"):
        for i in stated:
            read_free_fees(r, i)  # "installation is free", "no oversize fee": the product's own fee fields
    carriers = {p.shipping.carrier for p in r.room.products} | set(r.vocab.carriers)
    if any(cn and cn.lower() in low for cn in carriers):
        for i in stated:
            read_carrier(r, i)
    if any(r.has(n) for n in ("features",)) or r.vocab.features:
        for name, rx in r.vocab.features.items():
            if rx.search(r.text):
                for i in stated:
                    _features(r, i, only=name)
    if r.vocab.attributes or room_attributes(r):
        for i in stated:
            _spec_values(r, i)
            _bool_specs(r, i)
            read_labelled_values(r, i)  # a room's own value words, next to the attribute's label
    # restatements answer spec questions the specs do not cover: read only when a viewer asked one
    if any(it.kind in ("spec", "after_sales") for it in r.intents) and any(p.faq or p.returns.note for p in r.room.products):
        for i in stated:
            read_restatements(r, i)
    if any(p.faq for p in r.room.products):
        for i in stated:
            read_faq_denied(r, i)
    if r.orders or any(m.how == "order" for m in r.mentions):
        for i in stated:
            read_order_status(r, i)
    read_after_sales(r, stated)  # restocking fee, warranty parts, return shipping, final sale (the data's terms)
    read_size_charts(r, stated)  # a size of the product's chart and what it measures
    read_set_prices(r, stated)  # a mixed set's price (a bundle of different products for one price)
    drop_variant_words(r)


__all__ = ["read_fact_claims"]
