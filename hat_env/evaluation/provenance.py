"""Where a bench run came from: ``OUT/run.json``, the run id, the resume check and the mismatches of two runs.

``run.json`` holds the run's **configuration** (what decides its results: the agent spec, model, adapter
arguments, agent seed, the suites with their manifest hashes or the case file with its hash, the case selection
and the trials) and its **context** (the agent's name, hat-env's version and git revision, the machine, the date,
the backend, the command line). The **run id** is a digest of the configuration: every result row carries it, so
rows of two configurations mixed in one file can be told apart, and two runs with the same id asked the same
questions of the same agent. It has no date in it, so a seeded run writes the same rows to the byte.

``--resume`` compares the stored configuration with the new one (:func:`resume_conflicts`) and refuses a
different one unless ``--force``; ``hat-env compare`` prints :func:`provenance_mismatches` as warnings.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import os
import platform
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any, Mapping

RUN_FILE = "run.json"

#: Adapter arguments that change how fast a run goes, not what it asks: recorded, never part of the run id.
THROUGHPUT_ARGS: frozenset[str] = frozenset({"max_concurrency"})

#: Adapter arguments never recorded (they could hold credentials).
SECRET_ARGS: frozenset[str] = frozenset({"api_key"})


def canonical(obj: Any) -> str:
    """``obj`` as canonical JSON (sorted keys, no spaces, UTF-8 kept): the form every digest here is taken of."""
    return json.dumps(obj, ensure_ascii=False, sort_keys=True, separators=(",", ":"), default=str)


def run_id(config: Mapping[str, Any]) -> str:
    """The run id of a configuration: the first 16 hex digits of SHA-256 over its canonical JSON."""
    return hashlib.sha256(canonical(dict(config)).encode("utf-8")).hexdigest()[:16]


def adapter_args(flags: Mapping[str, Any], agent_args: Mapping[str, Any]) -> dict[str, Any]:
    """The agent's arguments as a run records them.

    Args:
        flags: the shared flags that were given (``--model``, ``--timeout``... as
            :func:`hat_env.agents.cli_args.flag_kwargs` returns them).
        agent_args: ``--agent-arg`` / ``--engine-arg`` values (:func:`hat_env.agents.cli_args.agent_kwargs`).

    Returns:
        ``{name: value}`` without the model (recorded on its own), the throughput knobs and secrets.
    """
    out = {k: v for k, v in {**flags, **agent_args}.items()
           if k not in THROUGHPUT_ARGS and k not in SECRET_ARGS and k != "model"}
    if "max_new_tokens" in out and out.get("max_new_tokens") == out.get("max_tokens"):
        del out["max_new_tokens"]  # --max-tokens offers both names; one is enough
    return dict(sorted(out.items()))


def configuration(agent: str, model: str | None, args: Mapping[str, Any], seed: int,
                  sources: list[dict[str, Any]], selection: Mapping[str, Any], trials: int) -> dict[str, Any]:
    """A run's configuration: what decides its results.

    Args:
        agent: the agent spec (``reference``, ``openai``, ``module:attr``...).
        model: the model (served name or path), or ``None``.
        args: the adapter arguments (:func:`adapter_args`).
        seed: the agent seed.
        sources: where the cases come from: ``{"suite", "hash", "cases"}`` per suite, or
            ``{"file", "hash", "cases"}`` for a case file (``hash``: SHA-256 over its cases as canonical lines).
        selection: ``{"limit", "sample", "sample_seed"}``.
        trials: runs per case.
    """
    return {"agent": agent, "model": model, "adapter_args": dict(args), "seed": int(seed),
            "sources": [dict(s) for s in sources], "selection": dict(selection), "trials": int(trials)}


def git_revision() -> dict[str, Any] | None:
    """``{"commit", "dirty"}`` of the git checkout hat-env runs from, or ``None`` (an installed wheel, no git).

    Only a checkout that holds this very package counts, so a virtual environment inside some other repository
    reports ``None``. ``dirty``: tracked files differ from the commit.
    """
    pkg = Path(__file__).resolve().parent.parent
    try:
        top = subprocess.run(["git", "-C", str(pkg), "rev-parse", "--show-toplevel", "HEAD"], capture_output=True,
                             text=True, timeout=10)
        if top.returncode != 0:
            return None
        root, commit = top.stdout.split()[:2]
        if (Path(root) / "hat_env" / "__init__.py").resolve() != pkg / "__init__.py":
            return None
        dirty = subprocess.run(["git", "-C", root, "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError, ValueError):
        return None
    return {"commit": commit, "dirty": bool(dirty.stdout.strip()) if dirty.returncode == 0 else None}


def machine() -> dict[str, Any]:
    """The machine a run ran on: host name, CPU model, cores, Python, platform."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"node": platform.node(), "cpu": cpu, "cores": os.cpu_count(), "python": platform.python_version(),
            "platform": platform.platform()}


def run_info(config: Mapping[str, Any], agent_name: str | None, backend: Mapping[str, Any],
             argv: list[str] | None = None) -> dict[str, Any]:
    """The content of ``run.json`` for ``config`` run now, here.

    Args:
        config: the configuration (:func:`configuration`).
        agent_name: the agent object's ``name`` (what reports label it), or ``None``.
        backend: ``{"kind": "local" | "ray", ...}`` (not part of the configuration: backends give the same rows).
        argv: the command's arguments after ``hat-env`` (default ``sys.argv[1:]``).
    """
    from hat_env import __version__

    return {
        "run_id": run_id(config),
        "config": dict(config),
        "agent_name": agent_name,
        "hat_env": {"version": __version__, "git": git_revision()},
        "machine": machine(),
        "date": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "backend": dict(backend),
        "command": shlex.join(["hat-env", *(sys.argv[1:] if argv is None else argv)]),
    }


def read_run(folder: str | Path) -> dict[str, Any] | None:
    """``run.json`` of a run folder (or of the folder holding a given ``summary.json``), or ``None`` when absent.

    Raises:
        ValueError: the file exists but is not a JSON object (the message names it).
    """
    p = Path(folder)
    if p.is_file():
        p = p.parent
    f = p / RUN_FILE
    if not f.exists():
        return None
    try:
        data = json.loads(f.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ValueError(f"{f}: not valid JSON: {exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("config"), dict):
        raise ValueError(f"{f}: config: missing (not a hat-env run.json)")
    return data


def write_run(folder: str | Path, info: Mapping[str, Any], previous: Mapping[str, Any] | None = None) -> Path:
    """Write ``run.json`` into ``folder``. When a resumed run replaces an earlier configuration (``--force``),
    ``previous`` is kept under ``"previous"`` (with its own earlier ones), so the file says which run ids its rows
    may carry."""
    data = dict(info)
    if previous is not None:
        chain = [p for p in previous.get("previous", [])]
        if previous.get("run_id") != info.get("run_id"):
            chain.append({k: v for k, v in previous.items() if k != "previous"})
        if chain:
            data["previous"] = chain
        data["started"] = previous.get("started", previous.get("date"))
    else:
        data["started"] = info.get("date")
    p = Path(folder) / RUN_FILE
    p.parent.mkdir(parents=True, exist_ok=True)
    tmp = p.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    tmp.replace(p)
    return p


def _describe_sources(sources: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {str(s.get("suite") or s.get("file")): s for s in sources}


def config_differences(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[str]:
    """What differs between two configurations, one line each (empty when they are the same)."""
    out: list[str] = []
    for key, label in (("agent", "agent"), ("model", "model"), ("seed", "agent seed"), ("trials", "trials")):
        if old.get(key) != new.get(key):
            out.append(f"{label}: {old.get(key)!r} -> {new.get(key)!r}")
    oa, na = old.get("adapter_args") or {}, new.get("adapter_args") or {}
    for k in sorted(set(oa) | set(na)):
        if oa.get(k) != na.get(k):
            out.append(f"adapter argument {k}: {oa.get(k, '(unset)')!r} -> {na.get(k, '(unset)')!r}")
    os_, ns = _describe_sources(old.get("sources") or []), _describe_sources(new.get("sources") or [])
    if set(os_) != set(ns):
        out.append(f"suites: {', '.join(sorted(os_)) or '(none)'} -> {', '.join(sorted(ns)) or '(none)'}")
    for k in sorted(set(os_) & set(ns)):
        if os_[k].get("hash") != ns[k].get("hash"):
            out.append(f"{k}: manifest hash {str(os_[k].get('hash'))[:12]} -> {str(ns[k].get('hash'))[:12]} "
                       "(the cases changed)")
    osel, nsel = old.get("selection") or {}, new.get("selection") or {}
    for k in sorted(set(osel) | set(nsel)):
        if osel.get(k) != nsel.get(k):
            out.append(f"case selection {k}: {osel.get(k)!r} -> {nsel.get(k)!r}")
    return out


def resume_conflicts(folder: str | Path, info: Mapping[str, Any], results_exist: bool) -> list[str]:
    """Why resuming into ``folder`` with ``info`` (a :func:`run_info`) would mix two runs; empty when it is safe.

    Args:
        folder: the run folder.
        info: the new run's ``run.json`` content.
        results_exist: the folder already holds result rows.
    """
    old = read_run(folder)
    if old is None:
        if results_exist:
            return [f"{folder} holds results but no {RUN_FILE} (written before runs recorded their configuration): "
                    "its agent and cases cannot be checked"]
        return []
    return config_differences(old["config"], info["config"])


def provenance_mismatches(a: Mapping[str, Any] | None, b: Mapping[str, Any] | None) -> list[str]:
    """What makes two runs not directly comparable, one warning line each (empty when nothing does).

    Args:
        a: ``run.json`` of the first run (:func:`read_run`), or ``None`` when it has none.
        b: the same for the second run.

    Returns:
        Lines such as ``"lsqa-v1: 40 cases vs 3"``, ``"model: 'm1' vs 'm2'"``,
        ``"hat-env git revision: abc vs def"``.
        Agent and model differences are listed too (a comparison of two agents is usually the point, but a
        reader of the table must know).
    """
    if a is None or b is None:
        which = "neither run has" if a is None and b is None else "the first run has" if a is None else \
            "the second run has"
        return [f"{which} no {RUN_FILE} (a run from before runs recorded their configuration): cannot check "
                "that the runs compare"]
    out: list[str] = []
    ca, cb = a.get("config") or {}, b.get("config") or {}
    for key, label in (("agent", "agent"), ("model", "model"), ("seed", "agent seed"), ("trials", "trials")):
        if ca.get(key) != cb.get(key):
            out.append(f"{label}: {ca.get(key)!r} vs {cb.get(key)!r}")
    aa, ab = ca.get("adapter_args") or {}, cb.get("adapter_args") or {}
    for k in sorted(set(aa) | set(ab)):
        if aa.get(k) != ab.get(k):
            out.append(f"adapter argument {k}: {aa.get(k, '(unset)')!r} vs {ab.get(k, '(unset)')!r}")
    sa, sb = _describe_sources(ca.get("sources") or []), _describe_sources(cb.get("sources") or [])
    only_a, only_b = sorted(set(sa) - set(sb)), sorted(set(sb) - set(sa))
    if only_a or only_b:
        out.append(f"suites: only in A {', '.join(only_a) or '-'}; only in B {', '.join(only_b) or '-'}")
    for k in sorted(set(sa) & set(sb)):
        if sa[k].get("hash") != sb[k].get("hash"):
            out.append(f"{k}: different cases (manifest hash {str(sa[k].get('hash'))[:12]} vs "
                       f"{str(sb[k].get('hash'))[:12]})")
        if sa[k].get("selected") != sb[k].get("selected"):
            out.append(f"{k}: {sa[k].get('selected')} cases vs {sb[k].get('selected')}")
    xa, xb = ca.get("selection") or {}, cb.get("selection") or {}
    for k in sorted(set(xa) | set(xb)):
        if xa.get(k) != xb.get(k):
            out.append(f"case selection {k}: {xa.get(k)!r} vs {xb.get(k)!r}")
    va, vb = (a.get("hat_env") or {}), (b.get("hat_env") or {})
    if va.get("version") != vb.get("version"):
        out.append(f"hat-env version: {va.get('version')} vs {vb.get('version')}")
    ga, gb = (va.get("git") or {}).get("commit"), (vb.get("git") or {}).get("commit")
    if ga != gb:
        out.append(f"hat-env git revision: {str(ga)[:12]} vs {str(gb)[:12]}")
    for name, x in (("the first run", a), ("the second run", b)):
        if x.get("previous"):
            ids = ", ".join(str(p.get("run_id")) for p in x["previous"])
            out.append(f"{name} was resumed over another configuration (--force): its rows mix run ids {ids} "
                       f"and {x.get('run_id')}")
    return out


__all__ = ["RUN_FILE", "adapter_args", "canonical", "config_differences", "configuration", "git_revision",
           "machine", "provenance_mismatches", "read_run", "resume_conflicts", "run_id", "run_info", "write_run"]
