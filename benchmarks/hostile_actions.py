"""What each hostile action of tests/hostile/actions.yaml costs: the time of one ``LiveSession.feed`` and the
Python heap it peaks at, side by side with the reference agent's ordinary first turn in the same run (as ratios).

Each action is fed as the first turn of a fresh request (``beauty_zh``, seed 0); the time is the median of
``--repeat`` feeds (a fresh session each, so no cache of the last feed helps), the peak is ``tracemalloc``'s
over the feed (the value being fed is built before, so its own size is not counted).

    python benchmarks/hostile_actions.py [--repeat 3]

Results go to ``benchmarks/results/hostile-actions-DATE.json``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from _common import save  # noqa: E402


def feed_cost(make_action: Callable[[], Any], repeat: int) -> tuple[float, int]:
    """Median seconds of one feed of ``make_action()`` into a fresh request, and the largest heap peak (bytes)."""
    from hat_env.envs.session import LiveSession

    times: list[float] = []
    peak = 0
    for _ in range(repeat):
        s = LiveSession("beauty_zh", seed=0, duration_s=60)
        assert s.next_request()
        action = make_action()
        tracemalloc.start()
        t0 = time.perf_counter()
        s.feed(action)
        times.append(time.perf_counter() - t0)
        peak = max(peak, tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
        s.finish()
    return statistics.median(times), peak


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3, help="feeds per action (the median time is reported)")
    args = ap.parse_args()
    from hat_env.agents.reference import ReferenceAgent
    from hat_env.envs.session import LiveSession
    from hostile_inputs import build, load_corpus

    def ordinary() -> Any:
        s = LiveSession("beauty_zh", seed=0, duration_s=60)
        assert s.next_request()
        return ReferenceAgent().act(s.loop.agent_request())

    base_s, base_peak = feed_cost(ordinary, args.repeat)
    print(f"{'reference agent turn':42} {base_s * 1e3:8.2f} ms {base_peak / 2**20:8.2f} MB peak (the baseline)")
    rows: dict[str, Any] = {}
    for e in load_corpus("actions"):
        secs, peak = feed_cost(lambda e=e: build(e["action"]), args.repeat)
        rows[e["id"]] = {"ms": round(secs * 1e3, 2), "peak_mb": round(peak / 2**20, 2),
                         "time_ratio": round(secs / base_s, 1), "peak_ratio": round(peak / max(base_peak, 1), 1)}
        print(f"{e['id']:42} {secs * 1e3:8.2f} ms {peak / 2**20:8.2f} MB peak  ({secs / base_s:6.1f}x time, "
              f"{peak / max(base_peak, 1):6.1f}x heap)", flush=True)
    worst_t = max(rows.items(), key=lambda kv: kv[1]["ms"])
    worst_m = max(rows.items(), key=lambda kv: kv[1]["peak_mb"])
    print(f"slowest: {worst_t[0]} {worst_t[1]['ms']} ms; largest heap: {worst_m[0]} {worst_m[1]['peak_mb']} MB")
    path = save("hostile-actions", {"repeat": args.repeat, "baseline": {"ms": round(base_s * 1e3, 2),
                                                                       "peak_mb": round(base_peak / 2**20, 2)},
                                    "actions": rows, "slowest": worst_t[0], "largest_heap": worst_m[0]})
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
