"""Viewer display names: Faker's names, drawn only when a viewer needs one, from the pool's own seeded stream.

A room's name pool is the first N names Faker's ``name()`` gives for the room's locale after
``seed_instance(seed)``; a viewer gets pool slot ``int(rng.random() * N)``. Drawing all N names when a room
starts took most of a reset, and most slots are never used. :class:`NamePool` draws them on demand, in order up
to the highest slot asked for, with a ``random.Random(seed)`` of its own (what ``seed_instance`` builds), so the
room's other random streams are untouched and every name is the one Faker would have given.

Faker's ``name()`` builds each name through ``random_element`` and ``parse``, which re-sums the weights of a
weighted list on every draw. For the person providers whose methods are Faker's own (the base ``Person``
provider's ``name``, ``first_name``, ``last_name``, their gendered forms, prefixes and suffixes, as ``zh_CN`` and
``en_US`` use them) the pool replays the same draws on the same generator with the sums taken once: the same
calls of ``Random.choice`` and the same ``Random.random()`` values into the same cumulative weights, so the same
names (``tests/test_names.py`` checks this against Faker itself). A provider this module does not know (a
method overridden, a format with argument groups) is drawn through Faker itself, all N names at once.
"""

from __future__ import annotations

import bisect
import itertools
import random
from functools import lru_cache
from typing import Any, Callable

Draw = Callable[[random.Random], str]

_SEXES = ("male", "female", "nonbinary")


#: A compiled draw: ``(0, text)`` a literal, ``(1, seq)`` ``Random.choice(seq)``, ``(2, keys, cum, total, hi)``
#: ``Random.choices(keys, weights)`` with the sums taken once, ``(3, draw)`` any other draw.
Op = tuple[Any, ...]


def _op(obj: Any, weighting: bool) -> Op:
    """``random_element(obj)`` as Faker's ``BaseProvider.random_elements(obj, length=1)`` draws it: a weighted
    ``OrderedDict`` through ``Random.choices(keys, weights=values)`` (one ``random()`` into the cumulative
    weights), anything else through ``Random.choice``."""
    if isinstance(obj, dict):
        keys = tuple(obj.keys())
        if weighting:
            cum = list(itertools.accumulate(obj.values()))  # what Random.choices sums on every call
            return (2, keys, cum, cum[-1] + 0.0, len(keys) - 1)
        obj = keys
    return (1, obj if isinstance(obj, (tuple, list, str)) else tuple(obj))


def _run(op: Op, rnd: random.Random) -> str:
    """Draw one compiled :data:`Op`."""
    kind = op[0]
    if kind == 1:
        return rnd.choice(op[1])
    if kind == 2:
        return op[1][bisect.bisect(op[2], rnd.random() * op[3], 0, op[4])]
    if kind == 3:
        return str(op[1](rnd))
    return op[1]


def _affix(p: Any, plural: str, weighting: bool) -> Op:
    """Faker's ``prefix()`` / ``suffix()`` (``plural``: ``prefixes`` / ``suffixes``)."""
    if hasattr(p, plural):
        return _op(getattr(p, plural), weighting)
    have = [hasattr(p, f"{plural}_{s}") for s in _SEXES]
    if all(have):
        from faker.utils.datasets import add_ordereddicts

        return _op(add_ordereddicts(*(getattr(p, f"{plural}_{s}") for s in _SEXES)), weighting)
    if have[0] and have[1]:
        parts = (getattr(p, f"{plural}_male"), getattr(p, f"{plural}_female"))
        ops = {id(d): _op(d, weighting) for d in parts}

        def two(rnd: random.Random) -> str:  # random_element((male, female)), then an element of the one drawn
            return _run(ops[id(rnd.choice(parts))], rnd)

        return (3, two)
    return (0, "")


def _token(p: Any, token: str, weighting: bool) -> Op | None:
    """The compiled draw of one ``{{token}}`` of a name format, or ``None`` when it is not a base ``Person``
    method."""
    from faker.providers.person import Provider as Person

    if getattr(type(p), token, None) is not getattr(Person, token, object()):
        return None  # overridden by the locale, or not a person method: leave it to Faker
    if token in ("first_name", "last_name"):
        return _op(getattr(p, token + "s"), weighting)
    if token in ("prefix", "suffix"):
        return _affix(p, token + "es", weighting)
    base, _, sex = token.rpartition("_")
    if sex not in _SEXES:
        return None
    if base in ("first_name", "last_name"):
        attr = f"{base}s_{sex}"
        return _op(getattr(p, attr), weighting) if hasattr(p, attr) else _token(p, base, weighting)
    if base in ("prefix", "suffix"):
        attr = f"{base}es_{sex}"
        return _op(getattr(p, attr), weighting) if hasattr(p, attr) else _token(p, base, weighting)
    return None


@lru_cache(maxsize=8)
def _fast_name(locale: str) -> Draw | None:
    """A draw equal to ``Faker(locale).name()`` on the same ``random.Random``, or ``None`` when the locale's
    person provider is not one this module knows."""
    from faker.generator import _re_token
    from faker.providers.person import Provider as Person

    from hat_env.sim.catalog import _faker

    gen = _faker(locale).factories[0]
    name = gen.get_formatter("name")
    p = getattr(name, "__self__", None)
    if p is None or getattr(type(p), "name", None) is not Person.name:
        return None
    weighting = bool(getattr(p, "__use_weighting__", True))
    patterns: dict[str, tuple[Op, ...]] = {}
    formats = p.formats
    for pattern in (formats.keys() if isinstance(formats, dict) else formats):
        ops: list[Op] = []
        at = 0
        for m in _re_token.finditer(pattern):
            if m.group(2):  # an argument group: Faker's own parse
                return None
            op = _token(p, m.group(1), weighting)
            fmt = gen.get_formatter(m.group(1))
            if op is None or getattr(fmt, "__self__", None) is not p:
                return None
            if m.start() > at:
                ops.append((0, pattern[at:m.start()]))
            ops.append(op)
            at = m.end()
        if at < len(pattern):
            ops.append((0, pattern[at:]))
        patterns[pattern] = tuple(ops)
    pick = _op(formats, weighting)
    choose, weigh = random.Random.choice, bisect.bisect

    def fast(rnd: random.Random) -> str:
        out = []
        for op in patterns[_run(pick, rnd)]:  # Faker's parse: tokens left to right, literals kept
            kind = op[0]
            if kind == 1:
                out.append(choose(rnd, op[1]))
            elif kind == 2:
                out.append(op[1][weigh(op[2], rnd.random() * op[3], 0, op[4])])
            else:
                out.append(_run(op, rnd))
        return "".join(out)

    return fast


class NamePool:
    """``size`` display names of ``locale`` seeded by ``seed``, drawn as they are asked for.

    Args:
        locale: the room's locale (``zh_CN``, ``en_US``...).
        seed: the pool's seed (what the room drew for Faker's ``seed_instance``).
        size: how many names the pool holds (slots ``0 .. size - 1``).
    """

    def __init__(self, locale: str, seed: int, size: int):
        self.size = int(size)
        self._names: list[str] = []
        self._draw = _fast_name(locale)
        self._rnd = random.Random(seed)
        if self._draw is None:  # a provider this module does not know: Faker itself, every name now
            from hat_env.sim.catalog import _faker

            fake = _faker(locale)
            fake.seed_instance(seed)
            self._names = [fake.name() for _ in range(self.size)]

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, i: int) -> str:
        """The name in slot ``i`` (drawing the slots before it first, in order)."""
        if not 0 <= i < self.size:
            raise IndexError(f"name slot {i} outside 0..{self.size - 1}")
        names, draw, rnd = self._names, self._draw, self._rnd
        while len(names) <= i:
            names.append(draw(rnd))  # type: ignore[misc]
        return names[i]

    @property
    def drawn(self) -> int:
        """How many names have been drawn so far."""
        return len(self._names)


__all__ = ["NamePool"]
