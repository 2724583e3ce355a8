"""``hat-env view`` on big inputs: build time, file size and load time in headless Chromium.

Inputs, made here with the reference agent: a 30-minute beauty_zh session (``hat-env run --duration 1800``) and
the whole 4,502-case bench (every suite). For each page: the build time of ``hat-env view`` in a fresh process
(imports and, with prompts, regenerating the suites included) beside a warm in-process build (modules loaded,
suites cached); the file size; the load time in Debian's chromium through Playwright, from navigation start to
the page's ``hat-view-ready`` performance mark (data parsed, first screen drawn), the median of ``--loads`` fresh
pages. The bench page is built with prompts (the default) and with ``--no-prompts``, side by side. Also: the time
one filter takes, timed in the page (bench: "score below 100"; session: "tool fault").

Targets: the session page under 2 s to load and under 5 MB.

    python benchmarks/view.py [--loads 5] [--duration 1800] [--screenshots docs]

``--screenshots DIR`` also writes ``view-session.png`` and ``view-bench.png`` (the README's pictures; this runs the
memorizer agent over the bench too, for the side-by-side report).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import save  # noqa: E402

TARGET_LOAD_S = 2.0
TARGET_MB = 5.0


def load_times(browser: Any, html: Path, loads: int) -> dict[str, float]:
    """Median and worst time (s) to the ``hat-view-ready`` mark over ``loads`` fresh pages; fails on any
    console error or request other than the page itself."""
    marks, walls = [], []
    url = html.resolve().as_uri()
    for _ in range(loads):
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        errors: list[str] = []
        other: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.route("**/*", lambda r: r.continue_() if r.request.url == url else (other.append(r.request.url), r.abort()))
        t0 = time.perf_counter()
        page.goto(url)
        page.wait_for_selector("body[data-ready='1']", timeout=120_000)
        walls.append(time.perf_counter() - t0)
        marks.append(page.evaluate("performance.getEntriesByName('hat-view-ready')[0].startTime") / 1000.0)
        if errors or other:
            raise SystemExit(f"{html}: console errors {errors[:3]} / requests {other[:3]}")
        page.close()
    return {"ready_s_median": round(statistics.median(marks), 3), "ready_s_max": round(max(marks), 3),
            "goto_to_ready_s_median": round(statistics.median(walls), 3)}


def filter_time(browser: Any, html: Path, select: str, value: str) -> float:
    """Seconds the page takes to apply one filter (``select`` set to ``value``: the list filtered, sorted and
    drawn, synchronously in the change handler), timed inside the page."""
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    page.goto(html.resolve().as_uri())
    page.wait_for_selector("body[data-ready='1']", timeout=120_000)
    ms = page.evaluate("([sel, v]) => { const s = document.querySelector(sel); s.value = v; const t = performance.now(); "
                       "s.dispatchEvent(new Event('change')); return performance.now() - t; }", [select, value])
    page.close()
    return round(ms / 1000.0, 4)


def cli_build(inputs: list[Path], html: Path, prompts: bool) -> float:
    """Wall seconds of ``hat-env view`` in a fresh process (imports and suite generation included)."""
    cmd = [sys.executable, "-m", "hat_env.cli", "view", *map(str, inputs), "--out", str(html)]
    t0 = time.perf_counter()
    subprocess.run(cmd + ([] if prompts else ["--no-prompts"]), check=True, capture_output=True)
    return round(time.perf_counter() - t0, 3)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--loads", type=int, default=5, help="fresh page loads per page (median reported)")
    ap.add_argument("--duration", type=float, default=1800.0, help="session length in room seconds")
    ap.add_argument("--chromium", default="/usr/bin/chromium", help="the chromium executable (Debian's)")
    ap.add_argument("--screenshots", default=None, help="also write view-session.png and view-bench.png here")
    args = ap.parse_args()

    from playwright.sync_api import sync_playwright

    from hat_env.agents import make_agent
    from hat_env.envs.session import LiveSession
    from hat_env.evaluation import report
    from hat_env.evaluation.metrics import summarize
    from hat_env.evaluation.runner import run_cases
    from hat_env.evaluation.suites import GENERATORS, load_suite
    from hat_env.runner import run_session
    from hat_env.view import build

    figures: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        trace = d / "beauty_zh-1800.jsonl"
        t0 = time.perf_counter()
        summ = run_session(LiveSession("beauty_zh", duration_s=args.duration, trace=trace), make_agent("reference"))
        print(f"session: {summ['requests']} requests, trace {trace.stat().st_size / 1e6:.2f} MB "
              f"({time.perf_counter() - t0:.1f} s to run)")
        bench = d / "bench-reference"
        t0 = time.perf_counter()
        cases = [c for sid in GENERATORS for c in load_suite(sid)]
        recs = run_cases(cases, make_agent("reference"), bench / "results.jsonl")
        summary = summarize(recs)
        summary["agent"] = "reference"
        report.write(bench, summary, recs, "reference")
        print(f"bench: {len(recs)} records, results {(bench / 'results.jsonl').stat().st_size / 1e6:.2f} MB "
              f"({time.perf_counter() - t0:.1f} s to run)")

        pages = {
            "session_30min": ([trace], True),
            "bench_4502": ([bench], True),
            "bench_4502_no_prompts": ([bench], False),
        }
        built: dict[str, Path] = {}
        for name, (inputs, prompts) in pages.items():
            html = d / f"{name}.html"
            cli_s = cli_build(inputs, html, prompts)
            res = build(inputs, d / f"{name}-again.html", prompts=prompts)  # warm: modules loaded, suites cached
            built[name] = html
            figures[name] = {"items": res["items"], "build_s_cli": cli_s, "build_s_in_process_warm": res["build_s"],
                             "mb": round(html.stat().st_size / 1e6, 3),
                             "input_mb": round(sum((p if p.is_file() else p / "results.jsonl").stat().st_size
                                                   for p in inputs) / 1e6, 3)}
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=args.chromium, args=["--no-sandbox"])
            try:
                for name, html in built.items():
                    figures[name].update(load_times(browser, html, args.loads))
                figures["bench_4502"]["filter_below100_s"] = filter_time(browser, built["bench_4502"], "#c-problem", "below100")
                figures["session_30min"]["filter_tool_fault_s"] = filter_time(browser, built["session_30min"], "#f-problem",
                                                                              "tool_fault")
                if args.screenshots:
                    mem = d / "bench-memorizer"
                    recs_m = run_cases(cases, make_agent("memorizer"), mem / "results.jsonl")
                    summary_m = summarize(recs_m)
                    summary_m["agent"] = "memorizer"
                    report.write(mem, summary_m, recs_m, "memorizer")
                    pair = d / "bench_pair.html"
                    build([bench, mem], pair)
                    shots(browser, built["session_30min"], pair, Path(args.screenshots))
            finally:
                browser.close()
    s = figures["session_30min"]
    figures["ratios"] = {
        "session_load_vs_2s_target": round(s["ready_s_median"] / TARGET_LOAD_S, 3),
        "session_size_vs_5mb_target": round(s["mb"] / TARGET_MB, 3),
        "session_html_vs_trace_size": round(s["mb"] / s["input_mb"], 3),
        "bench_build_prompts_vs_none": round(figures["bench_4502"]["build_s_cli"]
                                             / figures["bench_4502_no_prompts"]["build_s_cli"], 2),
        "bench_size_prompts_vs_none": round(figures["bench_4502"]["mb"] / figures["bench_4502_no_prompts"]["mb"], 2),
        "bench_load_prompts_vs_none": round(figures["bench_4502"]["ready_s_median"]
                                            / figures["bench_4502_no_prompts"]["ready_s_median"], 2),
    }
    print(f"{'page':24} {'items':>6} {'build s (CLI)':>13} {'warm':>6} {'MB':>6} {'ready s (median)':>17} {'ready s (max)':>14}")
    for name in pages:
        f = figures[name]
        print(f"{name:24} {f['items']:6d} {f['build_s_cli']:13.2f} {f['build_s_in_process_warm']:6.2f} {f['mb']:6.2f} "
              f"{f['ready_s_median']:17.3f} {f['ready_s_max']:14.3f}")
    print(f"one filter: bench 'score below 100' {figures['bench_4502']['filter_below100_s']} s, "
          f"session 'tool fault' {figures['session_30min']['filter_tool_fault_s']} s")
    ok = s["ready_s_median"] < TARGET_LOAD_S and s["mb"] < TARGET_MB
    print(f"session target (< {TARGET_LOAD_S} s, < {TARGET_MB} MB): {'met' if ok else 'MISSED'}; ratios {figures['ratios']}")
    figures["session_target_met"] = ok
    print(f"saved {save('view', figures)}")


def shots(browser: Any, session_html: Path, bench_html: Path, out: Path) -> None:
    """The README's screenshots: a session with a request that had a tool fault selected, and the bench report of
    the reference agent beside the memorizer (which breaks under harness variants)."""
    out.mkdir(parents=True, exist_ok=True)
    page = browser.new_page(viewport={"width": 1360, "height": 860})
    page.goto(session_html.resolve().as_uri())
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#f-problem", "tool_fault")
    page.click("#list .row.k-req >> nth=1")
    page.select_option("#f-problem", "")
    page.screenshot(path=str(out / "view-session.png"))
    page.close()
    page = browser.new_page(viewport={"width": 1360, "height": 860})
    page.goto(bench_html.resolve().as_uri())
    page.wait_for_selector("body[data-ready='1']")
    page.screenshot(path=str(out / "view-bench.png"))
    page.close()
    print(f"screenshots: {out / 'view-session.png'}, {out / 'view-bench.png'}")


if __name__ == "__main__":
    main()
