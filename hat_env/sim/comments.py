"""The viewer comment generator: what each persona asks about (:func:`persona_intents`) and the danmaku comment
that asks it (:func:`render_comment`), in the room's locale.

The words are the locale file's ``comments`` section (:mod:`hat_env.locales`); spec words, and the questions about
a kind of deal ("does the bundle on link 3 work with a coupon?"), come from the room's catalog vocabulary
(:mod:`hat_env.sim.vocabulary`). :func:`hat_env.sim.parser.parse_comment` recovers the intents of every
comment written here. All randomness comes from a ``random.Random`` passed in, so a seed fixes every comment byte
for byte (the draws index into the locale file's lists, in their order).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from hat_env.locales import CommentSpec, get_locale, known_locales
from hat_env.sim.campaigns import CAMPAIGN_TYPES
from hat_env.types import Intent

if TYPE_CHECKING:  # pragma: no cover - typing only
    from hat_env.sim.room import RoomState
    from hat_env.sim.vocabulary import Vocabulary


def _vocab(room: "RoomState | None") -> "Vocabulary":
    if room is not None:
        return room.vocabulary
    from hat_env.sim.vocabulary import default_vocabulary

    return default_vocabulary()

_MULTI_OK = frozenset({"price", "spec", "stock", "campaign", "shipping", "after_sales", "purchase"})


def _pick(rng: random.Random, seq: tuple[str, ...]) -> str:
    return seq[int(rng.random() * len(seq))]


#: ``comments`` sections already read, by locale (a plain dict: render_comment runs for every comment).
_WORDS: dict[str, CommentSpec] = {}


def comment_words(locale: str) -> CommentSpec:
    """The ``comments`` section of ``locale``'s file.

    Raises:
        ValueError: an unknown locale.
    """
    w = _WORDS.get(locale)
    if w is None:
        w = _WORDS[locale] = get_locale(locale).comments
    return w


def injection_payloads(locale: str, categories: "set[str] | frozenset[str] | None" = None) -> tuple[str, ...]:
    """What a prompt injector in a ``locale`` room tries to make the host say (every one a compliance violation).

    Args:
        locale: the room's locale.
        categories: the product categories the room sells: only the payloads that fit them (the plain ones and
            those tagged with one of them); ``None`` for every payload.

    Raises:
        ValueError: an unknown locale.
    """
    return get_locale(locale).payloads_for(categories)


def ask_again_prefixes(locale: str) -> tuple[str, ...]:
    """Prefixes a viewer in a ``locale`` room puts before a question asked again (see :mod:`hat_env.sim.viewers`).

    Raises:
        ValueError: an unknown locale.
    """
    return get_locale(locale).comments.ask_again_prefix


def _link_ref(n: int | None, w: CommentSpec, rng: random.Random) -> str:
    if n is None:
        return w.no_link_ref
    return _pick(rng, w.link_ref).format(n=n)


def _spec_word(attr: str | None, loc: str, w: CommentSpec, rng: random.Random, vocab: "Vocabulary") -> tuple[str, bool]:
    """A viewer's word for ``attr`` and whether it is itself a question ("适合什么肤质")."""
    a = vocab.attribute(attr) if attr is not None else None
    words = tuple(a.words_for(loc)) if a is not None else ()
    if not words and a is not None:  # a locale file brought by a room: the first word its parser reads for it
        words = tuple(get_locale(loc).parser.spec_words.get(attr or "") or ())[:1]
    if not words:
        return w.generic_spec_word, False
    word = _pick(rng, words)
    return word, any(m in word for m in w.question_markers)


def _single(intent: Intent, loc: str, w: CommentSpec, rng: random.Random, vocab: "Vocabulary") -> str:
    """One intent as a comment (no noise)."""
    k = intent.kind
    T = w.templates
    if k == "spec":
        word, q = _spec_word(intent.attr, loc, w, rng, vocab)
        return _pick(rng, T.spec_q if q else T.spec).format(L=_link_ref(intent.link, w, rng), A=word)
    if k == "campaign" and intent.attr is not None:
        pool = vocab.campaign_questions(intent.attr, loc)
        if pool:
            return _pick(rng, pool).replace("{L}", _link_ref(intent.link, w, rng))
    if k in ("price", "stock", "campaign", "shipping", "after_sales", "purchase"):
        return _pick(rng, getattr(T, k)).format(L=_link_ref(intent.link, w, rng))
    if k == "compare":
        l1 = _link_ref(intent.link, w, rng)
        l2 = _link_ref(intent.link2, w, rng)
        return _pick(rng, T.compare).format(L=l1, L2=l2)
    if k == "order_status":
        if intent.order_id is None:
            return _pick(rng, T.order_status_noid)
        return _pick(rng, T.order_status).format(O=intent.order_id)
    if k == "chitchat":
        return _pick(rng, T.chitchat).format(X=_pick(rng, w.places))
    if k == "troll":
        return _pick(rng, T.troll)
    if k == "injection":
        if not intent.payload:
            return _pick(rng, T.injection_nopayload)
        return _pick(rng, T.injection).replace("{P}", intent.payload)
    raise ValueError(f"unknown intent kind {k!r}")


def _bare(intent: Intent, loc: str, w: CommentSpec, rng: random.Random, vocab: "Vocabulary") -> str:
    B = w.follow_ups
    if intent.kind == "spec":
        word, q = _spec_word(intent.attr, loc, w, rng, vocab)
        return _pick(rng, B.spec_q if q else B.spec).format(A=word)
    return _pick(rng, getattr(B, intent.kind))


def render_comment(
    intents: tuple[Intent, ...], locale: str, rng: random.Random, room: "RoomState | None" = None
) -> str:
    """Write a realistic danmaku comment that asks for ``intents``.

    Args:
        intents: what the viewer wants. One intent gives one templated sentence; two product intents about the
            same link (not ``compare``) are combined into one sentence ("3号多少钱，还有货吗"); anything else is
            written as consecutive sentences, an injection always last (its payload runs to the end).
        locale: a locale with a locale file (``"zh_CN"``, ``"en_US"``): the language of the comment.
        rng: the seeded generator; every choice (template, link wording, noise) is drawn from it.
        room: the room, whose catalog vocabulary gives the spec words and deal questions (``None``: the default
            vocabulary). Titles are left out on purpose: they may contain keywords and digits.

    Returns:
        The comment text. :func:`~hat_env.sim.parser.parse_comment` recovers ``intents`` from it (as a multiset),
        except that a ``chitchat`` intent is only recovered when it is alone (it is the parser's fallback).

    Raises:
        ValueError: an unknown locale or intent kind.
    """
    loc = locale
    w = comment_words(loc)
    vocab = _vocab(room)
    its = tuple(intents) or (Intent("chitchat"),)
    if (
        len(its) == 2
        and its[0].kind in _MULTI_OK
        and its[1].kind in _MULTI_OK
        and its[0].link == its[1].link
    ):
        first = _single(its[0], loc, w, rng, vocab).rstrip("？?!！")
        text = first + _pick(rng, w.multi_sep) + _bare(its[1], loc, w, rng, vocab) + _pick(rng, w.multi_end)
    elif len(its) == 1:
        text = _single(its[0], loc, w, rng, vocab)
    else:
        ordered = [i for i in its if i.kind != "injection"] + [i for i in its if i.kind == "injection"]
        text = w.sentence_sep.join(_single(i, loc, w, rng, vocab).rstrip("。.") for i in ordered)
    has_inj = any(i.kind == "injection" for i in its)
    r = rng.random()
    if r < 0.25:
        text = _pick(rng, w.noise_prefix) + text
    cap = w.capitalize_chance
    if cap is not None and rng.random() < cap and text[:1].islower():
        text = text[0].upper() + text[1:]
    if not has_inj and rng.random() < 0.35:
        text = text + _pick(rng, w.noise_suffix)
    return text


# ----------------------------------------------------------------------------------------------------------
# Persona intents
# ----------------------------------------------------------------------------------------------------------

_MULTI_KINDS: tuple[str, ...] = ("price", "spec", "stock", "campaign", "shipping", "after_sales", "purchase")
_PRODUCT_PERSONAS = frozenset(
    {"price_asker", "spec_asker", "comparer", "after_sales", "purchase_intent", "multi_intent"}
)


def _pick_product(rng: random.Random, room: "RoomState") -> Any:
    prods = room.products
    if room.pinned is not None and rng.random() < 0.3:
        p = room.by_id.get(room.pinned)
        if p is not None:
            return p
    return prods[int(rng.random() * len(prods))]


def _spec_attrs(p: Any, room: "RoomState") -> list[str]:
    """The product's spec keys that viewers of the room's locale have words for."""
    vocab = room.vocabulary
    out = []
    for k in p.specs:
        a = vocab.attribute(k)
        if a is not None and a.words_for(room.locale):
            out.append(k)
    return out


def _product_with_specs(rng: random.Random, room: "RoomState") -> tuple[Any, list[str]] | None:
    """A product that has at least one vocabulary spec attr (a few random tries, then a scan)."""
    for _ in range(3):
        p = _pick_product(rng, room)
        attrs = _spec_attrs(p, room)
        if attrs:
            return p, attrs
    cands = [p for p in room.products if _spec_attrs(p, room)]
    if not cands:
        return None
    p = cands[int(rng.random() * len(cands))]
    return p, _spec_attrs(p, room)


def _deal_focus(rng: random.Random, room: "RoomState", product: Any) -> str | None:
    """A kind of deal running on ``product`` that the vocabulary has questions for, drawn half the time (no draw
    at all when there is none, so rooms without such questions draw as they always did)."""
    running = {c.type for c in room.active_campaigns(product.product_id)}
    kinds = [k for k in CAMPAIGN_TYPES if k in running and room.vocabulary.campaign_questions(k, room.locale)]
    if not kinds or rng.random() >= 0.5:
        return None
    return kinds[int(rng.random() * len(kinds))]


def _kind_intent(kind: str, rng: random.Random, room: "RoomState", product: Any) -> Intent:
    if kind == "spec":
        attrs = _spec_attrs(product, room)
        if attrs:
            return Intent("spec", link=product.link, attr=attrs[int(rng.random() * len(attrs))])
        kind = "price"
    return Intent(kind, link=product.link)


def persona_intents(persona: str, rng: random.Random, room: "RoomState") -> tuple[Intent, ...]:
    """Draw what a viewer of ``persona`` asks about now.

    Args:
        persona: one of :data:`hat_env.sim.vocab.PERSONAS`.
        rng: the seeded generator.
        room: the room: links come from ``room.products`` (always existing ones; the pinned product is asked
            about more often), spec attrs from the product's own ``specs`` (keys the room's vocabulary has viewer
            words for in its locale), the deal a campaign question is about from the campaigns running on the
            product (when the vocabulary has ``campaign_questions`` for it), order ids from ``room.orders``, injection payloads from
            the ``injection_payloads`` of ``room.locale``'s file (``en_US``'s when it has none).

    Returns:
        One intent, or two for ``multi_intent`` (two different kinds about the same link). Personas that need
        something the room lacks fall back sensibly (no products -> chitchat; one product -> no compare; no
        orders -> product after-sales questions; no spec attrs -> price).

    Raises:
        ValueError: ``persona`` is unknown.
    """
    if persona == "chit_chat":
        return (Intent("chitchat"),)
    if persona == "troll":
        return (Intent("troll"),)
    if persona == "prompt_injector":
        loc = room.locale if room.locale in known_locales() else "en_US"
        pl = injection_payloads(loc, {p.category for p in room.products})
        return (Intent("injection", payload=pl[int(rng.random() * len(pl))]),)
    if persona not in _PRODUCT_PERSONAS:
        raise ValueError(f"unknown persona {persona!r}")
    if not room.products:
        return (Intent("chitchat"),)
    r = rng.random()
    if persona == "price_asker":
        p = _pick_product(rng, room)
        if r < 0.75:
            return (Intent("price", link=p.link),)
        return (Intent("campaign", link=p.link, attr=_deal_focus(rng, room, p)),)
    if persona == "spec_asker":
        if r < 0.85:
            got = _product_with_specs(rng, room)
            if got is not None:
                p, attrs = got
                return (Intent("spec", link=p.link, attr=attrs[int(rng.random() * len(attrs))]),)
        p = _pick_product(rng, room)
        return (Intent("stock", link=p.link),)
    if persona == "comparer":
        prods = room.products
        if len(prods) < 2:
            return (Intent("price", link=prods[0].link),)
        i = int(rng.random() * len(prods))
        j = int(rng.random() * (len(prods) - 1))
        if j >= i:
            j += 1
        return (Intent("compare", link=prods[i].link, link2=prods[j].link),)
    if persona == "after_sales":
        if room.orders and r < 0.45:
            ids = list(room.orders)
            return (Intent("order_status", order_id=ids[int(rng.random() * len(ids))]),)
        p = _pick_product(rng, room)
        return (Intent("after_sales" if r < 0.75 else "shipping", link=p.link),)
    if persona == "purchase_intent":
        p = _pick_product(rng, room)
        return (Intent("purchase" if r < 0.65 else ("stock" if r < 0.85 else "campaign"), link=p.link),)
    # multi_intent
    p = _pick_product(rng, room)
    kinds = _MULTI_KINDS if _spec_attrs(p, room) else tuple(k for k in _MULTI_KINDS if k != "spec")
    a = int(rng.random() * len(kinds))
    b = int(rng.random() * (len(kinds) - 1))
    if b >= a:
        b += 1
    return (_kind_intent(kinds[a], rng, room, p), _kind_intent(kinds[b], rng, room, p))


__all__ = ["ask_again_prefixes", "comment_words", "injection_payloads", "persona_intents", "render_comment"]
