"""Shared helpers for benchmark scripts: machine facts and saving results under benchmarks/results/."""

from __future__ import annotations

import datetime as _dt
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    import argparse

RESULTS = Path(__file__).resolve().parent / "results"


def save(name: str, figures: dict[str, Any], label: str | None = None) -> Path:
    """Write ``figures`` with the date, machine and command to ``benchmarks/results/NAME-DATE.json``
    (``NAME-DATE-LABEL.json`` with a ``label``, beside that day's other runs); returns the path."""
    from hat_env.evaluation.provenance import machine  # the facts a bench run records; imported late: a script
    # may put another revision's tree first on sys.path before it imports hat_env

    RESULTS.mkdir(parents=True, exist_ok=True)
    now = _dt.datetime.now(_dt.timezone.utc)
    rec = {
        "benchmark": name,
        "date": now.isoformat(timespec="seconds"),
        "machine": machine(),
        "command": " ".join([Path(sys.executable).name] + sys.argv),
        "figures": figures,
    }
    path = RESULTS / f"{name}-{now:%Y-%m-%d}{'-' + label if label else ''}.json"
    path.write_text(json.dumps(rec, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    return path


#: Python source that a side-by-side probe runs first: it puts the tree given as ``sys.argv[1]`` first on
#: ``sys.path`` and imports the packages setup.cfg maps from other folders (``hat_env.scenarios`` from
#: scenarios/, ``hat_env.agents`` from agents/, ``hat_env.train`` from train/) from that tree too, not from the
#: editable install of the working tree.
TREE_PRELUDE = """
import importlib.util, sys
from pathlib import Path
sys.path.insert(0, sys.argv[1])
import hat_env
assert hat_env.__file__.startswith(sys.argv[1]), hat_env.__file__
for _name, _folder in (("hat_env.scenarios", "scenarios"), ("hat_env.agents", "agents"), ("hat_env.train", "train")):
    _root = Path(sys.argv[1]) / _folder
    if (_root / "__init__.py").exists():
        _spec = importlib.util.spec_from_file_location(_name, _root / "__init__.py",
                                                       submodule_search_locations=[str(_root)])
        _mod = importlib.util.module_from_spec(_spec)
        sys.modules[_name] = _mod
        _spec.loader.exec_module(_mod)
"""


def export_tree(rev: str, dest: Path, installed_layout: bool = False) -> Path:
    """Export the tracked files of git revision ``rev`` of this repository to ``dest/tree`` and return that folder
    (run it with :data:`TREE_PRELUDE`, which imports its package_dir folders from it).

    Args:
        rev: a git revision (``main``, a commit).
        dest: an empty folder; the archive and ``tree/`` go in it.
        installed_layout: move setup.cfg's ``package_dir`` folders (``agents/``, ``train/``, ``scenarios/``) inside
            ``hat_env/`` as an installed package has them, so plain ``sys.path`` imports find the revision's own
            agents and scenarios (then :data:`TREE_PRELUDE` is not needed).

    Returns:
        ``dest / "tree"``.
    """
    import configparser
    import shutil
    import subprocess
    import tarfile

    root = Path(__file__).resolve().parent.parent
    archive = dest / "rev.tar"
    subprocess.run(["git", "archive", "--format=tar", "-o", str(archive), rev], cwd=root, check=True)
    tree = dest / "tree"
    tree.mkdir()
    with tarfile.open(archive) as tar:
        tar.extractall(tree, filter="data")
    if installed_layout:
        cfg = configparser.ConfigParser()
        cfg.read(tree / "setup.cfg")
        for line in cfg.get("options", "package_dir", fallback="").strip().splitlines():
            name, _, folder = (x.strip() for x in line.partition("="))
            if name.startswith("hat_env.") and folder and (tree / folder).is_dir():
                shutil.move(str(tree / folder), str(tree / "hat_env" / name.split(".", 1)[1]))
    return tree


def add_versus_args(ap: "argparse.ArgumentParser") -> None:
    """Add the options of a side-by-side benchmark against the merge base: ``--rev`` (default: merge base of HEAD
    and main, see :func:`merge_base`) and ``--rounds`` (default 3)."""
    ap.add_argument("--rev", default=None, help="git revision to compare with (default: merge base of HEAD and main)")
    ap.add_argument("--rounds", type=int, default=3, help="rounds, each running both versions once (default 3)")


def merge_base() -> str:
    """The commit where HEAD left main (the revision a side-by-side benchmark compares with by default)."""
    import subprocess

    root = Path(__file__).resolve().parent.parent
    return subprocess.run(["git", "merge-base", "HEAD", "main"], cwd=root, check=True, capture_output=True,
                          text=True).stdout.strip()


def versus_rounds(rev: str, rounds: int, probe: "Callable[[Path], dict[str, float]]",
                  say: "Callable[[int, str, dict[str, float]], str]") -> dict[str, list[dict[str, float]]]:
    """Run ``probe(tree)`` on the exported tree of revision ``rev`` and on this working tree, one after the other,
    ``rounds`` times, printing ``say(round, label, figures)`` after each probe (rounds count from 1).

    Returns:
        ``{"rev": [figures of each round], "working_tree": [...]}``.
    """
    import tempfile

    root = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory() as tmp:
        export_tree(rev, Path(tmp))
        trees = {"rev": Path(tmp) / "tree", "working_tree": root}
        runs: dict[str, list[dict[str, float]]] = {k: [] for k in trees}
        for r in range(rounds):
            for label, tree in trees.items():
                got = probe(tree)
                runs[label].append(got)
                print(say(r + 1, label, got))
    return runs
