"""What ships with ``hat_env.train`` beside the code: stage configs found by name, accelerate configs and the
training harness packs, in the package's ``configs/`` folder (so an installed package finds them too).

- ``hat-env train sft --config sft-smoke``: a ``--config`` that is not a file is looked up by name here;
- ``hat-env train --list-configs``: every stage config (name, stage, what it is), the accelerate configs and
  the harness packs, with their paths;
- ``harness: compact`` in a data source or the RL tasks: a pack from ``configs/harnesses/``.

Nothing here imports a heavy library.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

#: The folder of shipped configs (``train/configs`` in a checkout, ``hat_env/train/configs`` installed).
CONFIG_DIR = Path(__file__).resolve().parent / "configs"


def _summary(path: Path) -> str:
    """The first sentence of a YAML file's leading comment."""
    words: list[str] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("#") or line.startswith("#  "):  # a command line ends the prose
            break
        words += line.lstrip("#").split()
        text = " ".join(words)
        m = re.search(r"\.(\s|$)", text)
        if m:
            return text[: m.start() + 1]
    return " ".join(words)


def list_configs() -> list[dict[str, Any]]:
    """The shipped stage configs, sorted by name: ``{"name", "stage", "path", "summary"}``."""
    from hat_env.yamlio import load_yaml

    out = []
    for p in sorted(CONFIG_DIR.glob("*.yaml")):
        data, _lines = load_yaml(p)
        stage = data.get("stage") if isinstance(data, dict) else None
        out.append({"name": p.stem, "stage": stage, "path": str(p), "summary": _summary(p)})
    return out


def accelerate_configs() -> list[dict[str, str]]:
    """The shipped ``accelerate launch --config_file`` files: ``{"name", "path", "summary"}``."""
    return [{"name": p.stem, "path": str(p), "summary": _summary(p)}
            for p in sorted((CONFIG_DIR / "accelerate").glob("*.yaml"))]


def harness_packs() -> list[dict[str, str]]:
    """The harness packs shipped for training runs: ``{"name", "path"}``."""
    return [{"name": d.name, "path": str(d)} for d in sorted((CONFIG_DIR / "harnesses").iterdir())
            if (d / "harness.yaml").is_file()]


def find_config(name_or_path: str | Path) -> Path:
    """A stage config: ``name_or_path`` itself when it is a file, else the shipped config of that name (with or
    without ``.yaml``).

    Raises:
        FileNotFoundError: neither; the message lists the shipped names.
    """
    p = Path(name_or_path)
    if p.is_file():
        return p
    stem = p.name[:-5] if p.name.endswith(".yaml") else p.name
    if p.parent == Path(".") or str(p.parent) == "":
        cand = CONFIG_DIR / f"{stem}.yaml"
        if cand.is_file():
            return cand
    names = ", ".join(c["name"] for c in list_configs())
    raise FileNotFoundError(f"{name_or_path}: no such config file, and no shipped config of that name "
                            f"(shipped: {names}; `hat-env train --list-configs`)")


def harness_path(name: str | None) -> str | None:
    """Resolve a training config's ``harness``: an existing folder stays as given; a name of a pack shipped here
    (``compact``) becomes its folder; anything else (a built-in pack name such as ``default``) is passed on."""
    if name is None or Path(name).is_dir():
        return name
    cand = CONFIG_DIR / "harnesses" / name
    return str(cand) if (cand / "harness.yaml").is_file() else name
