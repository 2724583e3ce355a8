"""PNG plots of a bench run that people read (matplotlib, Agg backend): scores by category with value labels and
case counts, the component breakdown as an annotated heat map, the latency CDF with the 15 s line, original vs
HSA-variant harnesses, and several runs side by side with confidence intervals.

Every bar carries its value, so a 0 score is written ``0.0`` on an empty track (not a missing bar); legends sit
outside the axes or titles carry what a legend would, so nothing covers a bar.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

#: Columns of the component heat map (summary keys, 0-100).
HEAT_COLUMNS = ("avg", "accuracy", "effectiveness", "composite", "tool_rationality", "skill_selection", "compliance",
                "constraints", "latency")
_BAR = "#3a6ea5"
_TRACK = "#e9ecef"
_LINE = "#c0392b"


def _plt() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _value_labels(ax: Any, ys: Sequence[float], vals: Sequence[float | None], height: float) -> None:
    """Bars on a 0-100 track, each with its value written at its end (inside when the bar is long)."""
    ax.barh(ys, [100] * len(ys), height=height, color=_TRACK, zorder=1)
    ax.barh(ys, [v or 0 for v in vals], height=height, color=_BAR, zorder=2)
    for y, v in zip(ys, vals):
        if v is None:
            ax.text(1, y, "n/a", va="center", ha="left", fontsize=8, color="#666", zorder=3)
        elif v >= 85:
            ax.text(v - 1, y, f"{v:.1f}", va="center", ha="right", fontsize=8, color="white", fontweight="bold", zorder=3)
        else:
            ax.text(v + 1, y, f"{v:.1f}", va="center", ha="left", fontsize=8,
                    color=_LINE if v <= 0 else "#222", fontweight="bold" if v <= 0 else None, zorder=3)


def scores_figure(summary: dict[str, Any], metric: str = "avg") -> Any:
    """``metric`` (default the paper's avg) per category, one panel per suite, with case counts.

    Args:
        summary: a bench summary (:func:`hat_env.evaluation.metrics.summarize`).
        metric: the summary key to draw (0-100).

    Returns:
        The matplotlib figure.
    """
    plt = _plt()
    suites = summary["suites"]
    n = max(1, len(suites))
    cols = min(2, n)
    rows = (n + cols - 1) // cols
    tallest = max((len(s["categories"]) for s in suites.values()), default=1)
    fig, axes = plt.subplots(rows, cols, figsize=(6.4 * cols, 0.9 + rows * (0.5 + 0.36 * tallest)), squeeze=False)
    for ax in axes.flat[n:]:
        ax.set_visible(False)
    for ax, (sid, s) in zip(axes.flat, suites.items()):
        cats = list(s["categories"])[::-1]
        vals = [s["categories"][c].get(metric) for c in cats]
        ys = list(range(len(cats)))
        _value_labels(ax, ys, vals, 0.7)
        ax.set_yticks(ys, [f"{c} (n={s['categories'][c]['cases']})" for c in cats], fontsize=8)
        sv = s.get(metric)
        if sv is not None:
            ax.axvline(sv, color=_LINE, linestyle="--", linewidth=1, zorder=4)
        ax.set_xlim(0, 100)
        ax.set_title(f"{sid}: {metric} {sv:.1f} over {s['cases']} cases (dashed)" if sv is not None else sid, fontsize=9)
        ax.tick_params(axis="x", labelsize=8)
        ax.spines[["top", "right"]].set_visible(False)
    fig.suptitle(f"{metric} by category (0-100)" + (f", {summary['agent']}" if summary.get("agent") else ""), fontsize=10)
    fig.tight_layout()
    return fig


def components_figure(summary: dict[str, Any]) -> Any:
    """Every suite and category against every component: an annotated heat map (0 red ... 100 green).

    Args:
        summary: a bench summary.

    Returns:
        The matplotlib figure.
    """
    plt = _plt()
    labels: list[str] = []
    grid: list[list[float]] = []
    bold: list[bool] = []
    for sid, s in summary["suites"].items():
        labels.append(f"{sid} (n={s['cases']})")
        grid.append([float(s.get(c) if s.get(c) is not None else float("nan")) for c in HEAT_COLUMNS])
        bold.append(True)
        for cat, c in s["categories"].items():
            labels.append(f"   {cat} (n={c['cases']})")
            grid.append([float(c.get(k) if c.get(k) is not None else float("nan")) for k in HEAT_COLUMNS])
            bold.append(False)
    fig, ax = plt.subplots(figsize=(1.0 + 0.78 * len(HEAT_COLUMNS) + 2.4, 0.8 + 0.27 * max(1, len(labels))))
    im = ax.imshow(grid, cmap="RdYlGn", vmin=0, vmax=100, aspect="auto")
    for i, row in enumerate(grid):
        for j, v in enumerate(row):
            txt = "n/a" if v != v else f"{v:.1f}"
            ax.text(j, i, txt, ha="center", va="center", fontsize=7, fontweight="bold" if bold[i] else None,
                    color="black" if v != v or 25 <= v <= 85 else "white")
    ax.set_xticks(range(len(HEAT_COLUMNS)), HEAT_COLUMNS, rotation=30, ha="right", fontsize=8)
    ax.set_yticks(range(len(labels)), labels, fontsize=8)
    for t, b in zip(ax.get_yticklabels(), bold):
        t.set_fontweight("bold" if b else "normal")
    ax.set_title("component breakdown (0-100)" + (f", {summary['agent']}" if summary.get("agent") else ""), fontsize=10)
    fig.colorbar(im, ax=ax, fraction=0.03, pad=0.02)
    fig.tight_layout()
    return fig


def latency_figure(records: list[dict[str, Any]], limit_s: float = 15.0) -> Any:
    """The CDF of per-request latency with the ``limit_s`` line, P50/P95 marked and the share under it.

    Args:
        records: result records (``latency_s``).
        limit_s: the latency target line (the live room's 15 s).

    Returns:
        The matplotlib figure.
    """
    from hat_env.evaluation.metrics import percentile

    plt = _plt()
    lat = sorted(float(r["latency_s"]) for r in records if r.get("latency_s") is not None)
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    if lat:
        ys = [(i + 1) / len(lat) for i in range(len(lat))]
        ax.step(lat, ys, where="post", color=_BAR, label=f"{len(lat)} requests")
        under = sum(1 for x in lat if x < limit_s) / len(lat)
        ax.axvline(limit_s, color=_LINE, linestyle="--", label=f"{limit_s:g} s: {100 * under:.1f}% under")
        for q, style in ((50, ":"), (95, "-.")):
            v = percentile(lat, q)
            if v is not None:
                ax.axvline(v, color="#555", linestyle=style, linewidth=1, label=f"P{q} {v:.2f} s")
        ax.set_xlim(0, max(limit_s * 1.15, lat[-1] * 1.05))
    else:
        ax.text(0.5, 0.5, "no latencies recorded", ha="center", va="center", transform=ax.transAxes)
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("seconds per request (model turns + tools)")
    ax.set_ylabel("share of requests")
    ax.set_title("latency CDF", fontsize=10)
    ax.grid(alpha=0.3)
    if lat:
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2, fontsize=8, frameon=False)
    fig.tight_layout()
    return fig


def hsa_figure(summary: dict[str, Any], original: str = "lsqa-v1", variants: str = "hvqa-v1",
               metric: str = "avg") -> Any:
    """The same request categories under the original harness and under held-out HSA variants, side by side.

    Args:
        summary: a bench summary.
        original: the suite run with the original harness.
        variants: the suite run with HSA variants (the same generator, a variant per case).
        metric: the summary key (0-100).

    Returns:
        The figure, or ``None`` when the run lacks either suite.
    """
    suites = summary["suites"]
    if original not in suites or variants not in suites:
        return None
    plt = _plt()
    a, b = suites[original]["categories"], suites[variants]["categories"]
    cats = [c for c in a if c in b][::-1]
    fig, ax = plt.subplots(figsize=(7.2, 1.4 + 0.62 * max(1, len(cats))))
    h = 0.38
    ys = list(range(len(cats)))
    for off, cs, color, name in ((h / 2, a, _BAR, original), (-h / 2, b, "#8e5bb5", variants)):
        pos = [y + off for y in ys]
        vals = [cs[c].get(metric) for c in cats]
        ax.barh(pos, [100] * len(pos), height=h * 0.92, color=_TRACK, zorder=1)
        ax.barh(pos, [v or 0 for v in vals], height=h * 0.92, color=color, zorder=2,
                label=f"{name} ({'original harness' if name == original else 'held-out HSA variants'}): "
                      f"{suites[name].get(metric, 0):.1f}")
        for y, v, c in zip(pos, vals, cats):
            txt = "n/a" if v is None else f"{v:.1f} (n={cs[c]['cases']})"
            inside = v is not None and v >= 70
            ax.text((v or 0) - 1 if inside else (v or 0) + 1, y, txt, va="center", ha="right" if inside else "left",
                    fontsize=7.5, color="white" if inside else (_LINE if not v else "#222"), zorder=3)
    ax.set_yticks(ys, cats, fontsize=8)
    ax.set_xlim(0, 100)
    ax.set_xlabel(f"{metric} (0-100)")
    ax.set_title("original harness vs held-out HSA variants" + (f", {summary['agent']}" if summary.get("agent") else ""),
                 fontsize=10)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=1, fontsize=8, frameon=False)
    ax.spines[["top", "right"]].set_visible(False)
    fig.tight_layout()
    return fig


def compare_figure(table: dict[str, Any]) -> Any:
    """Several runs side by side: each suite's metric per run with its bootstrap confidence interval.

    Args:
        table: :func:`hat_env.evaluation.compare.compare_runs` output.

    Returns:
        The matplotlib figure.
    """
    plt = _plt()
    labels = table["labels"]
    suites = [s for s in table["suites"]]
    k = len(labels)
    fig, ax = plt.subplots(figsize=(max(6.4, 1.2 + 1.5 * len(suites) * max(1, k) / 2), 4.6))
    w = 0.8 / max(1, k)
    colors = ["#3a6ea5", "#e07b39", "#4b9b5b", "#8e5bb5", "#c0392b", "#6c757d"]
    for j, lab in enumerate(labels):
        xs, vals, lo, hi = [], [], [], []
        for i, s in enumerate(suites):
            cell = table["suites"][s]["runs"][j]
            if cell is None:
                continue
            xs.append(i - 0.4 + w * (j + 0.5))
            vals.append(cell["value"])
            lo.append(cell["value"] - cell["ci"][0])
            hi.append(cell["ci"][1] - cell["value"])
        ax.bar(xs, vals, width=w * 0.9, color=colors[j % len(colors)], label=lab, yerr=[lo, hi], capsize=3, zorder=2)
        for x, v, up in zip(xs, vals, hi):  # above the interval's top, so the label never sits on the error bar
            ax.text(x, v + up + 1.0, f"{v:.1f}", ha="center", va="bottom", fontsize=7, color=_LINE if v <= 0 else "#222",
                    rotation=90 if k > 3 else 0)
    ax.set_xticks(range(len(suites)), [f"{s}\n(n={table['suites'][s]['cases']})" for s in suites], fontsize=8)
    ax.set_ylim(0, 112)
    ax.set_ylabel(f"{table['metric']} (0-100), {int(100 * table['confidence'])}% bootstrap CI")
    ax.set_title(f"runs side by side ({table['resamples']} bootstrap resamples, seed {table['seed']})", fontsize=10)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=min(3, k), fontsize=8, frameon=False)
    ax.grid(axis="y", alpha=0.3, zorder=0)
    ax.spines[["top", "right"]].set_visible(False)
    fig.tight_layout()
    return fig


def save(fig: Any, path: Path) -> Path:
    """Write ``fig`` as a PNG (100 dpi) and close it; returns ``path``."""
    plt = _plt()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def scores_plot(path: Path, summary: dict[str, Any], metric: str = "avg") -> Path:
    """:func:`scores_figure` written to ``path``."""
    return save(scores_figure(summary, metric), path)


def components_plot(path: Path, summary: dict[str, Any]) -> Path:
    """:func:`components_figure` written to ``path``."""
    return save(components_figure(summary), path)


def latency_plot(path: Path, records: list[dict[str, Any]], limit_s: float = 15.0) -> Path:
    """:func:`latency_figure` written to ``path``."""
    return save(latency_figure(records, limit_s), path)


def hsa_plot(path: Path, summary: dict[str, Any]) -> Path | None:
    """:func:`hsa_figure` written to ``path``; ``None`` (nothing written) when the run lacks either suite."""
    fig = hsa_figure(summary)
    return None if fig is None else save(fig, path)


def compare_plot(path: Path, table: dict[str, Any]) -> Path:
    """:func:`compare_figure` written to ``path``."""
    return save(compare_figure(table), path)
