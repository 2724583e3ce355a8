"""The hosts of a multi-host room: what each is (:class:`HostSpec`), which comments it takes (its role,
:data:`ROLE_INTENTS`, or a custom :data:`Router`), and the routing state a host carries in the room
(:class:`RoomHost`: its open merge window, missed comments and credited conversions)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from hat_env.envs.host import Host
from hat_env.types import INTENT_KINDS, Comment

if TYPE_CHECKING:
    from hat_env.envs.room import Room
    from hat_env.harness.core import Harness
    from hat_env.sim.scenario import Scenario

#: Intent kinds each host role takes (by the comment's first intent). ``qa`` answers questions, ``promo`` pushes
#: products (prices, deals, orders); both greet.
ROLE_INTENTS: dict[str, frozenset[str]] = {
    "all": frozenset(INTENT_KINDS),
    "qa": frozenset({"spec", "stock", "shipping", "after_sales", "order_status", "compare", "chitchat", "troll",
                     "injection", "identity", "efficacy", "other_language"}),
    "promo": frozenset({"price", "campaign", "purchase", "chitchat"}),
}

#: A router: ``(comment, busy) -> host index or None`` where ``busy[i]`` says host ``i`` is handling a request.
#: ``None`` means no host hears the comment.
Router = Callable[[Comment, list[bool]], "int | None"]


@dataclass
class HostSpec:
    """One host of the room.

    Attributes:
        harness: a :class:`~hat_env.harness.Harness`, a pack name or path; ``None`` takes the scenario's harness
            (and only then follows the scenario's harness timeline).
        role: ``all``, ``qa`` or ``promo``: which comments the default router gives it (:data:`ROLE_INTENTS`).
        name: display name in its system prompt and on screen; ``None``: the scenario's host name for the first
            host, a co-host label for the others.
        hsa: Harness-State Augmentation options for this host (as ``LiveRoom-v0``'s ``hsa``); ``None`` takes the
            room's, ``{}`` runs this host without HSA.
    """

    harness: Any = None
    role: str = "all"
    name: str | None = None
    hsa: dict[str, Any] | None = None

    def __post_init__(self) -> None:
        if self.role not in ROLE_INTENTS:
            raise ValueError(f"unknown host role {self.role!r}; roles: {', '.join(ROLE_INTENTS)}")

    @classmethod
    def coerce(cls, x: Any) -> "HostSpec":
        """A HostSpec from a HostSpec, a dict of its fields, a Harness, or a harness pack name/path.

        Raises:
            TypeError: a dict with a key that is not a field (``harness``, ``role``, ``name``, ``hsa``).
        """
        if isinstance(x, HostSpec):
            return x
        if isinstance(x, dict):
            return cls(**x)
        return cls(harness=x)


def host_specs(hosts: int | list[Any]) -> list[HostSpec]:
    """Normalise the ``hosts`` argument: a count (1: one ``all`` host; 2: a ``qa`` host and a ``promo`` co-host;
    more: the rest ``all``) or a list of :class:`HostSpec`-likes."""
    if isinstance(hosts, int):
        if hosts < 1:
            raise ValueError("a live room needs at least one host")
        if hosts == 1:
            return [HostSpec(role="all")]
        return [HostSpec(role="qa"), HostSpec(role="promo")] + [HostSpec(role="all") for _ in range(hosts - 2)]
    specs = [HostSpec.coerce(h) for h in hosts]
    if not specs:
        raise ValueError("a live room needs at least one host")
    return specs


class RoomHost(Host):
    """A :class:`~hat_env.envs.host.Host` in a multi-host room, with its role and routing state.

    Args:
        room: the room.
        harness: its harness (loaded).
        spec: what the host is (role; its name and harness are already resolved).
        index: its position (agent ``host_<index>``).
        scenario: the scenario as this host sees it (its own name as ``room.host_name``).
        hsa: HSA options, or ``None``.
        max_history: earlier request/reply pairs shown with each request.

    Attributes:
        role, kinds: its role and the intent kinds the role takes.
        name: its display name.
        window: comments gathered for its next request; ``window_end``: when that request opens (``None``: no
            comment yet).
        missed: comments routed to it while it was busy.
        conversions: purchases credited to it (shared ones split).
    """

    def __init__(self, room: "Room", harness: "Harness", spec: HostSpec, index: int, scenario: "Scenario",
                 hsa: dict[str, Any] | None, max_history: int):
        super().__init__(room, harness, index=index, scenario=scenario, hsa=hsa, follow_timeline=spec.harness is None,
                         max_history=max_history, trace_head={"host": f"host_{index}"})
        self.spec = spec
        self.role = spec.role
        self.kinds = ROLE_INTENTS[spec.role]
        self.name = scenario.room.host_name
        self.window: list[Comment] = []
        self.window_end: float | None = None
        self.missed = 0
        self.conversions = 0.0


def route_by_role(c: Comment, hosts: list[RoomHost]) -> int:
    """The default router: the first idle host whose role takes the comment's first intent (greetings without
    intents count as ``chitchat``), else the first such host; when no role takes it, the same among all hosts."""
    kind = c.intents[0].kind if c.intents else "chitchat"
    cands = [h for h in hosts if kind in h.kinds] or hosts
    return next((h.index for h in cands if h.loop is None), cands[0].index)
