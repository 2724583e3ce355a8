"""The Ray backend against a real local Ray instance (2 workers): the same per-case records as one process, each
case exactly once (a resumed run, a worker killed mid-run), async agents concurrent inside each worker, and
``train data`` writing the same data.

Ray is the ``ray`` extra; ``make setup`` (CI) installs it, so under CI a missing Ray fails these tests.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator

import pytest

from conftest import need
from hat_env.cli import main
from hat_env.evaluation.runner import details_path, read_results

WALL = ("wall_s",)


@pytest.fixture(scope="module")
def ray_local() -> Iterator[Any]:
    """One real local Ray instance for the module (`ray.init(num_cpus=2)` as the backend starts it)."""
    need("ray")
    import ray

    from hat_env.evaluation.ray_backend import RayOptions, connect

    started = connect(RayOptions(workers=2))
    yield ray
    if started:
        ray.shutdown()


def _rows(path: Path) -> dict[tuple[str, int], dict[str, Any]]:
    """Per-case records minus wall-clock fields, keyed by (case, trial); fails on a duplicate."""
    out: dict[tuple[str, int], dict[str, Any]] = {}
    for r in read_results(path):
        key = (r["case_id"], r["trial"])
        assert key not in out, f"{key} written twice"
        out[key] = {k: v for k, v in r.items() if k not in WALL}
    return out


def _details(path: Path) -> dict[tuple[str, int], dict[str, Any]]:
    return {(d["case_id"], d["trial"]): d for d in read_results(details_path(path))}


def test_bench_on_ray_matches_local_on_every_suite(ray_local: Any, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """`bench --backend ray --workers 2` on every suite: the records, details and summary of the local run."""
    local, dist = tmp_path / "local", tmp_path / "ray"
    common = ["bench", "--suite", "all", "--sample", "10", "--quiet"]
    assert main([*common, "--out", str(local)]) == 0
    assert main([*common, "--out", str(dist), "--backend", "ray", "--workers", "2"]) == 0
    a, b = _rows(local / "results.jsonl"), _rows(dist / "results.jsonl")
    assert len(a) == 40 and {k[0].split("/")[0] for k in a} == {"lsqa-v1", "hvqa-v1", "robust-v1", "ifeval-live-v1"}
    assert a == b
    assert _details(local / "results.jsonl") == _details(dist / "results.jsonl")
    sa, sb = (json.loads((d / "summary.json").read_text()) for d in (local, dist))
    assert sa == sb
    run = json.loads((dist / "run.json").read_text())
    assert run["backend"]["kind"] == "ray" and run["backend"]["workers"] == 2 and run["agent_name"] == "reference"
    assert run["run_id"] == json.loads((local / "run.json").read_text())["run_id"]  # the backend is no part of it

    # resumed on Ray after a crash that cut the last line: the rest once, the same records
    res = dist / "results.jsonl"
    lines = res.read_bytes().splitlines(keepends=True)
    res.write_bytes(b"".join(lines[:17]) + lines[17][:30])
    assert main([*common, "--out", str(dist), "--backend", "ray", "--workers", "2", "--resume"]) == 0
    assert _rows(res) == a


def test_a_worker_killed_mid_run_leaves_no_case_lost_or_doubled(ray_local: Any, tmp_path: Path) -> None:
    """A worker process dies at its 5th agent call: its unfinished cases go to a fresh worker; every case is
    written once, with the records of an uninterrupted local run."""
    from hat_env.agents import make_agent
    from hat_env.evaluation.ray_backend import AgentSpec, RayOptions, run_cases_ray
    from hat_env.evaluation.runner import run_cases
    from hat_env.evaluation.suites import load_suite

    cases = load_suite("lsqa-v1")[:30]
    marker = tmp_path / "died"
    run_cases_ray(cases, AgentSpec("scale_agents:CrashOnce", kwargs={"marker": str(marker), "at": 5}),
                  tmp_path / "ray.jsonl", RayOptions(workers=2, chunk=4))
    assert marker.exists(), "no worker died: the test did not test anything"
    run_cases(cases, make_agent("reference"), tmp_path / "local.jsonl")
    a, b = _rows(tmp_path / "local.jsonl"), _rows(tmp_path / "ray.jsonl")
    assert len(b) == 30 and a == b


def test_an_async_agent_stays_concurrent_inside_each_worker(ray_local: Any, tmp_path: Path) -> None:
    """An agent with an async `aact` runs `max_concurrency` cases at once in each worker, never more."""
    from hat_env.evaluation.ray_backend import AgentSpec, RayOptions, run_cases_ray
    from hat_env.evaluation.suites import load_suite

    cases = load_suite("robust-v1")[:24]
    logs = tmp_path / "peaks"
    recs = run_cases_ray(cases, AgentSpec("scale_agents:AsyncReference", kwargs={"log_dir": str(logs), "delay_s": 0.05}),
                         tmp_path / "r.jsonl", RayOptions(workers=2, chunk=12), max_concurrency=3)
    assert len({r["case_id"] for r in recs}) == 24
    peaks = [json.loads(p.read_text())["peak"] for p in logs.glob("*.json")]
    assert len(peaks) == 2, peaks  # both workers answered
    assert max(peaks) == 3 and all(p <= 3 for p in peaks), peaks


def test_train_data_on_ray_writes_the_same_data(ray_local: Any, tmp_path: Path) -> None:
    """`hat-env train data --backend ray`: the same rows and counts as one process."""
    from hat_env.evaluation.ray_backend import RayOptions
    from hat_env.train.config import DataConfig
    from hat_env.train.data import run_data

    def cfg(out: Path) -> DataConfig:
        return DataConfig.model_validate({
            "output_dir": str(out), "export": {"hf": False},
            "sources": [{"kind": "qa", "scenario": "beauty_zh", "episodes": 6},
                        {"kind": "session", "scenario": "electronics_en", "episodes": 1, "duration_s": 120}],
            "hsa": {"share": 0.5}})

    a = run_data(cfg(tmp_path / "a"), quiet=True)
    b = run_data(cfg(tmp_path / "b"), quiet=True, backend=RayOptions(workers=2, chunk=2))
    assert a["generated"] > 6 and a["kept"] > 0
    assert (tmp_path / "a" / "train.jsonl").read_bytes() == (tmp_path / "b" / "train.jsonl").read_bytes()
    drop = ("seconds", "paths", "config")
    assert {k: v for k, v in a.items() if k not in drop} == {k: v for k, v in b.items() if k not in drop}


def test_bench_openai_adapter_on_ray_against_real_vllm(ray_local: Any, vllm_server: Any, tmp_path: Path) -> None:
    """The `openai` adapter in two Ray workers, async with its concurrency limit, against a real vLLM server:
    every case recorded once, with its latency."""
    out = tmp_path / "vllm-ray"
    args = ["bench", "--suite", "lsqa-v1", "--limit", "12", "--agent", "openai", "--model", vllm_server.name,
            "--base-url", vllm_server.base_url, "--max-concurrency", "4", "--max-tokens", "32", "--timeout", "120",
            "--out", str(out), "--quiet", "--backend", "ray", "--workers", "2"]
    assert main(args) == 0
    recs = _rows(out / "results.jsonl")
    assert len(recs) == 12 and all(r["latency_s"] > 0 and r["turns"] >= 1 for r in recs.values())
    assert not any(r.get("errors") for r in recs.values()), [r.get("errors") for r in recs.values()]
    run = json.loads((out / "run.json").read_text())
    assert run["config"]["model"] == vllm_server.name and run["backend"]["kind"] == "ray"
    assert "max_concurrency" not in run["config"]["adapter_args"]  # a throughput setting: not the configuration
