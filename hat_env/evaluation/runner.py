"""Run evaluation cases with any agent; append each finished case to a JSONL results file at once.

An interrupted run continues with ``resume=True``: finished ``(case, trial)`` pairs are read back and skipped,
so no finished case is lost or run twice. Agents with an async ``aact`` run cases concurrently (endpoints);
sync agents run one case at a time, or in threads with ``max_concurrency > 1``. The Ray backend
(:mod:`hat_env.evaluation.ray_backend`) runs the same cases on Ray actors and writes through the same
:class:`ResultsFile`.

Beside ``results.jsonl`` (one small row per case and trial: scores, the grader's notes, the reply) the runner
appends ``results.details.jsonl``: the messages of each case's turns and its hook events, what ``hat-env show``
prints. A detail line is written before its row, so every row has its detail.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import IO, Any, Callable, Iterable

from hat_env.agents.base import call_agent
from hat_env.envs.live_qa import request_from_case
from hat_env.envs.preflight import apply_case_patch
from hat_env.envs.session import LiveSession
from hat_env.evaluation.judge import facts_of
from hat_env.harness.render import prompt_strings, render_user
from hat_env.sim.scenario import Faults
from hat_env.types import AgentResponse


def build_session(case: dict[str, Any]) -> LiveSession:
    """A session positioned at the case's moment, with its harness variant, patch, faults and history, and the
    case's request opened."""
    s = LiveSession(case["scenario"], seed=case["seed"], hsa=case.get("hsa"), viewers=False,
                    max_history=len(case.get("history") or ()) or 4)
    if case.get("faults"):
        s.backend.faults = Faults(**case["faults"])
    if case.get("patch"):  # CaseError (case id, patch operation, reason) before the case runs
        s.host.set_harness(apply_case_patch(s.host.harness, case))
    s.room.t = float(case["t"])
    header = prompt_strings(s.host.harness, s.scenario.locale).user_header
    for i, h in enumerate(case.get("history") or ()):
        req = request_from_case({"t": case["t"], "comments": h["comments"], "request_id": f"h{i:03d}"})
        s.host.history += [{"role": "user", "content": render_user(req, header=header)},
                           {"role": "assistant", "content": h["reply"]}]
    s.open_request(request_from_case(case))
    return s


def _record(case: dict[str, Any], trial: int, s: LiveSession, scores: dict[str, Any], ttft: float | None,
            wall: float, errors: list[str]) -> dict[str, Any]:
    out = s.outcomes[-1][0]
    rec: dict[str, Any] = {
        "case_id": case["id"],
        "suite": case["suite"],
        "category": case["category"],
        "locale": case["locale"],
        "trial": trial,
        "composite": scores["composite"],
        "components": scores["components"],
        "reply": out.reply,
        "fallback": out.fallback,
        "calls": [c.name for c in out.calls],
        "turns": out.turns,
        "latency_s": round(out.latency_s, 6),
        "ttft_s": ttft,
        "wall_s": round(wall, 6),
        "harness": s.harness.hash,
    }
    if errors:
        rec["errors"] = errors
    if scores.get("failed"):
        rec["failed"] = list(scores["failed"])
    if scores.get("notes"):
        rec["notes"] = scores["notes"]  # the grader's reasons per component: what a report shows beside the score
    facts = facts_of({"calls": out.calls})
    if facts:
        rec["facts"] = facts  # what the tools returned: what a judge checks the reply against
    if case.get("instructions"):
        from hat_env.evaluation.ifeval import evaluate
        from hat_env.ifeval import make_context

        context = make_context([c["text"] for c in case["comments"]], [c.get("viewer", "") for c in case["comments"]])
        rec["ifeval"] = evaluate(out.reply, case["instructions"], case["locale"], context).to_dict()
    return rec


class CaseRun:
    """One case in flight: its session, and what the agent's responses have shown so far.

    Drivers (sync or async) alternate :meth:`request` and :meth:`feed` until ``feed`` returns the record.
    """

    def __init__(self, case: dict[str, Any], trial: int = 0):
        self.case = case
        self.trial = trial
        self.session = build_session(case)
        self.loop = self.session.loop
        self.ttft: float | None = None
        self.errors: list[str] = []
        self.t0 = time.perf_counter()

    def detail(self) -> dict[str, Any]:
        """The case's turns as ``hat-env show`` prints them: the messages from the request's user message on
        (assistant turns, tool results, harness feedback) and the hook events. Call after the reply went out."""
        assert self.loop is not None
        out = self.session.outcomes[-1][0]
        return {"case_id": self.case["id"], "trial": self.trial, "messages": self.loop.turn_messages(),
                "hook_events": out.hook_events}

    def request(self) -> Any:
        """The next turn's :class:`~hat_env.types.AgentRequest`."""
        return self.session.loop.agent_request()  # type: ignore[union-attr]

    def feed(self, resp: AgentResponse) -> dict[str, Any] | None:
        """Feed one response; returns the case's result record once the reply went out."""
        if self.ttft is None:
            self.ttft = resp.timings.ttft_s
        if resp.error:
            self.errors.append(resp.error)
        scores = self.session.feed(resp)
        if scores is None:
            return None
        return _record(self.case, self.trial, self.session, scores, self.ttft, time.perf_counter() - self.t0,
                       self.errors)


def _failed(exc: Exception) -> AgentResponse:
    """A plug-in's exception, recorded on the case as an error; the run goes on."""
    return AgentResponse(error=f"{type(exc).__name__}: {exc}")


def run_case_detail(case: dict[str, Any], agent: Any, trial: int = 0) -> tuple[dict[str, Any], dict[str, Any]]:
    """Run one case to its reply with any agent :func:`call_agent` accepts; returns ``(record, detail)``
    (:meth:`CaseRun.detail`)."""
    run = CaseRun(case, trial)
    while True:
        try:
            resp = call_agent(agent, run.request())
        except Exception as exc:
            resp = _failed(exc)
        rec = run.feed(resp)
        if rec is not None:
            return rec, run.detail()


async def arun_case_detail(case: dict[str, Any], agent: Any, trial: int = 0) -> tuple[dict[str, Any], dict[str, Any]]:
    """:func:`run_case_detail` for agents with an async ``aact`` (the environment part is synchronous and fast)."""
    run = CaseRun(case, trial)
    while True:
        try:
            resp = await agent.aact(run.request())
        except Exception as exc:
            resp = _failed(exc)
        rec = run.feed(resp)
        if rec is not None:
            return rec, run.detail()


def run_case(case: dict[str, Any], agent: Any, trial: int = 0) -> dict[str, Any]:
    """Run one case to its reply with any agent :func:`call_agent` accepts; returns its result record."""
    return run_case_detail(case, agent, trial)[0]


async def arun_case(case: dict[str, Any], agent: Any, trial: int = 0) -> dict[str, Any]:
    """:func:`run_case` for agents with an async ``aact``."""
    return (await arun_case_detail(case, agent, trial))[0]


def read_results(path: Path) -> list[dict[str, Any]]:
    """Every complete record of a results file (a line cut by a crash is ignored)."""
    if not path.exists():
        return []
    out = []
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            try:
                rec = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(rec, dict):
                out.append(rec)
    return out


def details_path(results_path: Path) -> Path:
    """Where the per-case details of ``results_path`` go: ``results.jsonl`` -> ``results.details.jsonl``."""
    return results_path.with_name(results_path.stem + ".details.jsonl")


def read_details(path: Path, case_id: str, trial: int | None = None) -> dict[str, Any] | None:
    """The last detail line of ``case_id`` (and ``trial``, when given) in a details file, or ``None``."""
    if not path.exists():
        return None
    found = None
    needle = json.dumps(case_id, ensure_ascii=False)
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if needle not in line:
                continue
            try:
                d = json.loads(line)
            except json.JSONDecodeError:
                continue
            if d.get("case_id") == case_id and (trial is None or d.get("trial") == trial):
                found = d
    return found


def repair_tail(path: Path) -> None:
    """Make ``path`` end on a line boundary before appending: a last line without its newline is kept (with
    the newline added) when it is a whole JSON object, and dropped when a crash cut it."""
    if not path.exists():
        return
    data = path.read_bytes()
    if not data or data.endswith(b"\n"):
        return
    cut = data.rfind(b"\n") + 1
    try:
        whole = isinstance(json.loads(data[cut:]), dict)
    except (json.JSONDecodeError, UnicodeDecodeError):
        whole = False
    if whole:
        with path.open("ab") as fh:
            fh.write(b"\n")
    else:
        path.write_bytes(data[:cut])


class ResultsFile:
    """Appends result records (and their details) to JSONL files, flushing each, and knows which
    ``(case, trial)`` are done.

    Args:
        path: the results file.
        resume: keep its finished records (and skip them); otherwise start it anew.
        run_id: stamped on every row written (``None``: no stamp).
        details: also write :func:`details_path` (the turns of each case).
    """

    def __init__(self, path: Path, resume: bool, run_id: str | None = None, details: bool = True):
        self.path = path
        self.run_id = run_id
        path.parent.mkdir(parents=True, exist_ok=True)
        self._dpath = details_path(path) if details else None
        if resume:
            repair_tail(path)
            if self._dpath is not None:
                repair_tail(self._dpath)
        done = read_results(path) if resume else []
        if resume and path.exists():
            done = self._drop_errored(done)
        self.done = {(r["case_id"], r["trial"]) for r in done if "case_id" in r and "trial" in r}
        self.resumed = len(self.done)
        self._fh: IO[str] = path.open("a" if resume else "w", encoding="utf-8")
        self._dfh: IO[str] | None = (self._dpath.open("a" if resume else "w", encoding="utf-8")
                                     if self._dpath is not None else None)

    def _drop_errored(self, done: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """On resume, records whose agent calls failed (``errors``: a dead endpoint, a malformed answer) are not
        finished cases: remove them from the file (the other lines stay byte for byte) so that their cases run
        again and each ``(case, trial)`` ends up in the file exactly once. Returns the records kept."""
        if not any(r.get("errors") for r in done):
            return done
        kept_lines = []
        with self.path.open(encoding="utf-8", newline="") as fh:  # lines end at "\n" only (never at U+2028)
            for line in fh:
                try:
                    rec = json.loads(line)
                except json.JSONDecodeError:
                    continue
                if not rec.get("errors"):
                    kept_lines.append(line)
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_text("".join(kept_lines), encoding="utf-8")
        os.replace(tmp, self.path)
        return [r for r in done if not r.get("errors")]

    def write(self, rec: dict[str, Any], detail: dict[str, Any] | None = None) -> bool:
        """Append one record (after its detail) and flush; a ``(case, trial)`` already done is not written again.

        Returns:
            Whether the record was written.
        """
        key = (rec["case_id"], rec["trial"])
        if key in self.done:
            return False
        if self.run_id is not None:
            rec["run_id"] = self.run_id
        if detail is not None and self._dfh is not None:
            if self.run_id is not None:
                detail["run_id"] = self.run_id
            self._dfh.write(json.dumps(detail, ensure_ascii=False, sort_keys=True) + "\n")
            self._dfh.flush()
        self._fh.write(json.dumps(rec, ensure_ascii=False, sort_keys=True) + "\n")
        self._fh.flush()
        self.done.add(key)
        return True

    def close(self) -> None:
        """Close the files."""
        self._fh.close()
        if self._dfh is not None:
            self._dfh.close()


def pending(cases: Iterable[dict[str, Any]], trials: int, done: set[tuple[str, int]]) -> list[tuple[dict[str, Any], int]]:
    """The ``(case, trial)`` pairs still to run, in case order then trial order."""
    return [(c, k) for c in cases for k in range(trials) if (c["id"], k) not in done]


def run_cases(
    cases: Iterable[dict[str, Any]],
    agent: Any,
    results_path: str | Path,
    trials: int = 1,
    resume: bool = False,
    max_concurrency: int = 1,
    progress: Callable[[int, int], None] | None = None,
    run_id: str | None = None,
    details: bool = True,
) -> list[dict[str, Any]]:
    """Run every case ``trials`` times; append each finished record to ``results_path`` as it finishes.

    Args:
        cases: evaluation cases (see :mod:`hat_env.evaluation.suites`).
        agent: any agent :func:`hat_env.agents.call_agent` accepts; one with ``aact`` runs cases concurrently.
        results_path: the JSONL results file.
        trials: runs per case (for pass^k).
        resume: keep the finished records of an earlier run and skip them; otherwise start the file anew. A record
            with agent errors (an endpoint that failed or answered garbage) is not finished: resuming drops it and
            runs its case again.
        max_concurrency: cases in flight at once (async agents: tasks; sync agents: threads).
        progress: called with ``(finished, total)`` after each record.
        run_id: stamped on every new row (see :mod:`hat_env.evaluation.provenance`).
        details: also write the turns of each case (:func:`details_path`).

    Returns:
        All records of the file (earlier and new).
    """
    path = Path(results_path)
    rf = ResultsFile(path, resume, run_id=run_id, details=details)
    todo = pending(cases, trials, rf.done)
    total = len(todo) + len(rf.done)
    finished = len(rf.done)

    def write(rd: tuple[dict[str, Any], dict[str, Any]]) -> None:
        nonlocal finished
        rf.write(*rd)
        finished += 1
        if progress:
            progress(finished, total)

    try:
        if hasattr(agent, "aact"):
            async def main() -> None:
                sem = asyncio.Semaphore(max(1, max_concurrency))

                async def one(c: dict[str, Any], k: int) -> None:
                    async with sem:
                        rd = await arun_case_detail(c, agent, k)
                    write(rd)

                await asyncio.gather(*(one(c, k) for c, k in todo))

            asyncio.run(main())
        elif max_concurrency > 1:
            with ThreadPoolExecutor(max_concurrency) as pool:
                for rd in pool.map(lambda ck: run_case_detail(ck[0], agent, ck[1]), todo):
                    write(rd)
        else:
            for c, k in todo:
                write(run_case_detail(c, agent, k))
    finally:
        rf.close()
    return read_results(path)
