"""Rooms for the parser and grader tests: a built-in scenario's :class:`~hat_env.sim.room.RoomState` at a catalog
seed (its products, prices, stock and vocabulary as the suites draw them), and a parse function bound to a set of
rooms. Each test file picks its own seed (one no labelled set uses), so its expectations are read from that
room's data (``python scenarios/calibration/facts.py room SCENARIO SEED T``)."""

from __future__ import annotations

from typing import Callable, Iterable

from hat_env.envs.session import stream
from hat_env.sim.parser import parse_comment
from hat_env.sim.room import RoomState
from hat_env.sim.scenario import load_scenario
from hat_env.types import Intent

#: the eight built-in scenarios
BUILT_IN = ("beauty_zh", "healthfood_zh", "apparel_flash_zh", "groceries_zh", "electronics_en", "pets_en",
            "appliances_en", "hogar_es")


def room(scenario: str, seed: int) -> RoomState:
    """A new room of ``scenario`` (a built-in name or a path) with its catalog drawn at ``seed``."""
    return RoomState(load_scenario(scenario), stream(seed, "catalog"))


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
