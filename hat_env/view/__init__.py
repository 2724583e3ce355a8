"""``hat-env view``: one self-contained HTML page (inline JS and CSS, no network, opens from file://) that replays
a live session from its trace, or reports one or more bench runs side by side.

- :mod:`hat_env.view.trace` reads and checks a trace; :mod:`~hat_env.view.steps` pairs each tool call as the model
  wrote it with what the harness ran; :mod:`~hat_env.view.timeline` rebuilds harness changes (with diffs) and
  campaigns (with price changes); :mod:`~hat_env.view.session` and :mod:`~hat_env.view.bench` make the page data;
  :mod:`~hat_env.view.page` embeds it, escaped, into the template (``template.html``, package data).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from hat_env.yamlio import FileError


def build(inputs: list[str | Path], out: str | Path, prompts: bool = True) -> dict[str, Any]:
    """Write the page for a trace, or for one or more bench output folders.

    Args:
        inputs: one ``.jsonl`` trace, or bench output folders (a folder, its ``summary.json`` or
            ``results.jsonl``); several folders are shown side by side, the first as the baseline.
        out: the HTML file to write.
        prompts: bench pages only: regenerate the suites to embed each case's prompt.

    Returns:
        ``{"kind", "path", "bytes", "build_s", "items"}``: what was written (``items``: requests or records).

    Raises:
        FileError: an input is not a trace or a bench folder, or holds malformed records.
        ValueError: a trace given with other inputs.
    """
    from hat_env.view.page import render

    t0 = time.perf_counter()
    paths = [Path(p) for p in inputs]
    if not paths:
        raise ValueError("give a trace (.jsonl) or one or more bench output folders")
    for p in paths:
        if not p.exists():
            raise FileError(p, [("<path>", None, "no such file or folder")])
    is_trace = [p.is_file() and p.name != "results.jsonl" and p.suffix == ".jsonl" for p in paths]
    if any(is_trace):
        if len(paths) > 1:
            raise ValueError("a session page shows one trace: give one .jsonl file (bench folders may be several)")
        from hat_env.view.session import session_data

        data = session_data(paths[0])
        title = f"hat-env session: {data['meta'].get('scenario')} ({paths[0].name})"
        items = len(data["requests"])
    else:
        from hat_env.view.bench import bench_data

        data = bench_data(paths, prompts=prompts)
        title = "hat-env bench: " + " vs ".join(r["label"] for r in data["runs"])
        items = sum(len(r["records"]) for r in data["runs"])
    text = render(data, title)
    o = Path(out)
    o.parent.mkdir(parents=True, exist_ok=True)
    o.write_text(text, encoding="utf-8")
    return {"kind": data["kind"], "path": str(o), "bytes": len(text.encode("utf-8")),
            "build_s": round(time.perf_counter() - t0, 3), "items": items}


__all__ = ["build"]
