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


# -- shared memory for AsyncVectorEnv -------------------------------------------------------------------------
# Gymnasium's Text shared memory stores indices into the space's charset, which cannot hold arbitrary Unicode.
# UnicodeText stores code points instead (-1 pads), so ``gymnasium.make_vec(..., vectorization_mode="async")``
# works with shared memory on.
from gymnasium.vector.utils import shared_memory as _shm  # noqa: E402


@_shm.create_shared_memory.register(UnicodeText)
def _create(space: UnicodeText, n: int = 1, ctx: Any = None) -> Any:
    import multiprocessing as mp

    return (ctx or mp).Array(np.dtype(np.int32).char, n * space.max_length)


@_shm.read_from_shared_memory.register(UnicodeText)
def _read(space: UnicodeText, shared_memory: Any, n: int = 1) -> tuple[str, ...]:
    data = np.frombuffer(shared_memory.get_obj(), dtype=np.int32).reshape((n, space.max_length))
    return tuple(row[row >= 0].astype("<i4").tobytes().decode("utf-32-le") for row in data)


@_shm.write_to_shared_memory.register(UnicodeText)
def _write(space: UnicodeText, index: int, values: str, shared_memory: Any) -> None:
    size = space.max_length
    dest = np.frombuffer(shared_memory.get_obj(), dtype=np.int32)
    codes = np.frombuffer(values.encode("utf-32-le"), dtype="<i4")[:size]
    dest[index * size : index * size + len(codes)] = codes
    dest[index * size + len(codes) : (index + 1) * size] = -1
