"""What the compliance rules know about the request a reply answers (:class:`RequestFacts`): which product each
claim is about (:mod:`hat_env.constraints.scope`), the tool calls, and the evidence of the ``leak``
(:mod:`hat_env.constraints.leak`) and ``echo`` (:mod:`hat_env.constraints.echo`) kinds."""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from hat_env.constraints.echo import find_echo
from hat_env.constraints.leak import find_leak
from hat_env.constraints.scope import Scope
from hat_env.sim.compliance import ReplyFacts

if TYPE_CHECKING:
    from hat_env.harness.hooks import HarnessView
    from hat_env.sim.catalog import Product
    from hat_env.sim.room import RoomState
    from hat_env.sim.rule_text import ReplyText
    from hat_env.types import ExecutedCall, LiveRequest


class RequestFacts(ReplyFacts):
    """The facts of one request for :meth:`hat_env.sim.compliance.RuleSet.check`.

    Args:
        reply: the prepared reply.
        room: the room state at the request's moment.
        locale: the room's locale.
        request: the request (its intents, comments), or ``None``.
        calls: the tool calls of the request so far.
        harness: the harness of the request (its prompt, skills and tools are what must not leak), or ``None``.
    """

    def __init__(self, reply: "ReplyText", room: "RoomState", locale: str, request: "LiveRequest | None",
                 calls: Sequence["ExecutedCall"], harness: "HarnessView | None"):
        self.scope = Scope(reply, room, request, calls)
        super().__init__(self.scope.products, calls)
        self.room = room
        self.locale = locale
        self.request = request
        self.harness = harness

    def products_at(self, pos: int) -> Sequence["Product"]:
        """The products a claim at normalised offset ``pos`` is about (:meth:`Scope.products_at`)."""
        return self.scope.products_at(pos)

    def leak(self, reply: "ReplyText", min_run: float) -> tuple[str, str] | None:
        """See :func:`hat_env.constraints.leak.find_leak`."""
        return find_leak(reply, self.harness, self.room, self.request, min_run)

    def echo(self, reply: "ReplyText", min_tokens: int, min_share: float) -> tuple[str, str] | None:
        """See :func:`hat_env.constraints.echo.find_echo`."""
        return find_echo(reply, self.request, self.locale, min_tokens, min_share)


__all__ = ["RequestFacts"]
