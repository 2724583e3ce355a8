"""Optional structured after-sales terms and size charts of a product (room format, ``docs/scenarios.md``).

Facts a room could once state only in a free-text ``returns.note`` can be written as data, so the tools return
them and the claims engine checks what a host says about them (:mod:`hat_env.scoring.claims.check_after_sales`,
:mod:`hat_env.scoring.claims.check_size_chart`):

- ``returns.restocking_fee``: a fee kept from a refund, a ``percent`` of the price or an ``amount``, and ``when``
  it applies (free text the tools show: "opened items");
- ``returns.warranty_parts``: what a warranty covers, part by part (``names`` a viewer or host uses for the part,
  its ``warranty`` length, or ``covered: false``): "1 year on the movement, strap not covered", "开胶保修6个月";
- ``returns.return_shipping_insurance``: whether return shipping is paid for the buyer (运费险, "free return
  shipping"): true or false; absent: the data does not say;
- ``returns.no_return_when``: conditions that make a returnable product final sale (``names``: "opened",
  "拆封", "engraved"), each a list of the words for it;
- ``size_chart``: sizes and what each measures (``measure``: "foot length", ``unit``: cm | mm | in, ``rows``
  of ``sizes`` (every name of one size: ``[42码, EU 42]``) with a ``value`` or a ``min``-``max`` range).

Nothing here knows a room: names are the room's words, matched as :mod:`hat_env.sim.room_words` matches regions.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


class _Named(_Strict):
    """Something a viewer or host names by any of ``names``."""

    names: list[str] = Field(min_length=1)

    @model_validator(mode="after")
    def _no_empty_name(self) -> "_Named":
        if any(not n.strip() for n in self.names):
            raise ValueError("names: a name is empty")
        return self


def unique_names(items: list[_Named], field: str) -> None:
    """Raise when two of ``items`` share a name (case ignored); ``field`` names the list in the error."""
    seen: dict[str, int] = {}
    for k, it in enumerate(items):
        for n in it.names:
            key = n.strip().casefold()
            if key in seen and seen[key] != k:
                raise ValueError(f"{field}.{k}.names: {n!r} is also a name of {field}.{seen[key]}")
            seen[key] = k


class RestockingFee(_Strict):
    """A restocking fee kept from a refund: ``percent`` of the price paid or an ``amount`` (give one), and
    ``when`` it applies (free text, e.g. "opened items"; empty: every return)."""

    percent: float | None = Field(None, gt=0, le=100)
    amount: float | None = Field(None, gt=0)
    when: str = ""

    @model_validator(mode="after")
    def _one(self) -> "RestockingFee":
        if (self.percent is None) == (self.amount is None):
            raise ValueError("give one of percent (of the price) or amount")
        return self


class WarrantyLength(_Strict):
    """A warranty length in whole ``unit``."""

    value: int = Field(ge=1)
    unit: Literal["days", "months", "years"]

    @property
    def months(self) -> float:
        """The length in months (a day is 1/30 of a month)."""
        return self.value * {"days": 1 / 30, "months": 1, "years": 12}[self.unit]


class WarrantyPart(_Named):
    """What the warranty says of one part ("movement", "机芯", "开胶"): covered for ``warranty``, or not covered
    (``covered: false``, then no length)."""

    warranty: WarrantyLength | None = None
    covered: bool = True

    @model_validator(mode="after")
    def _length(self) -> "WarrantyPart":
        if self.covered and self.warranty is None:
            raise ValueError("a covered part needs its warranty length ({value: 1, unit: years}); "
                             "or covered: false")
        if not self.covered and self.warranty is not None:
            raise ValueError("a part that is not covered (covered: false) has no warranty length")
        return self


class NoReturn(_Named):
    """A condition under which the product cannot be returned ("opened", "worn", "engraved", "拆封")."""


class SizeRow(_Strict):
    """One size of a chart: every name it goes by (``[42码, EU 42]``, ``[US 9, 9]``) and what it measures, one
    ``value`` or a ``min``-``max`` range."""

    sizes: list[str] = Field(min_length=1)
    value: float | None = Field(None, gt=0)
    min: float | None = Field(None, gt=0)
    max: float | None = Field(None, gt=0)

    @model_validator(mode="after")
    def _measure(self) -> "SizeRow":
        if any(not s.strip() for s in self.sizes):
            raise ValueError("sizes: a size name is empty")
        if self.value is None and (self.min is None or self.max is None):
            raise ValueError("give value, or min and max")
        if self.value is not None and (self.min is not None or self.max is not None):
            raise ValueError("give value or min/max, not both")
        if self.min is not None and self.max is not None and self.min > self.max:
            raise ValueError(f"min {self.min:g} is above max {self.max:g}")
        return self

    @property
    def low(self) -> float:
        """The smallest measure of the size."""
        return self.value if self.value is not None else float(self.min or 0)

    @property
    def high(self) -> float:
        """The largest measure of the size."""
        return self.value if self.value is not None else float(self.max or 0)


#: a size chart's units, in millimetres (the claims engine's length base)
CHART_UNITS_MM = {"mm": 1.0, "cm": 10.0, "in": 25.4}


class SizeChart(_Strict):
    """A size chart: what the sizes measure (``measure``, free text: "foot length", "脚长", "chest"), its
    ``unit`` and one row per size."""

    measure: str = Field(min_length=1)
    unit: Literal["mm", "cm", "in"] = "cm"
    rows: list[SizeRow] = Field(min_length=1)

    @model_validator(mode="after")
    def _unique(self) -> "SizeChart":
        seen: dict[str, int] = {}
        for k, row in enumerate(self.rows):
            for n in row.sizes:
                key = n.strip().casefold()
                if key in seen and seen[key] != k:
                    raise ValueError(f"rows.{k}.sizes: {n!r} is also a size of rows.{seen[key]}")
                seen[key] = k
        return self


__all__ = ["CHART_UNITS_MM", "NoReturn", "RestockingFee", "SizeChart", "SizeRow", "WarrantyLength", "WarrantyPart",
           "unique_names"]
