"""Rule packs on disk: where the built-in ones live, how a name or path resolves (confined for scenarios), and the
loading and compiling of a pack (cached per file mtime).

Split out of :mod:`hat_env.sim.compliance`; the names stay importable from there.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from pathlib import Path

from hat_env.confine import confine
from hat_env.sim.rule_compiled import Rule, compile_negation
from hat_env.sim.rule_spec import RulePack
from hat_env.yamlio import FileError, load_yaml, validate


def rules_dir() -> Path:
    """The folder of built-in rule packs (``scenarios/rules``, shipped as ``hat_env.scenarios`` package data)."""
    try:
        return Path(str(resources.files("hat_env.scenarios"))) / "rules"
    except ModuleNotFoundError:  # running from a source checkout that is not installed
        return Path(__file__).resolve().parents[2] / "scenarios" / "rules"


def builtin_rule_packs() -> list[str]:
    """Names of the built-in rule packs, sorted."""
    return sorted(p.stem for p in rules_dir().glob("*.yaml"))


def resolve_rule_pack_path(
    name_or_path: str | Path, base_dir: str | Path | None = None, roots: tuple[Path, ...] = ()
) -> Path:
    """Turn a built-in pack name or a file path into a path.

    Args:
        name_or_path: a built-in pack name (``default``) or a path (it ends in ``.yaml``/``.yml`` or has a ``/``).
        base_dir: the folder of the scenario that names the pack. A relative path is resolved against it, and the
            path must resolve inside it, the built-in packs or ``roots`` (see :mod:`hat_env.confine`). ``None``:
            the path is the caller's own and is used as written.
        roots: further folders a scenario's pack path may lead into.

    Raises:
        FileError: neither a built-in pack nor an existing file.
        PathRefused: the path leads outside the folders a scenario may use.
    """
    s = str(name_or_path)
    p = Path(s)
    if p.suffix in (".yaml", ".yml") or "/" in s or "\\" in s:
        if not p.is_absolute() and base_dir is not None:
            p = Path(base_dir) / p
        if base_dir is not None:
            confine(p, [Path(base_dir), rules_dir(), *roots], f"rule pack {s!r}")
        if not p.is_file():
            raise FileError(p, [("", None, "no such rule pack file")])
        return p
    cand = rules_dir() / f"{s}.yaml"
    if cand.exists():
        return cand
    raise FileError(s, [("", None, f"unknown rule pack; built-in ones are: {', '.join(builtin_rule_packs())}")])


@lru_cache(maxsize=64)
def _load_pack_cached(path: str, mtime: float) -> tuple[RulePack, tuple[Rule, ...]]:
    data, lines = load_yaml(path)
    if not isinstance(data, dict):
        raise FileError(path, [("", 1, "a rule pack must be a YAML mapping")])
    pack = validate(RulePack, data, path, lines)
    negation = compile_negation(pack.negation, pack.lexicon)
    return pack, tuple(Rule(r, negation) for r in pack.rules)


def load_rule_pack(name_or_path: str | Path, base_dir: str | Path | None = None) -> RulePack:
    """Load and validate a rule pack by built-in name (``"default"``) or path (cached per file mtime).

    Args:
        name_or_path: a built-in pack name or a ``.yaml`` path.
        base_dir: folder that relative paths are resolved against (a scenario's folder).

    Returns:
        The validated :class:`RulePack` (its regexes are known to compile).

    Raises:
        FileError: naming the file, field path and line of every problem (unknown field, bad regex, ...).
    """
    return _compiled_pack(name_or_path, base_dir)[0]


def _compiled_pack(name_or_path: str | Path, base_dir: str | Path | None = None) -> tuple[RulePack, tuple[Rule, ...]]:
    p = resolve_rule_pack_path(name_or_path, base_dir).resolve()
    try:
        mtime = p.stat().st_mtime
    except OSError as exc:
        raise FileError(p, [("", None, f"cannot read file: {exc.strerror or exc}")]) from None
    return _load_pack_cached(str(p), mtime)
