"""Where a path written in a data file may lead: scenario references and harness packs are confined.

A scenario names its harness pack (``harness:``) and its rule packs (``compliance.packs``). Those names are data:
a path among them must resolve (symlinks followed) inside

- the scenario's own folder,
- the built-in packs shipped with hat-env, or
- a root the user names explicitly: ``--allow-root DIR`` on the command line (``hat-env run``, ``validate``),
  ``roots=[...]`` in the API (:func:`hat_env.sim.scenario.load_scenario`), or the :data:`ENV_VAR` environment
  variable (folders separated by ``os.pathsep``, e.g. ``HAT_ENV_ALLOW_ROOTS=/data/packs:/srv/rules``).

Anything else (an absolute path elsewhere, a ``..`` that climbs out, a symlink pointing out) is refused with the
reason. A harness pack is confined to its own folder the same way: ``harness.yaml`` and every
``skills/NAME/SKILL.md`` must resolve inside it, so a skill folder that is a symlink to elsewhere is refused.

Paths the user passes directly (``--harness DIR``, ``Harness.load(DIR)``, ``load_rule_pack(PATH)``) are the
user's own choice and are not confined; only the files inside a pack are.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable

#: Environment variable naming extra folders (``os.pathsep``-separated) that scenario paths may lead into.
ENV_VAR = "HAT_ENV_ALLOW_ROOTS"


class PathRefused(ValueError):
    """A path written in a data file leads outside the folders it may use; the message says where and why.

    Attributes:
        path: the offending file or folder as written (``None`` when the message is all there is).
    """

    def __init__(self, message: str, path: Path | None = None):
        super().__init__(message)
        self.path = path


def allowed_roots(roots: Iterable[str | Path] | None = None) -> tuple[Path, ...]:
    """The extra folders scenario paths may lead into: ``roots`` plus those named in :data:`ENV_VAR`.

    Args:
        roots: folders the caller names (``--allow-root``, ``roots=``); ``None`` for none.

    Returns:
        Each folder resolved to an absolute real path, duplicates removed, in order.
    """
    out: dict[Path, None] = {}
    env = [x for x in os.environ.get(ENV_VAR, "").split(os.pathsep) if x.strip()]
    for r in [*(roots or ()), *env]:
        out.setdefault(Path(r).expanduser().resolve(), None)
    return tuple(out)


def is_within(path: Path, root: Path) -> bool:
    """Whether ``path`` (resolved, symlinks followed) is ``root`` or lies below it (``root`` is resolved too)."""
    try:
        path.resolve().relative_to(root.resolve())
    except ValueError:
        return False
    return True


def confine(candidate: Path, permitted: Iterable[Path], what: str) -> Path:
    """Check that ``candidate`` resolves inside one of the ``permitted`` folders.

    Args:
        candidate: the path as the data file wrote it, joined to the folder it is relative to.
        permitted: the folders it may lead into.
        what: what the path is, for the message (``"harness pack 'packs/x'"``).

    Returns:
        ``candidate`` unchanged (not resolved, so messages and hashes keep the written form).

    Raises:
        PathRefused: it resolves elsewhere; the message names the real target and the permitted folders.
    """
    allowed = [Path(p) for p in permitted]
    if any(is_within(candidate, root) for root in allowed):
        return candidate
    shown = ", ".join(str(p.resolve()) for p in allowed)
    raise PathRefused(
        f"{what} resolves to {candidate.resolve()}, outside the folders a scenario may use ({shown}); "
        f"absolute paths, '..' and symlinks may not leave them: name another folder with --allow-root DIR, "
        f"roots=[DIR] or {ENV_VAR}"
    )


def is_plain_name(ref: str) -> bool:
    """Whether ``ref`` is a bare name (``default``), not a path: no separator, not ``.``/``..``, not absolute."""
    return bool(ref) and "/" not in ref and "\\" not in ref and ref not in (".", "..") and not Path(ref).is_absolute()


def pack_files(root: Path, files: Iterable[Path]) -> list[Path]:
    """Check that every file of a pack resolves inside the pack folder ``root``.

    Args:
        root: the pack folder.
        files: the files the pack is read from (``harness.yaml``, ``skills/*/SKILL.md``).

    Returns:
        The files, in order.

    Raises:
        PathRefused: a file (or a folder on its way, such as a symlinked skill folder) leads outside ``root``.
    """
    out = []
    real_root = root.resolve()
    for f in files:
        if not is_within(f, real_root):
            rel = f.relative_to(root) if f.is_relative_to(root) else f
            raise PathRefused(f"{rel} resolves to {f.resolve()}, outside the pack folder {real_root}: "
                              "a pack may not link to files outside its folder", path=f)
        out.append(f)
    return out
