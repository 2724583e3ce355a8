"""Progress of a long run that suits where the output goes: a live bar on a terminal; on a pipe, a log file or CI,
one plain line every tenth of the work (a bar redrawn with carriage returns would flood those with thousands of
lines)."""

from __future__ import annotations

import sys
import time
from typing import IO, Any


class Progress:
    """Report ``(done, total)`` updates.

    Args:
        desc: what is counted (``bench reference``).
        unit: the unit (``case``).
        quiet: report nothing.
        stream: where to write (default ``sys.stderr``); a bar when it is a terminal, else lines.
        steps: lines per run when not a terminal (one per ``total / steps`` done, and the last).
    """

    def __init__(self, desc: str, unit: str = "case", quiet: bool = False, stream: IO[str] | None = None,
                 steps: int = 10):
        self.desc, self.unit, self.quiet = desc, unit, quiet
        self.stream = stream if stream is not None else sys.stderr
        self.steps = max(1, steps)
        self.t0 = time.perf_counter()
        self._next = 0
        self._ended = False
        self._bar: Any = None
        isatty = getattr(self.stream, "isatty", None)
        self.tty = bool(isatty()) if callable(isatty) else False

    def update(self, done: int, total: int) -> None:
        """``done`` of ``total`` are finished."""
        if self.quiet:
            return
        if self.tty:
            if self._bar is None:
                from tqdm import tqdm

                self._bar = tqdm(total=total, desc=self.desc, unit=self.unit, file=self.stream)
            self._bar.total = total
            self._bar.n = done
            self._bar.refresh()
            return
        every = max(1, -(-total // self.steps))  # ceil: at most `steps` lines before the last
        if (done >= self._next and done < total) or (done >= total and not self._ended):
            el = time.perf_counter() - self.t0
            pct = 100.0 * done / total if total else 100.0
            self.stream.write(f"{self.desc}: {done}/{total} {self.unit}s ({pct:.0f}%), {el:.1f} s\n")
            self.stream.flush()
            self._next = (done // every + 1) * every
            self._ended = done >= total

    def close(self) -> None:
        """Finish the bar (terminal) or nothing more (lines)."""
        if self._bar is not None:
            self._bar.close()
            self._bar = None
