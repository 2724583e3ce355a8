"""Reports of a bench run: ``summary.json``, ``report.md`` and the PNG plots (:mod:`hat_env.evaluation.plots`).
Several runs side by side: :mod:`hat_env.evaluation.compare` (``hat-env compare``) and ``hat-env view``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

METRICS = ("avg", "accuracy", "effectiveness", "composite", "tool_rationality", "skill_selection", "compliance")


def _fmt(v: Any) -> str:
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:.2f}"
    return str(v)


def markdown(summary: dict[str, Any], agent: str = "") -> str:
    """The report as Markdown: one table of suites, one per suite of categories, the latency table."""
    lines = [f"# hat-env bench{': ' + agent if agent else ''}", "", "## Suites", ""]
    head = ["suite", "cases", *METRICS, "pass^1"]
    lines += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for sid, s in summary["suites"].items():
        lines.append("| " + " | ".join([sid, str(s["cases"]), *(_fmt(s.get(m)) for m in METRICS), _fmt(s.get("pass^1"))]) + " |")
    for sid, s in summary["suites"].items():
        lines += ["", f"## {sid} by category", ""]
        ch = ["category", "cases", *METRICS]
        lines += ["| " + " | ".join(ch) + " |", "|" + "---|" * len(ch)]
        for cat, c in s["categories"].items():
            lines.append("| " + " | ".join([cat, str(c["cases"]), *(_fmt(c.get(m)) for m in METRICS)]) + " |")
        if s.get("ifeval"):
            lines += ["", "IFEval: " + ", ".join(f"{k} {_fmt(v)}" for k, v in s["ifeval"].items())]
    lat = summary["latency"]
    lines += ["", "## Latency per request (seconds)", "", "| " + " | ".join(lat) + " |", "|" + "---|" * len(lat),
              "| " + " | ".join(_fmt(v) for v in lat.values()) + " |", ""]
    return "\n".join(lines)


def plots(out_dir: Path, summary: dict[str, Any], records: list[dict[str, Any]]) -> list[Path]:
    """Write the plots of a run (see :mod:`hat_env.evaluation.plots`): ``scores.png`` (avg by suite and
    category), ``components.png`` (every component per suite and category), ``latency_cdf.png``, and
    ``hsa.png`` (original vs HSA-variant harness) when the run has both ``lsqa-v1`` and ``hvqa-v1``.

    Returns:
        The paths written.
    """
    from hat_env.evaluation import plots as p

    out = [p.scores_plot(out_dir / "scores.png", summary), p.components_plot(out_dir / "components.png", summary),
           p.latency_plot(out_dir / "latency_cdf.png", records)]
    hsa = p.hsa_plot(out_dir / "hsa.png", summary)
    return out + ([hsa] if hsa is not None else [])


def write(out_dir: Path, summary: dict[str, Any], records: list[dict[str, Any]], agent: str = "") -> list[Path]:
    """Write ``summary.json``, ``report.md`` (with the worst cases of each category: :mod:`.worst`) and the plots
    into ``out_dir``; returns every path written."""
    from hat_env.evaluation import worst

    out_dir.mkdir(parents=True, exist_ok=True)
    sp, rp = out_dir / "summary.json", out_dir / "report.md"
    sp.write_text(json.dumps(summary, ensure_ascii=False, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    rp.write_text(markdown(summary, agent) + worst.markdown(records, run=str(out_dir)), encoding="utf-8")
    return [sp, rp, *plots(out_dir, summary, records)]
