"""Scaling of ``bench --backend ray`` from 1 to 2 workers, measured here, and the curve to N workers it implies.

Measured on a real local Ray instance, with the reference agent on a stratified sample of every suite:

- ``local_s``: the cases in one process (the local backend), and from it ``case_ms``, the cost of one case;
- ``ray_s[N]`` for N = 1 and 2 workers: from the moment every actor has built its agent to the last record
  written (``start_s[N]``: starting the actors, once per run);
- ``message_ms``: one chunk's round trip through Ray (submit, one streamed batch, end), timed with a chunk that
  does nothing, and ``item_ms``: each further result streamed back in a batch;
- ``driver_ms``: what the driver spends on one record (unpickling its share of a batch and appending it and its
  detail to the results files), the part no number of workers spreads.

The model: with ``n`` cases in chunks of ``k`` and N workers, each on a core of its own (and one for the driver),
``T(N) = max(n * (case + item) / N + n / k * message / N, n * driver)``; efficiency ``E(N) = T(1) / (N * T(N))``.
A 2-core machine runs the driver and 2 workers on 2 cores, so the measured E(2) here is below what the model
gives for a machine with a core to spare; both are printed.

    python benchmarks/ray_scaling.py [--sample 150] [--rounds 2]
"""

from __future__ import annotations

import argparse
import pickle
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


def _ray_run(cases: list[dict[str, Any]], workers: int, d: Path) -> tuple[float, float]:
    """``(start_s, run_s)`` of one Ray bench run with ``workers`` actors."""
    from hat_env.evaluation.ray_backend import AgentSpec, RayOptions, run_cases_ray

    marks: dict[str, float] = {}
    t0 = time.perf_counter()
    run_cases_ray(cases, AgentSpec("reference"), d / f"ray{workers}.jsonl", RayOptions(workers=workers),
                  on_start=lambda info: marks.setdefault("ready", time.perf_counter()))
    end = time.perf_counter()
    return marks["ready"] - t0, end - marks["ready"]


def _message_costs(d: Path) -> tuple[float, float]:
    """``(message_ms, item_ms)``: a chunk's round trip, and each further streamed item, through one actor."""
    from hat_env.evaluation.ray_backend import AgentSpec, RayOptions, map_ordered

    spec = AgentSpec("reference")
    n = 300
    t = time.perf_counter()
    list(map_ordered("ray_scaling:nothing", list(range(n)), spec, RayOptions(workers=1, chunk=1)))
    per_chunk = (time.perf_counter() - t) / n
    m = 20000
    t = time.perf_counter()
    list(map_ordered("ray_scaling:nothing", list(range(m)), spec, RayOptions(workers=1, chunk=2000)))
    per_item = (time.perf_counter() - t) / m
    return per_chunk * 1e3, per_item * 1e3


def _driver_ms(cases: list[dict[str, Any]], d: Path) -> float:
    """Driver CPU per record: unpickle a batch of (index, record, detail) and write each to a ResultsFile."""
    from hat_env.agents import make_agent
    from hat_env.evaluation.runner import ResultsFile, run_case_detail

    agent = make_agent("reference")
    batch = [(i, *run_case_detail(c, agent)) for i, c in enumerate(cases[:200])]
    blob = pickle.dumps(batch)
    reps = 5
    t = time.process_time()
    for r in range(reps):
        rf = ResultsFile(d / f"drv{r}.jsonl", resume=False, run_id="0" * 16)
        for _i, rec, det in pickle.loads(blob):
            rf.write(rec, det)
        rf.close()
    return (time.process_time() - t) / (reps * len(batch)) * 1e3


def model(n: int, workers: int, case_ms: float, item_ms: float, message_ms: float, driver_ms: float,
          chunk: int) -> float:
    """Seconds for ``n`` cases on ``workers`` workers (each on its own core) by the model in the docstring."""
    work = (n * (case_ms + item_ms) + n / chunk * message_ms) / workers
    return max(work, n * driver_ms) / 1e3


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sample", type=int, default=150, help="cases per suite (default 150: 600 in all)")
    ap.add_argument("--rounds", type=int, default=2, help="rounds of the 1- and 2-worker runs; best kept (default 2)")
    args = ap.parse_args()
    import ray

    from hat_env.agents import make_agent
    from hat_env.evaluation.ray_backend import RayOptions, connect
    from hat_env.evaluation.runner import run_cases

    cases = _cases(args.sample)
    n = len(cases)
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        agent = make_agent("reference")
        run_cases(cases[:50], agent, d / "warm.jsonl")  # imports and caches warm, as in a worker
        local = float("inf")
        for _ in range(args.rounds):
            t = time.perf_counter()
            run_cases(cases, agent, d / "local.jsonl")
            local = min(local, time.perf_counter() - t)
        driver_ms = _driver_ms(cases, d)
        connect(RayOptions(workers=2))
        try:
            message_ms, item_ms = _message_costs(d)
            start: dict[int, float] = {}
            runs: dict[int, float] = {}
            for _ in range(args.rounds):
                for w in (1, 2):
                    s, r = _ray_run(cases, w, d)
                    start[w], runs[w] = min(start.get(w, 1e9), s), min(runs.get(w, 1e9), r)
                    print(f"{w} worker(s): start {s:.2f} s, run {r:.2f} s", flush=True)
        finally:
            ray.shutdown()
    case_ms = local / n * 1e3
    eff_measured = runs[1] / (2 * runs[2])
    curve = {}
    for w in (1, 2, 4, 8, 16, 32, 64):
        t1 = model(4502, 1, case_ms, item_ms, message_ms, driver_ms, max(1, min(64, -(-4502 // 8))))
        tn = model(4502, w, case_ms, item_ms, message_ms, driver_ms, max(1, min(64, -(-4502 // (w * 8)))))
        curve[w] = {"seconds": round(tn, 2), "cases_per_s": round(4502 / tn, 1), "efficiency": round(t1 / (w * tn), 3)}
    figures = {
        "cases": n, "local_s": round(local, 2), "case_ms": round(case_ms, 3), "item_ms": round(item_ms, 4),
        "message_ms": round(message_ms, 3), "driver_ms": round(driver_ms, 4),
        "start_s": {str(k): round(v, 2) for k, v in start.items()},
        "ray_s": {str(k): round(v, 2) for k, v in runs.items()},
        "speedup_1_to_2": round(runs[1] / runs[2], 3), "efficiency_2_measured": round(eff_measured, 3),
        "efficiency_2_model": curve[2]["efficiency"],
        "model_4502_cases": {str(k): v for k, v in curve.items()},
        "saturation_workers": round((case_ms + item_ms) / driver_ms, 1),
    }
    print(f"{n} cases: one process {local:.2f} s ({case_ms:.2f} ms a case); Ray 1 worker {runs[1]:.2f} s, "
          f"2 workers {runs[2]:.2f} s: speed-up {runs[1] / runs[2]:.2f}x, efficiency {eff_measured:.2f} "
          f"(actors start in {start[1]:.2f} / {start[2]:.2f} s)")
    print(f"per chunk message {message_ms:.2f} ms, per streamed item {item_ms:.3f} ms, driver per record "
          f"{driver_ms:.3f} ms: the driver saturates at about {figures['saturation_workers']} workers")
    for w, c in curve.items():
        print(f"model, 4,502 cases on {w:2d} workers: {c['seconds']:7.2f} s, {c['cases_per_s']:8.1f} cases/s, "
              f"efficiency {c['efficiency']:.2f}")
    print(f"saved {save('ray_scaling', figures)}")


if __name__ == "__main__":
    main()
