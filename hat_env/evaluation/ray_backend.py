"""The Ray backend: evaluation cases (and training-data episodes) sharded to Ray actors that stay warm.

``hat-env bench --backend ray [--address ADDR] [--workers N]`` starts a local Ray instance (or joins the cluster
at ``ADDR``), starts N actors, and hands them the cases in chunks from one queue (a free actor takes the next
chunk, two chunks in flight per actor). Each actor builds the agent once, from its spec (an agent object is
not shipped: a model client or a loaded model lives where it is used), and keeps it, its connections and the
process's caches (scenarios, harness packs, rendered prompts) warm for the whole run. An endpoint agent (an
async ``aact``, such as the ``openai`` adapter) stays async inside each actor with ``--max-concurrency`` cases in
flight there; a sync agent runs its cases one by one (or in that many threads). Finished records stream back in
small batches and the driver appends them to the same resumable JSONL as the local backend
(:class:`~hat_env.evaluation.runner.ResultsFile`), each ``(case, trial)`` exactly once: a record that comes
back twice is not written again, and when an actor dies its unfinished cases go to a fresh actor.

The records are the local backend's: every case runs the same code on the same case with its own seed. That
holds for agents whose answer depends on the request alone (the reference, memoriser and endpoint agents at
temperature 0); an agent that carries one random generator across cases (the ``random`` agent) draws in a
different order than one process does, as it already does with ``--max-concurrency`` threads.

Ray is the optional ``ray`` extra; this module imports it only when a run starts (``import hat_env`` never does).
"""

from __future__ import annotations

import asyncio
import math
import os
import sys
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

#: Seconds a worker collects finished records before it sends them as one batch.
BATCH_S = 0.05

#: Chunks in flight per actor (one running, one queued behind it).
IN_FLIGHT = 2

#: Fresh actors the driver starts in all to replace dead ones before it gives up.
MAX_REPLACEMENTS = 4


@dataclass(frozen=True)
class AgentSpec:
    """How a worker builds the agent: the arguments of :func:`hat_env.agents.make_agent`.

    Attributes:
        spec: the agent spec (``reference``, ``openai``, ``module:attr``...).
        offered: arguments offered to the agent (seed, shared flags); each taken when accepted.
        kwargs: arguments the agent must accept (``--agent-arg``, ``--engine-arg``).
    """

    spec: str
    offered: dict[str, Any] = field(default_factory=dict)
    kwargs: dict[str, Any] = field(default_factory=dict)

    def build(self) -> Any:
        """The agent."""
        from hat_env.agents.base import make_agent

        return make_agent(self.spec, offered=self.offered, **self.kwargs)


@dataclass(frozen=True)
class RayOptions:
    """Where and how wide a Ray run goes.

    Attributes:
        workers: actors to start.
        address: a running cluster (``ray start --head`` prints it; ``auto`` finds a local one), or ``None`` to
            start a local instance for this run (``num_cpus`` = workers x ``worker_cpus``, no dashboard).
        worker_cpus: CPUs each actor reserves.
        worker_gpus: GPUs each actor reserves (a model loaded in each worker: ``transformers``, ``vllm``).
        chunk: cases per chunk (default: the pending cases spread over 8 chunks per worker, 1 to 64).
        start_timeout_s: how long the actors may take to start and build the agent (a model load included).
    """

    workers: int = 2
    address: str | None = None
    worker_cpus: float = 1.0
    worker_gpus: float = 0.0
    chunk: int | None = None
    start_timeout_s: float = 600.0

    def check(self) -> None:
        """Raise ``ValueError`` naming the flag when an option is out of range."""
        if self.workers < 1:
            raise ValueError(f"--workers: must be at least 1, got {self.workers}")
        if self.worker_cpus < 0 or self.worker_gpus < 0:
            raise ValueError("--worker-cpus / --worker-gpus: must not be negative")
        if self.chunk is not None and self.chunk < 1:
            raise ValueError(f"chunk: must be at least 1, got {self.chunk}")


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise ImportError("--backend ray needs Ray: pip install 'hat-env[ray]'") from None
    return ray


def connect(opts: RayOptions) -> bool:
    """Join the cluster at ``opts.address``, or start a local Ray instance; returns whether this call started
    (and so must stop) the connection. A process already connected keeps its connection."""
    ray = _import_ray()
    if ray.is_initialized():
        return False
    kw: dict[str, Any] = {"include_dashboard": False, "logging_level": "WARNING", "log_to_driver": True}
    if opts.address is None:
        kw["num_cpus"] = max(1, math.ceil(opts.workers * max(opts.worker_cpus, 1.0)))  # GPUs: what Ray detects
        # the driver's import path (a plug-in agent given as module:attr beside the command) reaches the workers
        paths = [p for p in sys.path if p and Path(p).is_dir()]
        kw["runtime_env"] = {"env_vars": {"PYTHONPATH": os.pathsep.join(paths)}}
    else:
        kw["address"] = opts.address
    ray.init(**kw)
    return True


class CaseWorker:
    """A Ray actor's body (wrapped by ``ray.remote`` when a run starts): a warm agent that runs chunks of work.

    Args:
        agent: how to build the agent.
        max_concurrency: cases in flight at once inside this worker (async agents: tasks; sync agents: threads).
    """

    def __init__(self, agent: AgentSpec, max_concurrency: int = 1):
        self.agent = agent.build()
        self.max_concurrency = max(1, int(max_concurrency))
        self._sem: asyncio.Semaphore | None = None
        self.pid = os.getpid()

    def ping(self) -> dict[str, Any]:
        """``{"pid", "node", "agent_name", "cpu_s"}`` (answers once the agent is built; ``cpu_s``: the worker
        process's CPU seconds so far)."""
        import platform

        return {"pid": self.pid, "node": platform.node(), "agent_name": getattr(self.agent, "name", None),
                "cpu_s": time.process_time()}

    async def run_cases(self, items: list[tuple[int, dict[str, Any], int]]) -> Any:
        """Run ``(index, case, trial)`` items; yield lists of ``(index, record, detail)`` as they finish, a list
        every :data:`BATCH_S` seconds at most."""
        from hat_env.evaluation.runner import arun_case_detail, run_case_detail

        agent = self.agent
        if self._sem is None:
            self._sem = asyncio.Semaphore(self.max_concurrency)
        sem = self._sem

        async def one(i: int, case: dict[str, Any], k: int) -> tuple[int, dict[str, Any], dict[str, Any]]:
            async with sem:
                if hasattr(agent, "aact"):
                    rec, det = await arun_case_detail(case, agent, k)
                elif self.max_concurrency > 1:
                    rec, det = await asyncio.to_thread(run_case_detail, case, agent, k)
                else:
                    rec, det = run_case_detail(case, agent, k)
            return i, rec, det

        if not hasattr(agent, "aact") and self.max_concurrency == 1:
            batch: list[Any] = []
            last = time.perf_counter()
            for i, case, k in items:
                batch.append(await one(i, case, k))
                if time.perf_counter() - last >= BATCH_S:
                    yield batch
                    batch, last = [], time.perf_counter()
            if batch:
                yield batch
            return
        tasks = {asyncio.ensure_future(one(i, c, k)) for i, c, k in items}
        batch, last = [], time.perf_counter()
        while tasks:
            wait = max(0.0, BATCH_S - (time.perf_counter() - last)) if batch else None
            done, tasks = await asyncio.wait(tasks, timeout=wait, return_when=asyncio.FIRST_COMPLETED)
            batch += [t.result() for t in done]
            if batch and (not tasks or time.perf_counter() - last >= BATCH_S):
                yield batch
                batch, last = [], time.perf_counter()

    async def run_calls(self, fn: str, items: list[tuple[int, Any]]) -> Any:
        """Run ``fn(item, agent)`` (``fn``: ``module:function``) for each ``(index, item)`` in order; yield lists of
        ``(index, result)`` every :data:`BATCH_S` seconds at most (the training-data episodes)."""
        import importlib

        mod, _, name = fn.partition(":")
        func = getattr(importlib.import_module(mod), name)
        batch: list[Any] = []
        last = time.perf_counter()
        for i, item in items:
            batch.append((i, func(item, self.agent)))
            if time.perf_counter() - last >= BATCH_S:
                yield batch
                batch, last = [], time.perf_counter()
        if batch:
            yield batch


class _Pool:
    """The driver's side: actors, the queue of chunks, the chunks in flight, and dead-actor replacement."""

    def __init__(self, ray: Any, agent: AgentSpec, opts: RayOptions, max_concurrency: int):
        self.ray = ray
        self.opts = opts
        self.remote = ray.remote(CaseWorker).options(num_cpus=opts.worker_cpus, num_gpus=opts.worker_gpus,
                                                     max_concurrency=IN_FLIGHT + 2)
        self.agent = agent
        self.max_concurrency = max_concurrency
        self.actors = [self._start() for _ in range(opts.workers)]
        self.replacements = 0
        self.info = self._ready(self.actors)

    def _ready(self, actors: list[Any]) -> list[dict[str, Any]]:
        """Wait until ``actors`` built their agents; raise a clear error when one cannot or they do not start."""
        ray = self.ray
        refs = [a.ping.remote() for a in actors]
        ready, waiting = ray.wait(refs, num_returns=len(refs), timeout=self.opts.start_timeout_s)
        if waiting:
            raise RuntimeError(f"only {len(ready)} of {len(refs)} Ray workers started in "
                               f"{self.opts.start_timeout_s:.0f} s: the cluster lacks the resources they reserve "
                               f"({self.opts.worker_cpus} CPU, {self.opts.worker_gpus} GPU each; see `ray status`)")
        try:
            return list(ray.get(refs))
        except ray.exceptions.RayActorError as exc:
            raise RuntimeError(f"a Ray worker could not build the agent {self.agent.spec!r}: {exc}") from None

    def _start(self) -> Any:
        return self.remote.remote(self.agent, self.max_concurrency)

    def replace(self, actor: Any) -> Any:
        """A fresh actor in place of a dead one (at most :data:`MAX_REPLACEMENTS` in a run)."""
        self.replacements += 1
        if self.replacements > MAX_REPLACEMENTS:
            raise RuntimeError(f"Ray workers died {self.replacements} times; giving up (the cases not yet written "
                               "are left for --resume)")
        i = self.actors.index(actor)
        try:
            self.ray.kill(actor)
        except Exception:  # already gone
            pass
        self.actors[i] = self._start()
        return self.actors[i]

    def close(self) -> None:
        """Stop the actors."""
        for a in self.actors:
            try:
                self.ray.kill(a)
            except Exception:
                pass


def stream(items: list[Any], agent: AgentSpec, opts: RayOptions, max_concurrency: int,
           submit: Callable[[Any, list[Any]], Any],
           on_start: Callable[[list[dict[str, Any]]], None] | None = None,
           on_finish: Callable[[list[dict[str, Any]]], None] | None = None) -> Iterator[Any]:
    """Run ``items`` on Ray actors; yield each result as its batch arrives (each item's result once).

    Args:
        items: the work, as ``(index, ...)`` tuples whose first element is unique.
        agent: how each actor builds the agent.
        opts: workers, address, resources, chunk size.
        max_concurrency: cases in flight inside each actor.
        submit: ``(actor, chunk) -> ObjectRefGenerator``: starts a chunk on an actor.
        on_start: called with each worker's :meth:`CaseWorker.ping` once all built their agents.
        on_finish: called with each worker's :meth:`CaseWorker.ping` when every item is back (the workers' CPU
            time: ``benchmarks/ray_scaling.py``).

    Yields:
        Each result tuple (its first element is the item's index), in arrival order.

    Raises:
        The exception a worker's own code raised (an agent or case error is the same as in one process), or
        RuntimeError when workers keep dying.
    """
    opts.check()
    ray = _import_ray()
    started = connect(opts)
    try:
        pool = _Pool(ray, agent, opts, max_concurrency)
    except BaseException:
        if started:
            ray.shutdown()
        raise
    try:
        if on_start is not None:
            on_start(pool.info)
        size = opts.chunk or max(1, min(64, -(-len(items) // (opts.workers * 8))))
        queue: deque[list[Any]] = deque(items[i:i + size] for i in range(0, len(items), size))
        flying: dict[Any, tuple[Any, list[Any], set[int]]] = {}

        def feed(actor: Any, most: int = IN_FLIGHT) -> None:
            while queue and sum(1 for a, _c, _g in flying.values() if a is actor) < most:
                chunk = queue.popleft()
                flying[submit(actor, chunk)] = (actor, chunk, set())

        for most in range(1, IN_FLIGHT + 1):  # one chunk each first, so a short run still spreads
            for a in pool.actors:
                feed(a, most)
        while flying:
            ready, _ = ray.wait(list(flying), num_returns=1)
            for gen in ready:
                actor, chunk, got = flying[gen]
                try:
                    batch = ray.get(next(gen))
                except StopIteration:
                    del flying[gen]
                    feed(actor)
                    continue
                except (ray.exceptions.RayActorError, ray.exceptions.ObjectLostError,
                        ray.exceptions.WorkerCrashedError, ray.exceptions.NodeDiedError):
                    lost = [g for g, (a, _c, _s) in flying.items() if a is actor]
                    for g in lost:
                        _a, c, s = flying.pop(g)
                        rest = [it for it in c if it[0] not in s]
                        if rest:
                            queue.appendleft(rest)
                    feed(pool.replace(actor))
                    continue
                except ray.exceptions.RayTaskError as exc:
                    raise exc.as_instanceof_cause() from None
                for res in batch:
                    got.add(res[0])
                    yield res
        if on_finish is not None:
            on_finish(list(ray.get([a.ping.remote() for a in pool.actors])))
    finally:
        pool.close()
        if started:
            ray.shutdown()


def run_cases_ray(
    cases: Iterable[dict[str, Any]],
    agent: AgentSpec,
    results_path: str | Path,
    opts: RayOptions,
    trials: int = 1,
    resume: bool = False,
    max_concurrency: int = 1,
    progress: Callable[[int, int], None] | None = None,
    run_id: str | None = None,
    details: bool = True,
    on_start: Callable[[list[dict[str, Any]]], None] | None = None,
) -> list[dict[str, Any]]:
    """:func:`hat_env.evaluation.runner.run_cases` on Ray actors: the same arguments (the agent as an
    :class:`AgentSpec`) plus ``opts`` and ``on_start`` (see :func:`stream`), the same results file, the same
    records.

    Returns:
        All records of the file (earlier and new).
    """
    from hat_env.evaluation.runner import ResultsFile, pending, read_results

    path = Path(results_path)
    rf = ResultsFile(path, resume, run_id=run_id, details=details)
    todo = pending(cases, trials, rf.done)
    total = len(todo) + len(rf.done)
    finished = len(rf.done)
    try:
        if todo:
            items = [(i, c, k) for i, (c, k) in enumerate(todo)]
            for _i, rec, det in stream(items, agent, opts, max_concurrency,
                                       lambda actor, chunk: actor.run_cases.remote(chunk), on_start):
                if rf.write(rec, det):
                    finished += 1
                    if progress:
                        progress(finished, total)
    finally:
        rf.close()
    return read_results(path)


def map_ordered(fn: str, items: list[Any], agent: AgentSpec, opts: RayOptions) -> Iterator[Any]:
    """``fn(item, agent)`` for every item on Ray actors, yielded in the items' order (each as soon as it and
    every item before it are back).

    Args:
        fn: ``module:function`` importable on the workers, taking ``(item, agent)`` and returning a picklable value.
        items: the work.
        agent: how each actor builds the agent.
        opts: workers, address, resources, chunk size.
    """
    held: dict[int, Any] = {}
    nxt = 0
    indexed = list(enumerate(items))
    for i, res in stream(indexed, agent, opts, 1, lambda actor, chunk: actor.run_calls.remote(fn, chunk)):
        held[i] = res
        while nxt in held:
            yield held.pop(nxt)
            nxt += 1




def add_backend_arguments(parser: Any) -> None:
    """Add ``--backend``, ``--address``, ``--workers``, ``--worker-cpus`` and ``--worker-gpus`` to an argparse
    parser (``bench`` and ``train data``)."""
    g = parser.add_argument_group("backend (where cases run)")
    g.add_argument("--backend", default="local", choices=["local", "ray"],
                   help="local: this process (default); ray: Ray actors on this machine or a cluster (pip install 'hat-env[ray]')")
    g.add_argument("--address", default=None,
                   help="Ray cluster to join (what `ray start --head` prints, e.g. 10.0.0.1:6379, or 'auto'); "
                        "default: start a local Ray instance for this run")
    g.add_argument("--workers", type=int, default=2, help="Ray actors (default 2)")
    g.add_argument("--worker-cpus", type=float, default=1.0, help="CPUs each Ray actor reserves (default 1)")
    g.add_argument("--worker-gpus", type=float, default=0.0,
                   help="GPUs each Ray actor reserves, for agents that load a model in the worker (default 0)")


def options_from_args(args: Any) -> RayOptions | None:
    """The :class:`RayOptions` of parsed :func:`add_backend_arguments` flags, or ``None`` for the local backend.

    Raises:
        ValueError: an option out of range (the message names the flag).
    """
    if getattr(args, "backend", "local") != "ray":
        return None
    opts = RayOptions(workers=args.workers, address=args.address, worker_cpus=args.worker_cpus,
                      worker_gpus=args.worker_gpus)
    opts.check()
    return opts


__all__ = ["AgentSpec", "CaseWorker", "RayOptions", "add_backend_arguments", "connect", "map_ordered",
           "options_from_args", "run_cases_ray", "stream"]
