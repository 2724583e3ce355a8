"""Soak test: 10,000 requests with memory sampled, to show that nothing grows without bound.

Three runs, each of ``--requests`` requests answered by the reference agent, traced to a JSONL file as real runs
are:

- ``session``: one long ``LiveSession`` (the stream lengthened until it holds the requests): the history, the
  outcomes and anything a session keeps per request;
- ``resets``: ``LiveRoom-v0`` episodes of 300 s, reset until the requests are done: what outlives a session
  (module caches, harness states, render caches);
- ``hostile``: as ``resets``, but every request starts with a hostile action from tests/hostile/actions.yaml
  (deep JSON, huge strings, surrogates, NaN seconds ...), fed before the reference agent answers.

Every ``--sample-every`` requests it records the Python heap (``tracemalloc``, current bytes) and the process RSS
(``/proc/self/statm``). The slope is the least-squares line through the samples after the first 20% (warm-up:
imports, first caches), in bytes per request; flat is the goal. The largest growing allocation sites between
the first and the last sample are listed (``tracemalloc`` snapshots), to find what grows.

    python benchmarks/soak.py [--requests 10000] [--runs session,resets,hostile] [--label NAME]

Results go to ``benchmarks/results/soak[-LABEL]-DATE.json``.
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any, Callable, Iterator

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from _common import save  # noqa: E402

PAGE = os.sysconf("SC_PAGE_SIZE")


def rss_bytes() -> int:
    """The process's resident set size now."""
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * PAGE


def slope(xs: list[int], ys: list[int]) -> float:
    """Least-squares slope of ``ys`` over ``xs``, after the first 20% of the samples."""
    k = max(0, len(xs) // 5)
    xs, ys = xs[k:], ys[k:]
    if len(xs) < 2:
        return 0.0
    return statistics.linear_regression(xs, ys).slope


def _hostile_actions() -> Iterator[Any]:
    """The hostile corpus's actions, built fresh, round and round."""
    from hostile_inputs import build, load_corpus

    entries = [e for e in load_corpus("actions") if "huge" not in e["id"] and "2m" not in e["id"]]
    while True:
        for e in entries:
            yield build(e["action"])


def run_session(n: int, folder: Path, tick: Callable[[int], None]) -> None:
    """``n`` requests of one long session."""
    from hat_env.agents.reference import ReferenceAgent
    from hat_env.envs.session import LiveSession

    agent = ReferenceAgent()
    s = LiveSession("beauty_zh", seed=0, duration_s=n * 8.0, trace=folder / "session.jsonl")
    done = 0
    while done < n and s.next_request():
        while s.feed(agent.act(s.loop.agent_request())) is None:
            pass
        done += 1
        tick(done)
    s.finish()


def run_resets(n: int, folder: Path, tick: Callable[[int], None], hostile: bool = False) -> None:
    """``n`` requests over LiveRoom-v0 episodes of 300 s (with a hostile first turn each when ``hostile``)."""
    import gymnasium as gym

    import hat_env  # noqa: F401
    from hat_env.agents.reference import ReferenceAgent

    agent = ReferenceAgent()
    bad = _hostile_actions() if hostile else None
    env = gym.make("hat_env/LiveRoom-v0", scenario="beauty_zh", duration_s=300.0)
    done, episode = 0, 0
    while done < n:
        env.reset(seed=episode, options={"trace": str(folder / f"ep{episode % 2}.jsonl")})
        episode += 1
        s = env.unwrapped.session
        first = True
        while s.loop is not None and done < n:
            loop = s.loop
            act = next(bad) if (bad is not None and first) else agent.act(loop.agent_request())
            first = False
            _, _, term, _, info = env.step(act)
            if info.get("request_done"):
                done += 1
                first = True
                tick(done)
            if term:
                break
    env.close()


def measure(name: str, n: int, every: int, runner: Callable[..., None], **kw: Any) -> dict[str, Any]:
    """Run one soak with memory sampled every ``every`` requests."""
    xs: list[int] = []
    heap: list[int] = []
    rss: list[int] = []
    snaps: list[Any] = []
    t0 = time.perf_counter()

    def tick(done: int) -> None:
        if done % every == 0 or done == n:
            gc.collect()
            xs.append(done)
            heap.append(tracemalloc.get_traced_memory()[0])
            rss.append(rss_bytes())
            if len(xs) == max(1, len(range(every, n + 1, every)) // 5) or done == n:
                snaps.append(tracemalloc.take_snapshot())

    with tempfile.TemporaryDirectory() as d:
        tracemalloc.start(1)  # one frame: the allocating line (deeper tracebacks cost several times more)
        try:
            runner(n, Path(d), tick, **kw)
        finally:
            tracemalloc.stop()
    growth = []
    if len(snaps) >= 2:
        for st in snaps[-1].compare_to(snaps[0], "lineno")[:5]:
            frame = st.traceback[0]
            growth.append({"site": f"{Path(frame.filename).name}:{frame.lineno}", "bytes": st.size_diff,
                           "count": st.count_diff})
    k = len(xs) // 5
    out = {
        "requests": xs[-1] if xs else 0,
        "seconds": round(time.perf_counter() - t0, 1),
        "heap_bytes_per_request": round(slope(xs, heap), 1),
        "rss_bytes_per_request": round(slope(xs, rss), 1),
        "heap_mb_after_warmup_and_end": [round(heap[k] / 2**20, 2), round(heap[-1] / 2**20, 2)] if heap else None,
        "rss_mb_after_warmup_and_end": [round(rss[k] / 2**20, 1), round(rss[-1] / 2**20, 1)] if rss else None,
        "samples": {"requests": xs, "heap_mb": [round(h / 2**20, 3) for h in heap],
                    "rss_mb": [round(r / 2**20, 1) for r in rss]},
        "top_growth": growth,
    }
    print(f"{name:8} {out['requests']:6d} requests {out['seconds']:7.1f} s  heap {out['heap_bytes_per_request']:9.1f} "
          f"B/request ({out['heap_mb_after_warmup_and_end']} MB)  RSS {out['rss_bytes_per_request']:9.1f} B/request "
          f"({out['rss_mb_after_warmup_and_end']} MB)", flush=True)
    for g in growth[:3]:
        print(f"          grew: {g['site']} {g['bytes'] / 1024:.1f} KiB in {g['count']} blocks")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=10_000)
    ap.add_argument("--sample-every", type=int, default=250)
    ap.add_argument("--runs", default="session,resets,hostile")
    ap.add_argument("--label", default="", help="a suffix for the results file (e.g. 'main' for a run on main)")
    args = ap.parse_args()
    import hat_env

    runs = {"session": (run_session, {}), "resets": (run_resets, {}), "hostile": (run_resets, {"hostile": True})}
    figures: dict[str, Any] = {"hat_env": str(Path(hat_env.__file__).parent), "requests": args.requests,
                               "sample_every": args.sample_every, "runs": {}}
    for name in args.runs.split(","):
        fn, kw = runs[name]
        figures["runs"][name] = measure(name, args.requests, args.sample_every, fn, **kw)
    path = save("soak" + (f"-{args.label}" if args.label else ""), figures)
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
