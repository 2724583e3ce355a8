"""Which products a reply's claims are about: one scope for the ``compliance`` hook and the scorer.

A claim about any product in the reply is what matters, so each claim is checked against its own product:

1. the product the reply names nearest to the claim in the same sentence (before it first, then after it);
2. else the product the reply named last before the claim;
3. else the products of the request: the links and orders its intents name and the products its tool calls
   returned (in order);
4. else the product the reply names next after the claim;
5. else every product in the room.

A reply names a product by link number ("3号", "3号链接", "链接3", "link 3", "item #3", "#3") or by a name that
belongs to that product alone: its full title or brand, an English title word of four letters or more, or a run
of two or three Chinese characters of its title that no other title of the room holds ("防晒", "围巾"). The
categories category-scoped rules look at are those of the products the reply names and the request's products
(the room's when there are none).
"""

from __future__ import annotations

import bisect
import re
import weakref
from typing import TYPE_CHECKING, Any, Sequence

from hat_env.sim import rule_regex

if TYPE_CHECKING:
    from hat_env.sim.catalog import Product
    from hat_env.sim.room import RoomState
    from hat_env.sim.rule_text import ReplyText
    from hat_env.types import ExecutedCall, LiveRequest

_LINK = re.compile(
    r"(\d{1,3})\s*号(?:链接)?|链接\s*#?\s*(\d{1,3})|\b(?:link|item|product)\s*(?:no\.?\s*)?#?\s*(\d{1,3})\b|#\s*(\d{1,3})\b",
    re.IGNORECASE,
)
_HAN_RUN = re.compile(r"[\u3400-\u9fff]+")
_EN_WORD = re.compile(r"[A-Za-z][A-Za-z'-]{3,}")


def _name_keys(products: Sequence["Product"]) -> dict[str, "Product"]:
    """Name -> product, for names that belong to one product of the room alone (see the module docstring)."""
    cands: dict[str, set[str]] = {}
    by_id = {p.product_id: p for p in products}

    def add(key: str, pid: str) -> None:
        key = key.strip().lower()
        if len(key) >= 2:
            cands.setdefault(key, set()).add(pid)

    for p in products:
        add(p.title, p.product_id)
        add(p.brand, p.product_id)
        for w in _EN_WORD.findall(p.title):
            add(w, p.product_id)
        for run in _HAN_RUN.findall(p.title):
            for n in (2, 3):
                for i in range(len(run) - n + 1):
                    add(run[i : i + n], p.product_id)
    titles = {p.product_id: (p.title + " " + p.brand).lower() for p in products}
    out: dict[str, Product] = {}
    for key, pids in cands.items():
        owners = {pid for pid, t in titles.items() if key in t}
        if len(pids) == 1 and len(owners) == 1:
            out[key] = by_id[next(iter(pids))]
    return out


class _Names:
    """A room's product names compiled into one RE2 pattern (cached per room)."""

    __slots__ = ("regex", "keys")

    def __init__(self, products: Sequence["Product"]):
        self.keys = _name_keys(products)
        src = rule_regex.words_source(tuple(self.keys))
        # one per catalog (a seed's generated products change it): bounded by _BY_CATALOG, not the shared cache
        self.regex: Any = rule_regex.compile_rule(src, cache=False) if src else None


_NAMES: "weakref.WeakKeyDictionary[Any, _Names]" = weakref.WeakKeyDictionary()
_BY_CATALOG: dict[tuple[tuple[str, str, str], ...], _Names] = {}


def _names(room: "RoomState") -> _Names:
    """The room's names, cached per room and per catalog (the sessions of one scenario share them)."""
    got = _NAMES.get(room)
    if got is None:
        key = tuple((p.product_id, p.title, p.brand) for p in room.products)
        got = _BY_CATALOG.get(key)
        if got is None:
            if len(_BY_CATALOG) > 256:
                _BY_CATALOG.clear()
            got = _BY_CATALOG[key] = _Names(room.products)
        _NAMES[room] = got
    return got


def mentions(reply: "ReplyText", room: "RoomState") -> list[tuple[int, "Product"]]:
    """``(normalised offset, product)`` of every product the reply names, in order of offset."""
    text = reply.text
    out: list[tuple[int, Product]] = []
    for m in _LINK.finditer(text):
        num = next(g for g in m.groups() if g)
        p = room.by_link.get(int(num))
        if p is not None:
            out.append((m.start(), p))
    names = _names(room)
    if names.regex is not None:
        for m in names.regex.finditer(text):
            p = names.keys.get(m.group().lower())
            if p is not None and not _quantity_tail(text, m.start(), m.group(), p):
                out.append((m.start(), p))
    out.sort(key=lambda x: x[0])
    return out


_NUM_BEFORE = re.compile(r"(\d+(?:\.\d+)?)[\s-]?$")


def _quantity_tail(text: str, start: int, key: str, product: "Product") -> bool:
    """Whether the name ``key`` at ``start`` is the tail of a quantity the reply states ("斤装" of "2斤装" is the
    pack size, not 赣南脐橙 5斤装's name; "4 Pack"): a number right before it that the product's title does not
    write before the same words ("5斤装" still names the 5斤装 oranges)."""
    m = _NUM_BEFORE.search(text, max(0, start - 8), start)
    if m is None:
        return False
    title = product.title.lower()
    return re.search(rf"(?<![\d.]){re.escape(m.group(1))}[\s-]?{re.escape(key.lower())}", title) is None


def request_products(room: "RoomState", request: "LiveRequest | None",
                     calls: Sequence["ExecutedCall"] = ()) -> list["Product"]:
    """The products of the request: the links and orders its intents name, then the products its ok tool calls
    returned, in order, each once."""
    out: dict[str, Product] = {}
    if request is not None:
        for it in request.intents:
            for ln in (it.link, it.link2):
                if ln is not None:
                    p = room.by_link.get(int(ln))
                    if p is not None:
                        out.setdefault(p.product_id, p)
            if it.order_id is not None:
                o = room.orders.get(str(it.order_id))
                if o is not None and o.product_id in room.by_id:
                    out.setdefault(o.product_id, room.by_id[o.product_id])
    for c in calls:
        if c.ok and isinstance(c.result, dict):
            pid = c.result.get("product_id")
            if isinstance(pid, str) and pid in room.by_id:
                out.setdefault(pid, room.by_id[pid])
    return list(out.values())


class Scope:
    """The products a reply's claims are about (see the module docstring).

    Args:
        reply: the prepared reply.
        room: the room state.
        request: the request the reply answers (``None``: unknown).
        calls: the request's tool calls.
    """

    def __init__(self, reply: "ReplyText", room: "RoomState", request: "LiveRequest | None",
                 calls: Sequence["ExecutedCall"] = ()):
        self.reply = reply
        self.room = room
        self.named = mentions(reply, room)
        self._pos = [pos for pos, _ in self.named]
        self.requested = request_products(room, request, calls)
        union: dict[str, Product] = {p.product_id: p for _, p in self.named}
        for p in self.requested:
            union.setdefault(p.product_id, p)
        #: the products the reply is about as a whole (named or requested; the room's when none)
        self.products: tuple[Product, ...] = tuple(union.values()) or tuple(room.products)

    @property
    def categories(self) -> frozenset[str]:
        """Categories of :attr:`products` (what category-scoped rules look at)."""
        return frozenset(p.category for p in self.products)

    def products_at(self, pos: int) -> tuple["Product", ...]:
        """The products a claim at normalised offset ``pos`` is about (steps 1-5 of the module docstring)."""
        named = self.named
        i = bisect.bisect_right(self._pos, pos)  # named[:i] start at or before pos
        if named:
            s, e = self.reply.sentence(pos)
            if i and named[i - 1][0] >= s:
                return (named[i - 1][1],)
            if i < len(named) and named[i][0] < e:
                return (named[i][1],)
            if i:
                return (named[i - 1][1],)
        if self.requested:
            return tuple(self.requested)
        if i < len(named):
            return (named[i][1],)
        return tuple(self.room.products)


__all__ = ["Scope", "mentions", "request_products"]
