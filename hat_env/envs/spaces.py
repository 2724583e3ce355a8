"""Text spaces for any Unicode text (Chinese, emoji), which ``gymnasium.spaces.Text``'s charset check cannot
express without listing a million characters."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

#: Characters ``sample()`` draws from: ASCII letters, digits, punctuation, space, and common CJK characters.
SAMPLE_CHARSET = (
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,!?:;'\"{}[]<>_-/"
    "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所"
    "链接号多少钱优惠券包邮退货直播间宝宝主播"
)


class UnicodeText(spaces.Text):
    """A :class:`gymnasium.spaces.Text` that contains any ``str`` within the length bounds.

    Sampling still draws from :data:`SAMPLE_CHARSET`, so ``check_env`` feeds random strings (Chinese included).
    """

    def __init__(self, max_length: int, min_length: int = 0, seed: int | np.random.Generator | None = None):
        super().__init__(max_length=max_length, min_length=min_length, charset=SAMPLE_CHARSET, seed=seed)

    def contains(self, x: Any) -> bool:
        """Any string whose length is within ``[min_length, max_length]``."""
        return isinstance(x, str) and self.min_length <= len(x) <= self.max_length

    def __repr__(self) -> str:
        return f"UnicodeText({self.min_length}, {self.max_length})"

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, UnicodeText) and self.min_length == other.min_length and self.max_length == other.max_length


def observation_space(max_length: int = 262_144) -> spaces.Dict:
    """``Dict({"text": UnicodeText})``: the rendered conversation."""
    return spaces.Dict({"text": UnicodeText(max_length=max_length)})


def action_space(max_length: int = 16_384) -> UnicodeText:
    """The raw model output string."""
    return UnicodeText(max_length=max_length)
