"""Scaling of ``bench --backend ray`` from 1 to 2 workers, measured here, and the curve to N workers it implies.

Measured on a real local Ray instance, with the reference agent on a stratified sample of every suite:

- ``local``: the cases in one process (the local backend): wall and CPU seconds, and ``case_ms``, the CPU cost of
  one case;
- ``ray[N]`` for N = 1 and 2 workers: wall seconds from the moment every actor has built its agent to the last
  record written (``start_s``: starting the actors, once per run), the workers' CPU seconds (summed) and the
  driver's;
- ``message``: one chunk's round trip through Ray (submit, one streamed batch, end), timed with chunks of one item
  that does nothing: wall, driver CPU and worker CPU per message.

A wall-clock efficiency ``T(1) / (N * T(N))`` needs a core per worker and one for the driver; a shared machine
with a load average above its core count cannot give that, so the script also records the load average, and the
curve to N workers is computed from the CPU costs, which load does not change much: per case in a worker
``w = worker CPU / n`` and in the driver ``d = driver CPU / n`` (from the 1-worker run: unpickling, writing the
record and its detail, its share of messages), per chunk message ``o_w`` and ``o_d``, with ``8 N`` chunks:
``T(N) = max(n * w / N + 8 * o_w, n * d + 8 * N * o_d)`` and ``E(N) = T(1) / (N * T(N))``.

    python benchmarks/ray_scaling.py [--sample 150] [--rounds 2]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import save  # noqa: E402


def nothing(item: Any, agent: Any) -> int:
    """A chunk item that costs nothing: what is left is Ray's own cost per message and per item."""
    return 0


def _cases(sample: int) -> list[dict[str, Any]]:
    from hat_env.evaluation.cases import select
    from hat_env.evaluation.suites import GENERATORS, load_suite

    return select([c for sid in GENERATORS for c in load_suite(sid)], sample=sample, sample_seed=0)


def _ray_run(cases: list[dict[str, Any]], workers: int, d: Path) -> dict[str, float]:
    """One Ray bench run with ``workers`` actors: ``start_s``, ``wall_s`` (actors ready to last record),
    ``worker_cpu_s`` (summed over actors) and ``driver_cpu_s``."""
    from hat_env.evaluation.ray_backend import AgentSpec, RayOptions, stream
    from hat_env.evaluation.runner import ResultsFile

    rf = ResultsFile(d / f"ray{workers}.jsonl", resume=False, run_id="0" * 16)
    m: dict[str, float] = {}

    def started(info: list[dict[str, Any]]) -> None:
        m.update(ready=time.perf_counter(), cpu0=sum(w["cpu_s"] for w in info), drv0=time.process_time())

    def finished(info: list[dict[str, Any]]) -> None:
        m.update(cpu1=sum(w["cpu_s"] for w in info))

    t0 = time.perf_counter()
    items = [(i, c, 0) for i, c in enumerate(cases)]
    for _i, rec, det in stream(items, AgentSpec("reference"), RayOptions(workers=workers), 1,
                               lambda actor, chunk: actor.run_cases.remote(chunk), started, finished):
        rf.write(rec, det)
    end, drv1 = time.perf_counter(), time.process_time()
    rf.close()
    return {"start_s": m["ready"] - t0, "wall_s": end - m["ready"], "worker_cpu_s": m["cpu1"] - m["cpu0"],
            "driver_cpu_s": drv1 - m["drv0"]}


def _message_costs() -> dict[str, float]:
    """Per chunk message through one actor (chunks of one item that does nothing): wall, driver and worker CPU
    milliseconds."""
    from hat_env.evaluation.ray_backend import AgentSpec, RayOptions, stream

    n = 300
    m: dict[str, float] = {}
    items = [(i, i) for i in range(n)]
    for _ in stream(items, AgentSpec("reference"), RayOptions(workers=1, chunk=1), 1,
                    lambda actor, chunk: actor.run_calls.remote("ray_scaling:nothing", chunk),
                    lambda info: m.update(t=time.perf_counter(), c=time.process_time(), w=info[0]["cpu_s"]),
                    lambda info: m.update(w1=info[0]["cpu_s"])):
        pass
    return {"wall_ms": (time.perf_counter() - m["t"]) / n * 1e3, "driver_cpu_ms": (time.process_time() - m["c"]) / n * 1e3,
            "worker_cpu_ms": (m["w1"] - m["w"]) / n * 1e3}


def model(n: int, workers: int, w_ms: float, d_ms: float, ow_ms: float, od_ms: float) -> float:
    """Seconds for ``n`` cases on ``workers`` workers (each on its own core) by the model in the docstring."""
    return max(n * w_ms / workers + 8 * ow_ms, n * d_ms + 8 * workers * od_ms) / 1e3


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sample", type=int, default=150, help="cases per suite (default 150: 600 in all)")
    ap.add_argument("--rounds", type=int, default=2, help="rounds of the 1- and 2-worker runs; best kept (default 2)")
    args = ap.parse_args()
    import os

    import ray

    from hat_env.agents import make_agent
    from hat_env.evaluation.ray_backend import RayOptions, connect
    from hat_env.evaluation.runner import run_cases

    cases = _cases(args.sample)
    n = len(cases)
    load = [round(x, 2) for x in os.getloadavg()]
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        agent = make_agent("reference")
        run_cases(cases[:50], agent, d / "warm.jsonl")  # imports and caches warm, as in a worker
        local = {"wall_s": float("inf"), "cpu_s": float("inf")}
        for _ in range(args.rounds):
            t, c = time.perf_counter(), time.process_time()
            run_cases(cases, agent, d / "local.jsonl")
            local = {"wall_s": min(local["wall_s"], time.perf_counter() - t),
                     "cpu_s": min(local["cpu_s"], time.process_time() - c)}
        connect(RayOptions(workers=2))
        try:
            msg = _message_costs()
            ray_runs: dict[int, dict[str, float]] = {}
            for _ in range(args.rounds):
                for w in (1, 2):
                    got = _ray_run(cases, w, d)
                    best = ray_runs.get(w)
                    if best is None or got["wall_s"] < best["wall_s"]:
                        ray_runs[w] = got
                    print(f"{w} worker(s): start {got['start_s']:.2f} s, run {got['wall_s']:.2f} s, worker CPU "
                          f"{got['worker_cpu_s']:.2f} s, driver CPU {got['driver_cpu_s']:.2f} s", flush=True)
        finally:
            ray.shutdown()
    load_end = [round(x, 2) for x in os.getloadavg()]
    case_ms = local["cpu_s"] / n * 1e3
    w_ms = ray_runs[1]["worker_cpu_s"] / n * 1e3
    d_ms = ray_runs[1]["driver_cpu_s"] / n * 1e3
    eff = ray_runs[1]["wall_s"] / (2 * ray_runs[2]["wall_s"])
    t1 = model(4502, 1, w_ms, d_ms, msg["worker_cpu_ms"], msg["driver_cpu_ms"])
    curve = {}
    for k in (1, 2, 4, 8, 16, 32, 64, 128):
        tk = model(4502, k, w_ms, d_ms, msg["worker_cpu_ms"], msg["driver_cpu_ms"])
        curve[str(k)] = {"seconds": round(tk, 2), "cases_per_s": round(4502 / tk, 1), "efficiency": round(t1 / (k * tk), 3)}
    figures = {
        "cases": n, "load_average": {"start": load, "end": load_end}, "cores": os.cpu_count(),
        "local": {k: round(v, 2) for k, v in local.items()}, "case_cpu_ms": round(case_ms, 3),
        "ray": {str(k): {kk: round(vv, 2) for kk, vv in v.items()} for k, v in ray_runs.items()},
        "worker_cpu_ms_per_case": round(w_ms, 3), "driver_cpu_ms_per_case": round(d_ms, 3),
        "message_ms": {k: round(v, 3) for k, v in msg.items()},
        "speedup_1_to_2_wall": round(ray_runs[1]["wall_s"] / ray_runs[2]["wall_s"], 3),
        "efficiency_2_wall": round(eff, 3), "efficiency_2_model": curve["2"]["efficiency"],
        "ray_cpu_overhead_vs_local": round((ray_runs[1]["worker_cpu_s"] + ray_runs[1]["driver_cpu_s"]) / local["cpu_s"], 3),
        "model_4502_cases": curve, "driver_bound_at_workers": round(w_ms / d_ms, 1),
    }
    print(f"{n} cases, load average {load} -> {load_end} on {os.cpu_count()} cores")
    print(f"one process: {local['wall_s']:.2f} s wall, {local['cpu_s']:.2f} s CPU ({case_ms:.2f} ms a case)")
    print(f"Ray: 1 worker {ray_runs[1]['wall_s']:.2f} s, 2 workers {ray_runs[2]['wall_s']:.2f} s wall: "
          f"speed-up {figures['speedup_1_to_2_wall']:.2f}x, efficiency {eff:.2f} (model, a core each: "
          f"{curve['2']['efficiency']:.2f}); Ray's CPU over one process: {figures['ray_cpu_overhead_vs_local']:.2f}x")
    print(f"per case: worker {w_ms:.2f} ms, driver {d_ms:.3f} ms CPU; per chunk message: {msg['wall_ms']:.2f} ms wall, "
          f"driver {msg['driver_cpu_ms']:.2f} ms, worker {msg['worker_cpu_ms']:.2f} ms CPU; the driver bounds the "
          f"run from about {figures['driver_bound_at_workers']} workers")
    for k, c in curve.items():
        print(f"model, 4,502 cases on {k:>3} workers: {c['seconds']:7.2f} s, {c['cases_per_s']:8.1f} cases/s, "
              f"efficiency {c['efficiency']:.2f}")
    print(f"saved {save('ray_scaling', figures)}")


if __name__ == "__main__":
    main()
