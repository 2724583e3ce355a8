"""HSA-SFT data: teacher trajectories in the simulator, under original and augmented harnesses, judge-filtered.

``hat-env train data --config FILE`` runs a teacher (any agent adapter; the scripted reference agent, which reads
the harness it is given, by default) through LiveQA-style single requests and/or whole live sessions. A
configurable share of the episodes runs under a Harness-State Augmentation variant (a fresh seeded variant per
episode), the rest under the scenario's own harness. Each finished request is scored by the scenario's rubric
and kept only when it passes the filter (composite, accuracy and effectiveness thresholds, no fallback reply).

Hook-retry traces, where the harness rejected a turn (a blocked reply or unparsable output answered with
``[harness]`` feedback; an unknown tool, arguments that fail the schema, a denied or distractor call), are
collapsed to their final behaviour: the rejected turns and the harness's answers to them are removed. A
configurable share of those traces is kept whole, to teach recovery (the paper's recipe).

Output (``output_dir``):

- ``train.jsonl``: one example a line, ``{"messages", "tools", "meta"}``. Messages are in the form Hugging Face
  chat templates take (assistant ``tool_calls[].function.arguments`` is a dict, not a JSON string).
- ``hf/``: the same rows as a ``datasets.Dataset`` saved with ``save_to_disk``. The ``messages``, ``tools`` and
  ``meta`` columns are ``datasets.Json()`` features: Arrow would otherwise merge the different tool schemas of
  augmented rows into one struct and fill every missing key with ``null``, so a row would render other rows'
  parameter names. :func:`load_sft_dataset` reads either form back the same way.
- ``stats.json``: counts (generated, kept, dropped per reason, augmented, collapsed, kept whole) and score means.
"""

from __future__ import annotations

import json
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator

from hat_env.agents.base import call_agent
from hat_env.types import AgentResponse

if TYPE_CHECKING:
    from hat_env.envs.session import LiveSession
    from hat_env.harness.runtime import RequestLoop
    from hat_env.train.config import DataConfig

#: Columns of an SFT row; ``meta`` is dropped before training.
COLUMNS: tuple[str, ...] = ("messages", "tools", "meta")


@dataclass
class Example:
    """One kept (or candidate) training example: a request's conversation under its harness."""

    messages: list[dict[str, Any]]
    tools: list[dict[str, Any]]
    meta: dict[str, Any] = field(default_factory=dict)

    def row(self) -> dict[str, Any]:
        """The JSON row (``messages`` in chat-template form)."""
        return {"messages": self.messages, "tools": self.tools, "meta": self.meta}


# -- running the teacher -----------------------------------------------------------------------------------


def run_request(session: "LiveSession", agent: Any) -> tuple["RequestLoop", dict[str, Any], list[str]]:
    """Drive the open request of ``session`` with ``agent`` until the reply goes out.

    Agent failures become empty outputs (as in ``hat-env run``), so one bad call never loses the episode.

    Returns:
        ``(loop, scores, errors)``: the finished request loop (its ``messages`` are the whole conversation), the
        rubric's scores, and the agent errors met on the way.
    """
    loop = session.loop
    if loop is None:
        raise RuntimeError("the session has no open request")
    errors: list[str] = []
    scores = None
    while scores is None:
        try:
            resp = call_agent(agent, loop.agent_request())
        except Exception as exc:  # a plug-in's bug must not stop data generation
            resp = AgentResponse(error=f"{type(exc).__name__}: {exc}")
        if resp.error:
            errors.append(resp.error)
        scores = session.feed(resp)
    return loop, scores, errors


# -- collapsing hook retries -------------------------------------------------------------------------------


def rejected_calls(loop: "RequestLoop") -> list[bool]:
    """For each tool message of the request, in order: was its call rejected by the harness?

    A call is rejected when it never reached the backend as a valid call of a real tool (unknown tool, schema
    error, hook denial, unknown skill) or named a distractor tool bound to nothing. Tool faults (timeouts,
    malformed output, permission errors) and the backend's own answers ("no product on link 9") are not
    rejections: they are what the room did, and the teacher's reaction to them is kept.
    """
    return [(not c.valid) or c.op is None for c in loop.outcome.calls]


def collapse_retries(messages: list[dict[str, Any]], rejected: list[bool]) -> tuple[list[dict[str, Any]], int]:
    """Remove the turns the harness rejected, keeping the final behaviour.

    Args:
        messages: the request's OpenAI-format messages (system, history, user, then the turns).
        rejected: one flag per ``tool`` message, in order (see :func:`rejected_calls`).

    Returns:
        ``(messages, removed)``: a new list, and how many assistant turns or tool calls were removed. Removed are:
        an assistant message answered by ``[harness]`` feedback (a blocked reply, unparsable output) together with
        that feedback; rejected tool calls with their tool messages (an assistant turn left with no call goes too).
    """
    flags = iter(rejected)
    tool_flag: dict[int, bool] = {}
    for i, m in enumerate(messages):
        if m.get("role") == "tool":
            tool_flag[i] = next(flags, False)
    drop: set[int] = set()
    removed = 0
    # [harness] feedback: drop it and the assistant message it answers
    for i, m in enumerate(messages):
        if m.get("role") == "user" and str(m.get("content", "")).startswith("[harness]"):
            drop.add(i)
            prev = messages[i - 1] if i > 0 else {}
            # the harness answers a blocked reply or unparsable output with feedback: both go
            if prev.get("role") == "assistant" and not prev.get("tool_calls"):
                drop.add(i - 1)
                removed += 1
    out: list[dict[str, Any]] = []
    i = 0
    n = len(messages)
    while i < n:
        m = messages[i]
        if i in drop:
            i += 1
            continue
        if m.get("role") == "assistant" and m.get("tool_calls"):
            j = i + 1
            tools_idx = []
            while j < n and messages[j].get("role") == "tool":
                tools_idx.append(j)
                j += 1
            calls = list(m["tool_calls"])
            keep_calls = []
            keep_tools = []
            for k, call in enumerate(calls):
                ti = tools_idx[k] if k < len(tools_idx) else None
                if ti is not None and tool_flag.get(ti, False):
                    removed += 1
                    continue
                keep_calls.append(call)
                if ti is not None:
                    keep_tools.append(messages[ti])
            for ti in tools_idx[len(calls):]:  # tool messages without a call (should not happen): keep them
                keep_tools.append(messages[ti])
            if keep_calls:
                out.append({**m, "tool_calls": keep_calls})
                out.extend(keep_tools)
            i = j
            continue
        out.append(m)
        i += 1
    return out, removed


def template_form(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Messages as Hugging Face chat templates take them: tool-call arguments decoded to dicts, ``None`` contents
    made ``""``, only the fields templates read."""
    out = []
    for m in messages:
        msg: dict[str, Any] = {"role": m["role"], "content": "" if m.get("content") is None else str(m["content"])}
        if m.get("tool_calls"):
            calls = []
            for tc in m["tool_calls"]:
                fn = tc.get("function", tc)
                args = fn.get("arguments")
                if isinstance(args, str):
                    try:
                        args = json.loads(args) if args.strip() else {}
                    except json.JSONDecodeError:
                        args = {"_raw": args}
                calls.append({"id": tc.get("id", ""), "type": "function",
                              "function": {"name": fn["name"], "arguments": args}})
            msg["tool_calls"] = calls
        if m["role"] == "tool":
            if m.get("tool_call_id"):
                msg["tool_call_id"] = m["tool_call_id"]
            if m.get("name"):
                msg["name"] = m["name"]
        out.append(msg)
    return out


def truncate_turns(messages: list[dict[str, Any]], n_turns: int, start: int) -> list[dict[str, Any]]:
    """Keep the messages before ``start`` and the first ``n_turns`` assistant turns after it (with the tool and
    feedback messages between them)."""
    out = list(messages[:start])
    seen = 0
    for m in messages[start:]:
        if m.get("role") == "assistant":
            if seen == n_turns:
                break
            seen += 1
        elif seen == n_turns:
            break
        out.append(m)
    return out


# -- building the dataset ----------------------------------------------------------------------------------


def _passes(cfg: "DataConfig", scores: dict[str, Any], fallback: bool) -> str | None:
    """``None`` when kept, else the reason it was dropped."""
    f = cfg.filter
    comp = scores.get("components", {})
    if f.drop_fallback and fallback:
        return "fallback"
    if comp.get("accuracy", 0.0) < f.min_accuracy:
        return "accuracy"
    if comp.get("effectiveness", 0.0) < f.min_effectiveness:
        return "effectiveness"
    if scores.get("composite", 0.0) < f.min_composite:
        return "composite"
    return None


def _episode_seed(base: int, source: int, j: int) -> int:
    return base * 1_000_003 + source * 10_007 + j


def episode_runs(cfg: "DataConfig", si: int, j: int, agent: Any
                 ) -> Iterator[tuple[Example, "RequestLoop", dict[str, Any], list[str]]]:
    """Run episode ``j`` of source ``si`` (both harnesses when paired); yield ``(candidate example, loop, scores,
    errors)`` for every finished request, before filtering and collapsing (``example.messages`` is OpenAI form)."""
    from hat_env.envs.live_qa import draw_request
    from hat_env.envs.session import LiveSession
    from hat_env.sim.scenario import load_scenario
    from hat_env.train.catalog import harness_path

    hsa = cfg.hsa.options()
    src = cfg.sources[si]
    sc = load_scenario(src.scenario)
    pack = harness_path(src.harness)
    if src.harness is not None:
        sc = sc.model_copy(update={"harness_timeline": []})
    seed = _episode_seed(cfg.seed, si, j)
    augmented = cfg.hsa.share > 0 and random.Random(f"{cfg.seed}:{si}:{j}:hsa").random() < cfg.hsa.share
    runs = [True, False] if (augmented and cfg.paired) else [augmented]
    for aug in runs:
        if src.kind == "qa":
            s = LiveSession(sc, seed=seed, harness=pack, viewers=False, max_history=0,
                            hsa=hsa if aug else None)
            s.open_request(draw_request(s, seed, src.personas))
            loop, scores, errors = run_request(s, agent)
            yield _candidate(s, loop, scores, src.kind, seed, aug, j), loop, scores, errors
            s.finish()
        else:
            s = LiveSession(sc, seed=seed, harness=pack, duration_s=src.duration_s,
                            hsa=hsa if aug else None)
            while s.next_request():
                loop, scores, errors = run_request(s, agent)
                yield _candidate(s, loop, scores, src.kind, seed, aug, j), loop, scores, errors
            s.finish()


def iter_episodes(cfg: "DataConfig", agent: Any) -> Iterator[tuple[Example, "RequestLoop", dict[str, Any], list[str]]]:
    """Run every episode of ``cfg.sources`` with ``agent``; yield ``(candidate example, loop, scores, errors)``
    for every finished request, before filtering and collapsing (``example.messages`` is still OpenAI form)."""
    for si, src in enumerate(cfg.sources):
        for j in range(src.episodes):
            yield from episode_runs(cfg, si, j, agent)


def _candidate(s: "LiveSession", loop: "RequestLoop", scores: dict[str, Any], kind: str, seed: int, aug: bool,
               episode: int) -> Example:
    h = loop.harness
    info = {k: v for k, v in (s.hsa_info or {}).items() if k != "patch"} if aug else None
    out = loop.outcome
    meta = {
        "scenario": s.scenario.name,
        "kind": kind,
        "seed": seed,
        "episode": episode,
        "request_id": loop.request.request_id,
        "harness": {"name": h.name, "version": h.version, "hash": h.hash},
        "augmented": aug,
        "hsa": info,
        "scores": {"composite": scores["composite"], "components": scores["components"]},
        "turns": out.turns,
        "retries": out.retries,
        "fallback": out.fallback,
        "start": len(loop.messages) - len(loop.turn_messages()),
    }
    return Example(messages=list(loop.messages), tools=h.openai_tools, meta=meta)


def build_examples(cfg: "DataConfig", agent: Any = None,
                   progress: Callable[[int, int], None] | None = None,
                   backend: Any = None) -> tuple[list[Example], dict[str, Any]]:
    """Generate, filter and collapse the examples of ``cfg``.

    Args:
        cfg: the data config.
        agent: the teacher (default: ``make_agent(cfg.teacher.agent, **cfg.teacher.kwargs)``); with a Ray
            ``backend`` the workers build it from ``cfg.teacher`` and ``agent`` must be ``None``.
        progress: called with ``(finished requests, kept)`` after each request.
        backend: ``None`` to run here, or a :class:`hat_env.evaluation.ray_backend.RayOptions`.

    Returns:
        ``(examples, stats)``.

    Raises:
        ValueError: an agent object given with a Ray backend.
    """
    from hat_env.agents import make_agent
    from hat_env.train.candidates import iter_candidates

    if backend is not None and agent is not None:
        raise ValueError("the Ray backend builds the teacher from the config's teacher section: pass no agent")
    own = agent is None and backend is None
    if own:
        agent = make_agent(cfg.teacher.agent, offered={"seed": cfg.seed}, **cfg.teacher.kwargs)
    rng = random.Random(f"{cfg.seed}:retries")
    stats: dict[str, Any] = {
        "generated": 0, "kept": 0, "dropped": {"fallback": 0, "accuracy": 0, "effectiveness": 0, "composite": 0},
        "augmented_generated": 0, "augmented_kept": 0, "retry_traces": 0, "collapsed": 0, "kept_whole": 0,
        "agent_errors": 0,
    }
    kept: list[Example] = []
    comp_sum: dict[str, float] = {}
    t0 = time.perf_counter()
    try:
        for cand in iter_candidates(cfg, agent, backend):
            ex, scores = cand.example, cand.scores
            stats["generated"] += 1
            stats["agent_errors"] += len(cand.errors)
            aug = ex.meta["augmented"]
            stats["augmented_generated"] += int(aug)
            why = _passes(cfg, scores, cand.fallback)
            if why is not None:
                stats["dropped"][why] += 1
            else:
                msgs = ex.messages
                if cand.retried:
                    stats["retry_traces"] += 1
                    if rng.random() < cfg.retries.keep_whole_share:
                        stats["kept_whole"] += 1
                        ex.meta["retry"] = "kept_whole"
                    else:
                        msgs, n = collapse_retries(msgs, cand.rejected)
                        stats["collapsed"] += 1
                        ex.meta["retry"] = "collapsed"
                        ex.meta["removed"] = n
                if cfg.max_assistant_turns is not None:
                    msgs = truncate_turns(msgs, cfg.max_assistant_turns, ex.meta["start"] + 1)
                ex.messages = template_form(msgs)
                kept.append(ex)
                stats["kept"] += 1
                stats["augmented_kept"] += int(aug)
                for k, v in scores["components"].items():
                    comp_sum[k] = comp_sum.get(k, 0.0) + v
                comp_sum["composite"] = comp_sum.get("composite", 0.0) + scores["composite"]
            if progress is not None:
                progress(stats["generated"], stats["kept"])
    finally:
        if own:
            close = getattr(agent, "close", None)
            if callable(close):
                close()
    n = max(1, stats["kept"])
    stats["kept_means"] = {k: round(v / n, 4) for k, v in comp_sum.items()}
    stats["distinct_harnesses"] = len({e.meta["harness"]["hash"] for e in kept})
    stats["seconds"] = round(time.perf_counter() - t0, 2)
    return kept, stats


# -- export and loading ------------------------------------------------------------------------------------


def _json_features(columns: tuple[str, ...]) -> Any:
    import datasets

    if not hasattr(datasets, "Json"):  # pragma: no cover - depends on the install
        raise ImportError("hat-env training data needs a `datasets` release with the Json feature "
                          "(pip install -U datasets)")
    return datasets.Features({c: datasets.Json() for c in columns})


def to_dataset(rows: list[dict[str, Any]], columns: tuple[str, ...] = COLUMNS) -> Any:
    """A ``datasets.Dataset`` of ``rows`` with every column a ``datasets.Json()`` feature (no Arrow merging)."""
    import datasets

    return datasets.Dataset.from_list([{c: r.get(c) for c in columns} for r in rows],
                                      features=_json_features(columns))


def export(examples: list[Example], out_dir: str | Path, jsonl: bool = True, hf: bool = True) -> dict[str, str]:
    """Write ``train.jsonl`` and/or ``hf/``; returns the paths written."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths: dict[str, str] = {}
    rows = [e.row() for e in examples]
    if jsonl:
        p = out / "train.jsonl"
        with p.open("w", encoding="utf-8") as fh:
            for r in rows:
                fh.write(json.dumps(r, ensure_ascii=False) + "\n")
        paths["jsonl"] = str(p)
    if hf:
        p = out / "hf"
        to_dataset(rows).save_to_disk(str(p))
        paths["hf"] = str(p)
    return paths


def read_jsonl(path: str | Path) -> list[dict[str, Any]]:
    """The rows (JSON objects) of a JSONL file, blank lines skipped; a bad line raises ``ValueError`` naming the
    file and line (:func:`hat_env.jsonl.read_objects`)."""
    from hat_env.jsonl import read_objects

    return [row for _, row in read_objects(path)]


def load_sft_dataset(path: str | Path, keep_meta: bool = False) -> Any:
    """Load SFT rows from a data-stage folder (its ``hf/``, else ``train.jsonl``), a saved dataset folder, or a
    ``.jsonl`` file, as a ``datasets.Dataset`` with ``messages`` and ``tools`` (``datasets.Json`` features).

    Raises:
        FileNotFoundError: nothing loadable at ``path``.
    """
    import datasets

    p = Path(path)
    cols = COLUMNS if keep_meta else ("messages", "tools")
    if p.is_dir():
        if (p / "hf").is_dir():
            p = p / "hf"
        elif (p / "train.jsonl").is_file():
            p = p / "train.jsonl"
    if p.is_dir():
        ds = datasets.load_from_disk(str(p))
        drop = [c for c in ds.column_names if c not in cols]
        return ds.remove_columns(drop) if drop else ds
    if p.is_file() and p.suffix in (".jsonl", ".json"):
        rows = read_jsonl(p) if p.suffix == ".jsonl" else json.loads(p.read_text(encoding="utf-8"))
        for r in rows:
            r.setdefault("tools", None)
            r.setdefault("meta", None)
        return to_dataset(rows, cols)
    raise FileNotFoundError(f"no SFT dataset at {path}: give a data-stage output folder, its hf/ folder or a .jsonl")


def run_data(cfg: "DataConfig", agent: Any = None, quiet: bool = False, backend: Any = None) -> dict[str, Any]:
    """``hat-env train data``: build, export and summarise; returns the stats (also in ``stats.json``).

    ``backend``: ``None`` to run here, or a :class:`hat_env.evaluation.ray_backend.RayOptions` (``--backend ray``).
    """
    bar = None
    if not quiet:
        from tqdm import tqdm

        # the number of requests is not known before the sessions run (no total): a live bar on a terminal only
        # (disable=None), since a pipe, log file or CI would get a line per redraw
        bar = tqdm(desc="teacher requests", unit="req", disable=None)

    def progress(done: int, kept: int) -> None:
        if bar is not None:
            bar.update(1)
            bar.set_postfix(kept=kept)

    try:
        examples, stats = build_examples(cfg, agent, progress, backend)
    finally:
        if bar is not None:
            bar.close()
    stats["paths"] = export(examples, cfg.output_dir, cfg.export.jsonl, cfg.export.hf)
    stats["config"] = cfg.model_dump(mode="json")
    Path(cfg.output_dir, "stats.json").write_text(json.dumps(stats, ensure_ascii=False, indent=2) + "\n",
                                                  encoding="utf-8")
    return stats
