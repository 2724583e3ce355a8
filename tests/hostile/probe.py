"""The worker that feeds hostile inputs to hat-env, each in its own forked child with a memory bound and a deadline.

Run by the hostile-corpus tests (``tests/test_hostile_files.py``) as::

    python tests/hostile/probe.py --mem-mb 1024

It imports hat-env once, then reads one JSON request per line on stdin and answers one JSON result per line on
stdout. Each request runs in a child forked from the worker, so it starts at once, cannot disturb the next one,
and gets ``RLIMIT_AS`` = the worker's size + ``--mem-mb``; a child still running after the request's
``timeout_s`` is killed. A result is ``{"status": STATUS, "wall_s", "max_rss_mb", ...}`` where STATUS is

- ``done``: the probe finished; its findings follow (see the probe functions);
- ``timeout``: killed at the deadline; ``memory``: MemoryError under the bound; ``killed``: died of a signal;
- ``crashed``: an exception hat-env did not turn into a clear error (``error`` holds the traceback).

Kinds of input are probe functions in :data:`PROBES`, named by the request's ``kind``. Only ``file`` exists so
far; hostile actions, comments and endpoint behaviours add theirs here (and their entries to manifest.yaml).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import resource
import select
import signal
import sys
import time
import traceback
from contextlib import redirect_stdout
from typing import Any, Callable

from hat_env import cli, saferegex
from hat_env.envs.session import LiveSession
from hat_env.harness import Harness
from hat_env.harness.core import ArgError
from hat_env.harness.patch import PatchError
from hat_env.sim.scenario import load_scenario
from hat_env.yamlio import FileError


def probe_file(req: dict[str, Any]) -> dict[str, Any]:
    """A data file (a scenario or a harness pack folder): ``hat-env validate`` on it, then the loaders the env uses.

    Request fields: ``target`` (the path), ``as`` (``scenario`` | ``harness``), ``roots`` (``--allow-root``
    folders), and optionally ``reply`` (a reply checked by the scenario's compliance rules), ``call``
    (``{"tool", "arguments"}`` decoded against the harness's tool schema) and ``tool_name`` (searched by every
    hook matcher), all run only when loading succeeded.

    Returns:
        ``validate``: ``{"rc", "output"}``; ``env``: ``"ok"`` or ``"error: MESSAGE"``; and ``reply_hits``,
        ``call``, ``matchers`` for the optional probes.
    """
    target, roots = req["target"], list(req.get("roots") or [])
    out: dict[str, Any] = {}
    buf = io.StringIO()
    with redirect_stdout(buf):
        rc = cli.main(["validate", target, *[a for r in roots for a in ("--allow-root", r)]])
    out["validate"] = {"rc": rc, "output": buf.getvalue()}
    rules = None
    locale = "en_US"
    try:
        if req["as"] == "scenario":
            sc = load_scenario(target, roots=roots)
            session = LiveSession(sc, trace=None)
            harness, rules, locale = session.harness, session.rules, sc.locale
            for e in sc.harness_timeline:
                harness = harness.apply(e.patch)
        else:
            harness = Harness.load(target)
        out["env"] = "ok"
    except (FileError, PatchError) as exc:
        out["env"] = f"error: {exc}"
        return out
    if req.get("reply") is not None and rules is not None:
        out["reply_hits"] = [h.rule_id for h in rules.check(req["reply"], locale)]
    if req.get("call"):
        tool = harness.tools_by_name[req["call"]["tool"]]
        try:
            harness.decode_args(tool, req["call"]["arguments"])
            out["call"] = "ok"
        except ArgError as exc:
            out["call"] = f"ArgError: {str(exc)[:300]}"
    if req.get("tool_name") is not None:
        out["matchers"] = [bool(saferegex.search(h.matcher, req["tool_name"]))
                           for h in harness.spec.hooks if h.matcher is not None]
    return out


#: Probe function per request ``kind``.
PROBES: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {"file": probe_file}


def _vm_size_bytes() -> int:
    with open("/proc/self/status", encoding="ascii") as fh:
        for line in fh:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    return 0


def _child(req: dict[str, Any], mem_bytes: int, w: int) -> None:
    try:
        resource.setrlimit(resource.RLIMIT_AS, (_vm_size_bytes() + mem_bytes, resource.RLIM_INFINITY))
        t0 = time.perf_counter()
        payload = {"status": "done", **PROBES[req["kind"]](req), "probe_s": round(time.perf_counter() - t0, 3)}
    except MemoryError:
        payload = {"status": "memory"}
    except BaseException:  # noqa: BLE001 - anything else is what the test reports
        payload = {"status": "crashed", "error": traceback.format_exc()[-4000:]}
    data = json.dumps(payload).encode("ascii")
    view = memoryview(data)
    while view:
        n = os.write(w, view)
        view = view[n:]
    os._exit(0)


def run_one(req: dict[str, Any], mem_bytes: int) -> dict[str, Any]:
    """Run one request in a forked child; returns its result with ``wall_s`` and ``max_rss_mb``."""
    r, w = os.pipe()
    t0 = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        _child(req, mem_bytes, w)
    os.close(w)
    chunks: list[bytes] = []
    deadline = t0 + float(req.get("timeout_s", 30))
    timed_out = False
    while True:
        left = deadline - time.perf_counter()
        if left <= 0:
            timed_out = True
            os.kill(pid, signal.SIGKILL)
            break
        ready, _, _ = select.select([r], [], [], left)
        if ready:
            chunk = os.read(r, 1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
    os.close(r)
    _, status, usage = os.wait4(pid, 0)
    wall = round(time.perf_counter() - t0, 3)
    if timed_out:
        res: dict[str, Any] = {"status": "timeout"}
    elif chunks:
        res = json.loads(b"".join(chunks).decode("ascii"))
    elif os.WIFSIGNALED(status):
        res = {"status": "killed", "signal": os.WTERMSIG(status)}
    else:
        res = {"status": "crashed", "error": f"child exited with status {status} and no result"}
    res.update(wall_s=wall, max_rss_mb=round(usage.ru_maxrss / 1024, 1))
    return res


def main(argv: list[str] | None = None) -> int:
    """Serve requests from stdin until it closes."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mem-mb", type=int, default=1024, help="memory each input may add (MiB; default 1024)")
    args = ap.parse_args(argv)
    for line in sys.stdin:
        if line.strip():
            print(json.dumps(run_one(json.loads(line), args.mem_mb << 20)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
