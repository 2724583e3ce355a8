"""The compiled HSA core: which modules are compiled with mypyc, and whether this process uses the build.

HSA's transforms, the harness patch operations and the trusted model builder (:data:`COMPILED`) are ordinary
typed Python. ``make native`` (``python -m hat_env.native_build``, part of ``make setup``) compiles them with
mypyc into C extensions next to their sources, about 1.8x faster end to end; the compiled and the pure-Python
code give byte-identical variants (the tests check it). Which one a process runs is decided once, when the first
compiled module is imported:

- the build is used when ``hat_env/_native/manifest.json`` exists, was built for this Python, and every source
  still has the SHA-256 recorded at build time;
- otherwise the ``.py`` sources run, whatever extension files lie beside them: a build older than its sources
  (an edit, a ``git checkout``) is never used. That case warns once (:class:`NativeWarning`) and names the file;
- ``HAT_ENV_PURE=1`` in the environment forces the pure-Python code.

The decision is all or nothing: compiled modules call each other directly, not through ``sys.modules``, so a
mix would run stale code. :func:`install` (called by ``import hat_env``) puts the finder that enforces it first
on ``sys.meta_path``. :func:`status` tells which code runs and why.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import sysconfig
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

#: The modules mypyc compiles, as one group (they call each other natively).
COMPILED: tuple[str, ...] = (
    "hat_env.harness.patch",
    "hat_env.harness.trusted",
    "hat_env.hsa.transforms._common",
    "hat_env.hsa.transforms.constraints",
    "hat_env.hsa.transforms.pipeline",
    "hat_env.hsa.transforms.prompt",
    "hat_env.hsa.transforms.skills",
    "hat_env.hsa.transforms.tool_setup",
    "hat_env.hsa.transforms.tools",
)
#: The group's shared library, a top-level module name for mypyc; its file lives in ``hat_env/_native/``.
GROUP = "hat_env_native__mypyc"
#: Set to ``1`` to run the pure-Python code even when a fresh build exists.
PURE_ENV = "HAT_ENV_PURE"

PACKAGE_DIR = Path(__file__).resolve().parent
NATIVE_DIR = PACKAGE_DIR / "_native"
MANIFEST = NATIVE_DIR / "manifest.json"
#: The file name suffix of extension modules for this interpreter (``.cpython-311-x86_64-linux-gnu.so``).
EXT_SUFFIX: str = sysconfig.get_config_var("EXT_SUFFIX") or importlib.machinery.EXTENSION_SUFFIXES[0]


class NativeWarning(UserWarning):
    """The compiled core exists but cannot be used (it is older than its sources): pure Python runs."""


@dataclass(frozen=True)
class NativeStatus:
    """Which code this process runs for :data:`COMPILED`.

    Attributes:
        active: ``True`` when the compiled build runs.
        reason: why not (empty when active): not built, ``HAT_ENV_PURE``, another Python, or a changed source.
        stale: the build exists but a source changed since (what :class:`NativeWarning` reports).
    """

    active: bool
    reason: str = ""
    stale: bool = False

    def describe(self) -> str:
        """One line for logs and benchmark output: ``compiled (mypyc)`` or ``pure Python (reason)``."""
        return "compiled (mypyc)" if self.active else f"pure Python ({self.reason})"


def source_path(module: str) -> Path:
    """The ``.py`` file of a module of this package (``hat_env.hsa.transforms.tools`` -> ``.../tools.py``)."""
    return PACKAGE_DIR.joinpath(*module.split(".")[1:]).with_suffix(".py")


def extension_path(module: str) -> Path:
    """Where the build puts a compiled module's extension file (beside its source)."""
    return source_path(module).with_suffix(EXT_SUFFIX)


def group_path() -> Path:
    """The group's shared library file."""
    return NATIVE_DIR / (GROUP + EXT_SUFFIX)


def digest(data: bytes) -> str:
    """The SHA-256 hex digest the manifest records for a source file's bytes."""
    return hashlib.sha256(data).hexdigest()


def source_digests() -> dict[str, str]:
    """Every compiled module's source digest now, by module name (what a build's manifest records)."""
    return {m: digest(source_path(m).read_bytes()) for m in COMPILED}


def evaluate(manifest: dict[str, Any] | None, digests: dict[str, str], built: Sequence[str],
             ext_suffix: str = EXT_SUFFIX, pure: bool = False) -> NativeStatus:
    """Decide whether a build may be used (the whole rule, without touching files).

    Args:
        manifest: the build's manifest (``None``: no build), ``{"ext_suffix": ..., "sources": {module: sha256}}``.
        digests: every compiled module's current source digest (:func:`source_digests`).
        built: the compiled modules whose extension file (and the group library, as ``GROUP``) exists.
        ext_suffix: this interpreter's extension suffix.
        pure: ``HAT_ENV_PURE`` is set.

    Returns:
        The :class:`NativeStatus`.
    """
    if pure:
        return NativeStatus(False, f"{PURE_ENV}=1")
    if manifest is None:
        return NativeStatus(False, "not built: run `make native`")
    if manifest.get("ext_suffix") != ext_suffix:
        return NativeStatus(False, f"built for another Python ({manifest.get('ext_suffix')}): run `make native`")
    recorded = manifest.get("sources") or {}
    for module in COMPILED:
        if module not in built or GROUP not in built:
            return NativeStatus(False, f"the build lacks {module}: run `make native`")
        if recorded.get(module) != digests[module]:
            rel = source_path(module).relative_to(PACKAGE_DIR.parent)
            return NativeStatus(False, f"{rel} changed since the build: run `make native`", stale=True)
    return NativeStatus(True)


def current(pure: bool = False) -> NativeStatus:
    """The build's status as the files on disk stand now (read afresh; no warning).

    Args:
        pure: ``HAT_ENV_PURE`` is set (the build is not used whatever its state).
    """
    manifest: Any = None
    if MANIFEST.is_file():
        try:
            manifest = json.loads(MANIFEST.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            manifest = None
    built = [m for m in COMPILED if extension_path(m).is_file()]
    if group_path().is_file():
        built.append(GROUP)
    return evaluate(manifest if isinstance(manifest, dict) else None, source_digests(), built, pure=pure)


_STATUS: NativeStatus | None = None


def status() -> NativeStatus:
    """Whether this process runs the compiled core (decided on the first call, then fixed for the process)."""
    global _STATUS
    if _STATUS is None:
        _STATUS = current(pure=os.environ.get(PURE_ENV, "") not in ("", "0"))
        if _STATUS.stale:
            warnings.warn(f"hat_env: the compiled HSA core is out of date ({_STATUS.reason}); running the "
                          "pure-Python code", NativeWarning, stacklevel=2)
    return _STATUS


class _Finder(importlib.abc.MetaPathFinder):
    """Meta-path finder: the group library from ``hat_env/_native/`` when the build is used; the ``.py``
    sources of the compiled modules when it is not (else the extension beside a source would win)."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> importlib.machinery.ModuleSpec | None:
        if name == GROUP:
            return importlib.util.spec_from_file_location(name, group_path()) if status().active else None
        if name in COMPILED and not status().active:
            return importlib.util.spec_from_file_location(name, source_path(name))
        return None  # the normal finders (the extension beside the source, when the build is used)


def install() -> None:
    """Put the finder first on ``sys.meta_path`` (once; cheap: nothing is read until a compiled module is
    imported)."""
    if not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.insert(0, _Finder())


__all__ = ["COMPILED", "GROUP", "MANIFEST", "NativeStatus", "NativeWarning", "current", "evaluate", "install",
           "source_digests", "status"]
