"""Comparing and writing amounts of money: equal to the cent, and an amount as notes write it."""

from __future__ import annotations

EPS = 0.0051


def eq(a: float, b: float) -> bool:
    """Equal to the cent (or to a millionth, for large values)."""
    return abs(a - b) < EPS or (b != 0 and abs(a - b) / abs(b) < 1e-6)


def fmt_money(x: float) -> str:
    """An amount as notes write it (``49.99``, ``45``)."""
    return f"{x:.2f}".rstrip("0").rstrip(".")
