"""Reports of a bench run: ``report.md``, PNG plots (scores by suite and category; latency CDF) and the
side-by-side comparison of two runs."""

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
    """Write ``scores.png`` (avg by suite and category) and ``latency_cdf.png``; returns their paths."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    paths = []
    suites = summary["suites"]
    fig, axes = plt.subplots(1, max(1, len(suites)), figsize=(4.5 * max(1, len(suites)), 4), squeeze=False)
    for ax, (sid, s) in zip(axes[0], suites.items()):
        cats = list(s["categories"])
        vals = [s["categories"][c]["avg"] for c in cats]
        ax.barh(cats, vals, color="#4C72B0")
        ax.axvline(s["avg"], color="#C44E52", linestyle="--", label=f"suite avg {s['avg']:.1f}")
        ax.set_xlim(0, 100)
        ax.set_title(sid)
        ax.set_xlabel("avg of accuracy and effectiveness")
        ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    p = out_dir / "scores.png"
    fig.savefig(p, dpi=110)
    plt.close(fig)
    paths.append(p)

    lat = sorted(float(r["latency_s"]) for r in records if r.get("latency_s") is not None)
    fig, ax = plt.subplots(figsize=(5.5, 4))
    if lat:
        ax.plot(lat, [(i + 1) / len(lat) for i in range(len(lat))], color="#4C72B0")
        ax.axvline(15.0, color="#C44E52", linestyle="--", label="15 s")
        ax.legend()
    ax.set_xlabel("seconds per request")
    ax.set_ylabel("share of requests")
    ax.set_title("latency CDF")
    fig.tight_layout()
    p = out_dir / "latency_cdf.png"
    fig.savefig(p, dpi=110)
    plt.close(fig)
    paths.append(p)
    return paths


def write(out_dir: Path, summary: dict[str, Any], records: list[dict[str, Any]], agent: str = "") -> None:
    """Write ``summary.json``, ``report.md`` (with the worst cases of each category) and the plots into
    ``out_dir``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "summary.json").write_text(json.dumps(summary, ensure_ascii=False, indent=2, sort_keys=True) + "\n",
                                          encoding="utf-8")
    from hat_env.evaluation import worst

    (out_dir / "report.md").write_text(markdown(summary, agent) + worst.markdown(records, run=str(out_dir)),
                                       encoding="utf-8")
    plots(out_dir, summary, records)


def compare(a: dict[str, Any], b: dict[str, Any], name_a: str = "A", name_b: str = "B") -> list[list[str]]:
    """Rows ``[suite, metric, a, b, b - a]`` for every suite and metric the two summaries share, plus latency."""
    rows = []
    for sid in sorted(set(a["suites"]) | set(b["suites"])):
        sa, sb = a["suites"].get(sid, {}), b["suites"].get(sid, {})
        for m in (*METRICS, "pass^1"):
            va, vb = sa.get(m), sb.get(m)
            diff = f"{vb - va:+.2f}" if isinstance(va, (int, float)) and isinstance(vb, (int, float)) else "-"
            rows.append([sid, m, _fmt(va), _fmt(vb), diff])
    for m in ("p50_s", "p95_s", "p99_s", "under_15s"):
        va, vb = a["latency"].get(m), b["latency"].get(m)
        diff = f"{vb - va:+.3f}" if isinstance(va, (int, float)) and isinstance(vb, (int, float)) else "-"
        rows.append(["latency", m, _fmt(va), _fmt(vb), diff])
    return rows
