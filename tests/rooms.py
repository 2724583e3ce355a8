"""Rooms for the parser and grader tests: a built-in scenario's (or a dev room's)
:class:`~hat_env.sim.room.RoomState` at a catalog seed (its products, prices, stock and vocabulary as the suites draw
them), a parse function bound to a set of rooms, and the reasons the claims engine gives for what it reads as false
in a reply. Each test file picks its own seed (one no labelled set uses), so its expectations are read from that
room's data (``python scenarios/calibration/facts.py room SCENARIO SEED T``)."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable

from hat_env.envs.session import stream
from hat_env.sim.parser import parse_comment
from hat_env.sim.room import RoomState
from hat_env.sim.scenario import load_scenario
from hat_env.types import Intent

if TYPE_CHECKING:
    from hat_env.scoring import ScoringContext
    from hat_env.sim.compliance import RuleSet

#: the dev rooms of the grader and parser tests
DATA_ROOMS = Path(__file__).parent / "data" / "rooms"
#: the eight built-in scenarios
BUILT_IN = ("beauty_zh", "healthfood_zh", "apparel_flash_zh", "groceries_zh", "electronics_en", "pets_en",
            "appliances_en", "hogar_es")


def room(scenario: "str | Path", seed: int, t: float | None = None) -> RoomState:
    """A new room of ``scenario`` with its catalog drawn at ``seed``.

    Args:
        scenario: a built-in name, a file of tests/data/rooms by its name (``"cycle_en.yaml"``), or a path.
        seed: the catalog draw; t: the room's time in seconds (campaigns and stock change with it), when given.
    """
    data_room = DATA_ROOMS / str(scenario)
    r = RoomState(load_scenario(str(data_room) if data_room.is_file() else str(scenario)), stream(seed, "catalog"))
    if t is not None:
        r.t = t
    return r


def bad(reply: str, r: RoomState, *intents: Intent) -> list[str]:
    """The reasons of the false or unsupported claims the claims engine reads in ``reply`` (room ``r``, the viewers'
    ``intents``): empty for a reply it passes as accurate."""
    from hat_env.scoring.claims import read_claims

    return [c.reason for c in read_claims(reply, r, intents=intents).bad]


@functools.cache
def default_rules() -> "RuleSet":
    """The default rule pack (read once), the one the calibration grades with."""
    from hat_env.sim.compliance import RuleSet

    return RuleSet.default()


def _context(r: RoomState, reply: str, intents: tuple[Intent, ...], text: str) -> "ScoringContext":
    """The scoring context of ``reply`` to one viewer comment ``text`` with ``intents`` in room ``r``."""
    from hat_env.scoring import ScoringContext
    from hat_env.types import Comment, LiveRequest, RequestOutcome

    req = LiveRequest("r0001", 10.0, [Comment(9.0, "v1", "viewer", "asker", text, tuple(intents))])
    out = RequestOutcome(req, reply, [], ["item_qa"], turns=1, latency_s=2.0)
    return ScoringContext(outcome=out, room=r, rules=default_rules())


def accuracy_of(r: RoomState, reply: str, *intents: Intent, text: str = "?") -> float:
    """The accuracy component of ``reply`` in room ``r`` for a viewer who wrote ``text`` with ``intents`` (default
    rules)."""
    from hat_env.scoring import accuracy

    return accuracy(_context(r, reply, intents, text))


def scores(r: RoomState, reply: str, *intents: Intent, text: str = "?") -> tuple[float, float]:
    """``(accuracy, effectiveness)`` of ``reply`` in room ``r`` for a viewer who wrote ``text`` with ``intents``
    (default rules)."""
    from hat_env.scoring import accuracy, effectiveness

    ctx = _context(r, reply, intents, text)
    return accuracy(ctx), effectiveness(ctx)


def grade_one(scenario: str, seed: int, t: float, comment: str, reply: str,
              intents: "list[dict[str, Any]] | None" = None) -> dict[str, Any]:
    """``grade()`` of one final ``reply`` to one viewer ``comment`` in ``scenario`` (catalog ``seed``, at ``t`` s):
    the result dict (``components``, ``notes``). ``intents``: the comment's intents as dicts, when given (else the
    grader reads them from the text)."""
    from hat_env.scoring import grade

    one: dict[str, Any] = {"text": comment} if intents is None else {"text": comment, "intents": intents}
    return grade({"scenario": scenario, "seed": seed, "t": t, "comments": [one]}, [reply])


def passes(c: dict[str, float]) -> bool:
    """Whether graded components ``c`` pass the reply: accuracy 1, effectiveness at least 0.5, compliance 1."""
    return c["accuracy"] == 1 and c["effectiveness"] >= 0.5 and c["compliance"] == 1


def rooms(seed: int, scenarios: Iterable[str] = BUILT_IN) -> dict[str, RoomState]:
    """``{scenario: room}`` for each of ``scenarios`` (default: every built-in one) at ``seed``."""
    return {s: room(s, seed) for s in scenarios}


def parser(by_name: dict[str, RoomState]) -> Callable[[str, str], list[Intent]]:
    """``parse(scenario, text)``: the intents of a comment ``text`` in the room ``by_name[scenario]``, read in the
    room's own locale against its catalog."""

    def parse(scenario: str, text: str) -> list[Intent]:
        r = by_name[scenario]
        return parse_comment(text, r.locale, catalog=r)

    return parse


def link_of(r: RoomState, part: str) -> int:
    """The link of the product of room ``r`` whose title contains ``part`` (exactly one must)."""
    (ln,) = [p.link for p in r.products if part in p.title]
    return ln


def intents(r: RoomState, text: str) -> list[tuple[str, int | None, int | None, str | None]]:
    """``(kind, link, link2, attr of a spec)`` of each intent the parser reads in ``text`` in room ``r``, sorted."""
    return sorted(((i.kind, i.link, i.link2, i.attr if i.kind == "spec" else None)
                   for i in parse_comment(text, r.locale, catalog=r)), key=str)

