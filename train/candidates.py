"""The teacher's finished requests as candidates for the SFT data, run here or on Ray actors.

A :class:`Candidate` is a finished request with what :func:`hat_env.train.data.build_examples` needs to filter and
collapse it (scores, the fallback flag, the rejected calls, whether the harness made the teacher retry), without
its live request loop, so a Ray worker can send it back. :func:`iter_candidates` yields them in episode order
whichever way they ran, so ``hat-env train data --backend ray`` writes the same data as one process.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterator

from hat_env.train.data import Example, episode_runs, iter_episodes, rejected_calls

if TYPE_CHECKING:
    from hat_env.harness.runtime import RequestLoop
    from hat_env.train.config import DataConfig


@dataclass
class Candidate:
    """A finished request with what filtering and collapsing need, without its live request loop (so a Ray
    worker can send it back)."""

    example: Example
    scores: dict[str, Any]
    errors: list[str]
    fallback: bool
    rejected: list[bool]
    retried: bool


def candidate(ex: Example, loop: "RequestLoop", scores: dict[str, Any], errors: list[str]) -> Candidate:
    """The :class:`Candidate` of one finished request."""
    rej = rejected_calls(loop)
    retried = any(rej) or any(str(m.get("content", "")).startswith("[harness]")
                              for m in loop.messages if m.get("role") == "user")
    return Candidate(ex, scores, errors, loop.outcome.fallback, rej, retried)


def episode_candidates(item: tuple["DataConfig", int, int], agent: Any) -> list[Candidate]:
    """The candidates of one episode ``(cfg, source index, episode index)``: the Ray workers' job."""
    cfg, si, j = item
    return [candidate(*run) for run in episode_runs(cfg, si, j, agent)]


def iter_candidates(cfg: "DataConfig", agent: Any = None, backend: Any = None) -> Iterator[Candidate]:
    """Every candidate of ``cfg`` in episode order: run here with ``agent``, or on Ray actors when ``backend`` is
    a :class:`hat_env.evaluation.ray_backend.RayOptions` (each actor builds the teacher from ``cfg.teacher``;
    the candidates come back in the same order, so the data is the same)."""
    if backend is None:
        for run in iter_episodes(cfg, agent):
            yield candidate(*run)
        return
    from hat_env.evaluation.ray_backend import AgentSpec, map_ordered

    spec = AgentSpec(cfg.teacher.agent, {"seed": cfg.seed}, dict(cfg.teacher.kwargs))
    items = [(cfg, si, j) for si, src in enumerate(cfg.sources) for j in range(src.episodes)]
    for cands in map_ordered("hat_env.train.candidates:episode_candidates", items, spec, backend):
        yield from cands


__all__ = ["Candidate", "candidate", "episode_candidates", "iter_candidates"]
