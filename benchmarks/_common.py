"""Shared helpers for benchmark scripts: machine facts and saving results under benchmarks/results/."""

from __future__ import annotations

import datetime as _dt
import json
import os
import platform
import sys
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parent / "results"


def machine() -> dict[str, Any]:
    """Facts about this machine that a figure depends on."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"cpu": cpu, "cores": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform()}


def save(name: str, figures: dict[str, Any]) -> Path:
    """Write ``figures`` with the date, machine and command to ``benchmarks/results/NAME-DATE.json``."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    now = _dt.datetime.now(_dt.timezone.utc)
    rec = {
        "benchmark": name,
        "date": now.isoformat(timespec="seconds"),
        "machine": machine(),
        "command": " ".join([Path(sys.executable).name] + sys.argv),
        "figures": figures,
    }
    path = RESULTS / f"{name}-{now:%Y-%m-%d}.json"
    path.write_text(json.dumps(rec, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    return path
