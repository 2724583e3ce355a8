"""Scripted timelines: comments and room events a scenario fixes in advance (``timeline:``).

A scenario may hold, besides (or instead of) its generated viewers, a script:

- ``timeline.comments``: ``{at_s, viewer, text, intents?}``: viewer ``viewer`` (a display name; the same name is
  the same viewer) sends ``text`` at room time ``at_s``. Without ``intents`` the comment parser
  (:func:`hat_env.sim.parser.parse_comment`) reads them from the text when the comment is sent, as for any comment
  written outside the simulator. :class:`~hat_env.sim.viewers.ViewerPool` sends them (see its docs).
- ``timeline.events``: changes of the room state at ``at_s``: ``price`` (a product's ``price``, optionally its
  ``list_price``), ``stock`` (a product's units left; ``0`` is a stock-out) and ``campaign`` (``set`` new values of
  a campaign's fields: ``start_s``, ``end_s``, ``amount``...). :class:`RoomEvents` applies them when the room
  clock reaches them; the room traces each as a ``room_event`` record.

``viewers.generate`` (see :class:`~hat_env.sim.scenario.ViewerSpec`) keeps, scales or removes the generated crowd.

Everything here is data: texts are bounded and never evaluated, references are checked when the scenario loads
(:func:`check_references`), and every event is applied once in a dry run when the room is built
(:class:`RoomEvents`), so an event that cannot apply is an error naming the file, the line and the reason before
the session starts, never in the middle of it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal, Union

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, field_validator

from hat_env.sim.campaigns import Campaign
from hat_env.sim.catalog import Product
from hat_env.types import INTENT_KINDS, Intent
from hat_env.yamlio import FieldError, FileError

if TYPE_CHECKING:
    from hat_env.sim.room import RoomState
    from hat_env.sim.scenario import Scenario

#: Longest scripted comment, in characters (the comment parser reads the first 2,000).
MAX_COMMENT_CHARS = 2000
#: Longest viewer name, in characters.
MAX_VIEWER_CHARS = 64
#: Most scripted comments in one scenario (a scenario file holds at most 200,000 YAML values anyway).
MAX_COMMENTS = 50_000
#: Most room events in one scenario.
MAX_EVENTS = 10_000
#: Most intents given with one scripted comment.
MAX_INTENTS = 8


def _text(v: str) -> str:
    """Comment text: no control characters but tab and newline (no other is ever typed in a comment box)."""
    bad = next((c for c in v if (ord(c) < 0x20 and c not in "\t\n") or 0x7F <= ord(c) <= 0x9F), None)
    if bad is not None:
        raise ValueError(f"must not contain control character U+{ord(bad):04X}")
    if not v.strip():
        raise ValueError("must not be blank")
    return v


def _name(v: str) -> str:
    """A viewer name: no control characters, not blank."""
    bad = next((c for c in v if ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F), None)
    if bad is not None:
        raise ValueError(f"must not contain control character U+{ord(bad):04X}")
    if not v.strip():
        raise ValueError("must not be blank")
    return v


#: What a scripted comment says.
CommentText = Annotated[str, Field(min_length=1, max_length=MAX_COMMENT_CHARS), AfterValidator(_text)]
#: Who says it.
ViewerName = Annotated[str, Field(min_length=1, max_length=MAX_VIEWER_CHARS), AfterValidator(_name)]


class _Frozen(BaseModel):
    # a script never changes once loaded: frozen models, shared (not copied) between the copies of a scenario
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False, frozen=True)

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> "_Frozen":
        """Frozen values are shared: a scenario's copies (one per load) need not copy a long script."""
        return self


class ScriptedIntent(_Frozen):
    """One intent of a scripted comment, as :class:`hat_env.types.Intent` holds it (what scoring expects)."""

    kind: str
    link: int | None = Field(None, ge=1, le=999)
    link2: int | None = Field(None, ge=1, le=999)
    attr: str | None = Field(None, min_length=1, max_length=64)
    order_id: str | None = Field(None, min_length=1, max_length=64)
    payload: str | None = Field(None, max_length=MAX_COMMENT_CHARS)

    @field_validator("kind")
    @classmethod
    def _kind(cls, v: str) -> str:
        if v not in INTENT_KINDS:
            raise ValueError(f"unknown intent kind {v!r}; known: {', '.join(INTENT_KINDS)}")
        return v

    def to_intent(self) -> Intent:
        """The :class:`~hat_env.types.Intent` it stands for."""
        return Intent(self.kind, self.link, self.link2, self.attr, self.order_id, self.payload)


class ScriptedComment(_Frozen):
    """A comment the script sends: viewer ``viewer`` writes ``text`` at room time ``at_s``.

    ``intents`` (what the comment asks, for scoring): as given, or ``None`` for what the comment parser reads in
    the text when the comment is sent.
    """

    at_s: float = Field(ge=0)
    viewer: ViewerName
    text: CommentText
    intents: tuple[ScriptedIntent, ...] | None = Field(None, max_length=MAX_INTENTS)

    def intent_tuple(self) -> tuple[Intent, ...] | None:
        """The given intents as :class:`~hat_env.types.Intent` values, or ``None`` when the parser decides."""
        return None if self.intents is None else tuple(i.to_intent() for i in self.intents)


class _Event(_Frozen):
    at_s: float = Field(ge=0)
    note: str = Field("", max_length=2000)


class PriceChange(_Event):
    """Product ``product`` sells at ``price`` from ``at_s`` on (and shows ``list_price``, when given)."""

    type: Literal["price"]
    product: str = Field(min_length=1, max_length=40)
    price: float = Field(gt=0)
    list_price: float | None = Field(None, gt=0)


class StockChange(_Event):
    """Product ``product`` has ``stock`` units left from ``at_s`` on (``0``: sold out)."""

    type: Literal["stock"]
    product: str = Field(min_length=1, max_length=40)
    stock: int = Field(ge=0, le=10**9)


class CampaignEdit(_Event):
    """Campaign ``campaign`` takes the values in ``set`` from ``at_s`` on (any field but its id and type:
    ``start_s``, ``end_s``, ``amount``, ``threshold``, ``flash_price``, ``title``, ``products``...); the edited
    campaign must be valid (checked when the room is built)."""

    type: Literal["campaign"]
    campaign: str = Field(min_length=1, max_length=40)
    set: dict[str, Any] = Field(min_length=1)

    @field_validator("set")
    @classmethod
    def _fields(cls, v: dict[str, Any]) -> dict[str, Any]:
        fixed = sorted(set(v) & {"campaign_id", "type"})
        if fixed:
            raise ValueError(f"a campaign edit cannot change {fixed}: add a new campaign instead")
        unknown = sorted(set(v) - set(Campaign.model_fields))
        if unknown:
            raise ValueError(f"unknown campaign fields {unknown}; known: {sorted(Campaign.model_fields)}")
        return v


#: One room event (``type`` says which).
RoomEvent = Annotated[Union[PriceChange, StockChange, CampaignEdit], Field(discriminator="type")]


_EVENT: TypeAdapter[Any] = TypeAdapter(RoomEvent)


class TimelineSpec(_Frozen):
    """A scenario's script: comments and room events at fixed room times (see the module docstring)."""

    comments: tuple[ScriptedComment, ...] = Field((), max_length=MAX_COMMENTS)
    events: tuple[RoomEvent, ...] = Field((), max_length=MAX_EVENTS)

    @field_validator("events", mode="before")
    @classmethod
    def _events(cls, v: Any) -> Any:
        """Each event by its ``type``, its errors located without the type name pydantic puts in the path."""
        if not isinstance(v, (list, tuple)) or len(v) > MAX_EVENTS:
            return v  # pydantic says what is wrong
        out = []
        for i, e in enumerate(v):
            try:
                out.append(_EVENT.validate_python(e))
            except ValidationError as exc:
                err = exc.errors()[0]
                loc = tuple(err["loc"])
                if isinstance(e, dict) and loc[:1] == (e.get("type"),):
                    loc = loc[1:]
                raise FieldError((i, *loc), "unknown field" if err["type"] == "extra_forbidden" else err["msg"]) from None
        return tuple(out)

    def __bool__(self) -> bool:
        """Whether the script holds anything."""
        return bool(self.comments or self.events)

    def sorted_comments(self) -> list[tuple[int, ScriptedComment]]:
        """``(index in the file, comment)`` in time order (ties keep the file's order)."""
        return sorted(enumerate(self.comments), key=lambda ic: ic[1].at_s)

    def sorted_events(self) -> list[tuple[int, Any]]:
        """``(index in the file, event)`` in time order (ties keep the file's order)."""
        return sorted(enumerate(self.events), key=lambda ie: ie[1].at_s)


def check_references(sc: "Scenario", product_ids: set[str]) -> None:
    """The script's references and times against its scenario (run when the scenario is validated).

    Args:
        sc: the scenario being validated.
        product_ids: every product id of its catalog (explicit and generated).

    Raises:
        FieldError: a comment or event after the end, an event naming an unknown product or campaign.
    """
    tl = sc.timeline
    for i, c in enumerate(tl.comments):
        if c.at_s > sc.duration_s:
            raise FieldError(("timeline", "comments", i, "at_s"),
                             f"a scripted comment at {c.at_s:g}s is after the end ({sc.duration_s:g}s)")
    campaigns = {c.campaign_id for c in sc.campaigns}
    for i, e in enumerate(tl.events):
        if e.at_s > sc.duration_s:
            raise FieldError(("timeline", "events", i, "at_s"),
                             f"an event at {e.at_s:g}s is after the end ({sc.duration_s:g}s)")
        if isinstance(e, (PriceChange, StockChange)) and e.product not in product_ids:
            raise FieldError(("timeline", "events", i, "product"),
                             f"unknown product {e.product!r}; products: {sorted(product_ids)}")
        if isinstance(e, CampaignEdit) and e.campaign not in campaigns:
            raise FieldError(("timeline", "events", i, "campaign"),
                             f"unknown campaign {e.campaign!r}; campaigns: {sorted(campaigns)}")


def _reason(exc: ValidationError) -> str:
    return "; ".join(f"{'.'.join(map(str, e['loc'])) + ': ' if e['loc'] else ''}{e['msg']}" for e in exc.errors())


class RoomEvents:
    """The scenario's room events, checked once against the room and applied when the clock reaches them.

    Args:
        scenario: the scenario (its ``timeline.events``; ``source`` and lines for errors).
        state: the room state they change (its own product copies, stock and campaign list).

    Raises:
        FileError: an event that cannot apply to this room (a ``list_price`` below the new price, a campaign edit
            that leaves the campaign invalid), naming the scenario file, the event's line and the reason. Every event is worked out here, in order, so none can fail later.
    """

    def __init__(self, scenario: "Scenario", state: "RoomState"):
        self.state = state
        self._todo: list[tuple[float, int, Any, Any]] = []  # (at_s, index, event, prepared value)
        self.next = 0
        events = scenario.timeline.events
        if not events:
            return
        products: dict[str, Product] = {}
        campaigns: dict[str, tuple[int, Campaign]] = {c.campaign_id: (k, c) for k, c in enumerate(state.campaigns)}
        problems: list[tuple[str, int | None, str]] = []
        for i, e in scenario.timeline.sorted_events():
            where = f"timeline.events.{i}"
            if isinstance(e, StockChange):
                self._todo.append((e.at_s, i, e, e.stock))
                continue
            if isinstance(e, PriceChange):
                cur = products.get(e.product) or state.by_id[e.product]
                upd = {"price": e.price} | ({"list_price": e.list_price} if e.list_price is not None else {})
                try:
                    new_p = Product.model_validate(cur.model_dump() | upd)
                except ValidationError as exc:
                    problems.append((where + ".price", scenario.line("timeline", "events", i, "price"),
                                     f"product {e.product} after the price change: {_reason(exc)}"))
                    continue
                products[e.product] = new_p
                self._todo.append((e.at_s, i, e, (new_p.price, new_p.list_price)))
                continue
            k, camp = campaigns[e.campaign]
            try:
                new_c = Campaign.model_validate(camp.model_dump() | dict(e.set))
            except ValidationError as exc:
                problems.append((where + ".set", scenario.line("timeline", "events", i, "set"),
                                 f"campaign {e.campaign} after the edit: {_reason(exc)}"))
                continue
            campaigns[e.campaign] = (k, new_c)
            self._todo.append((e.at_s, i, e, (k, new_c)))
        if problems:
            raise FileError(scenario.source or scenario.name, problems)

    def __len__(self) -> int:
        """Number of events in the script."""
        return len(self._todo)

    def due(self, t: float) -> list[dict[str, Any]]:
        """Apply every event due by room time ``t`` (not applied yet), oldest first.

        Returns:
            One JSON-ready ``room_event`` trace record per event applied: ``{"type": "room_event", "t": its time,
            "applied_t": t, "event": the event as written}``.
        """
        out: list[dict[str, Any]] = []
        todo = self._todo
        state = self.state
        while self.next < len(todo) and todo[self.next][0] <= t:
            at, _i, e, value = todo[self.next]
            self.next += 1
            if isinstance(e, StockChange):
                state.stock[e.product] = value
            elif isinstance(e, PriceChange):
                p = state.by_id[e.product]  # the room's own copy: every reader sees the new price
                p.price, p.list_price = value
            else:
                k, camp = value
                state.campaigns[k] = camp  # the list is the room's; the campaign objects may be the scenario's
            out.append({"type": "room_event", "t": round(at, 3), "applied_t": round(t, 3),
                        "event": e.model_dump(mode="json", exclude_defaults=True)})
        if out:  # rendered prompts show products and campaigns
            state.prompt_cache.clear()
            state.prompt_parts.clear()
        return out


__all__ = [
    "CampaignEdit", "MAX_COMMENTS", "MAX_COMMENT_CHARS", "PriceChange", "RoomEvent", "RoomEvents", "ScriptedComment",
    "ScriptedIntent", "StockChange", "TimelineSpec", "check_references",
]
