"""Compile the HSA core (:data:`hat_env.native.COMPILED`) with mypyc, in place, for a source checkout.

    python -m hat_env.native_build [--force] [--jobs N]

``make native`` (and so ``make setup``, ``make test``) runs this. It needs mypy (the ``native`` extra) and a C
compiler (Debian: ``apt-get install gcc``); it takes a minute or two, and does nothing when the build is already
up to date. Without a build hat_env runs the same code as pure Python (see :mod:`hat_env.native`).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from pathlib import Path

from hat_env import native

#: mypy options: check only the compiled modules (their imports are read, not reported on).
_MYPY_FLAGS = ("--follow-imports=silent", "--ignore-missing-imports")


def _checkout_root() -> Path:
    """The source checkout holding this package (the build writes beside the sources)."""
    root = native.PACKAGE_DIR.parent
    if not (root / "setup.cfg").is_file():
        raise SystemExit(f"hat_env.native_build: {native.PACKAGE_DIR} is not in a source checkout (no "
                         f"{root / 'setup.cfg'}); build from a clone with `make native`")
    return root


def _current_manifest() -> dict[str, object]:
    """What the manifest of a build of the current sources holds."""
    import mypy.version

    return {
        "ext_suffix": native.EXT_SUFFIX,
        "python": sys.version.split()[0],
        "mypy": mypy.version.__version__,
        "sources": native.source_digests(),
    }


def up_to_date() -> bool:
    """Whether the build on disk matches the current sources and this Python."""
    return native.current().active


def clean() -> None:
    """Remove the build's files (the extension beside each source, the group library, the manifest)."""
    for m in native.COMPILED:
        native.extension_path(m).unlink(missing_ok=True)
    shutil.rmtree(native.NATIVE_DIR, ignore_errors=True)


def build(jobs: int | None = None) -> Path:
    """Compile :data:`hat_env.native.COMPILED` with mypyc, in place, and write the manifest.

    Args:
        jobs: parallel C compiler processes (default: the CPU count).

    Returns:
        The manifest's path.

    Raises:
        SystemExit: mypy is missing, the modules do not type-check, or the C compiler failed (the old build,
            if any, is removed first, so the pure-Python code runs).
    """
    root = _checkout_root()
    try:
        from mypyc.build import mypycify
        from setuptools import Distribution
    except ImportError as e:
        raise SystemExit(f"hat_env.native_build: {e.name} is missing: pip install -e '.[native]'") from None
    clean()
    manifest = _current_manifest()  # the sources as compiled (hashed before, so an edit during the build shows)
    paths = [str(native.source_path(m).relative_to(root)) for m in native.COMPILED]
    cwd = os.getcwd()
    os.chdir(root)
    try:
        exts = mypycify([*_MYPY_FLAGS, *paths], opt_level="3", group_name=native.GROUP.removesuffix("__mypyc"),
                        target_dir="build/mypyc", multi_file=True)
        dist = Distribution({"name": "hat-env-native", "ext_modules": exts})
        dist.verbose = 0
        cmd = dist.get_command_obj("build_ext")
        cmd.inplace = True
        cmd.parallel = jobs or os.cpu_count() or 1
        cmd.build_temp = "build/mypyc-obj"
        dist.run_command("build_ext")
    except SystemExit as e:  # mypyc exits on type errors, setuptools on compiler errors
        clean()
        raise SystemExit(f"hat_env.native_build: compiling failed ({e}); hat_env will run the pure-Python code")
    except Exception as e:
        clean()
        raise SystemExit(f"hat_env.native_build: compiling failed: {type(e).__name__}: {e}; hat_env will run "
                         "the pure-Python code") from e
    finally:
        os.chdir(cwd)
    native.NATIVE_DIR.mkdir(exist_ok=True)
    lib = root / (native.GROUP + native.EXT_SUFFIX)  # build_ext --inplace puts a top-level module at the root
    shutil.move(str(lib), native.group_path())
    missing = [m for m in native.COMPILED if not native.extension_path(m).is_file()]
    if missing:
        clean()
        raise SystemExit(f"hat_env.native_build: the build produced no extension for {missing}")
    manifest["built_at"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    manifest["group_sha256"] = native.digest(native.group_path().read_bytes())
    native.MANIFEST.write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return native.MANIFEST


def main(argv: list[str] | None = None) -> None:
    """Command line: build unless up to date."""
    ap = argparse.ArgumentParser(prog="python -m hat_env.native_build", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--force", action="store_true", help="rebuild even when the build is up to date")
    ap.add_argument("--clean", action="store_true", help="remove the build (hat_env then runs pure Python)")
    ap.add_argument("--jobs", type=int, default=None, help="parallel C compiler processes (default: CPU count)")
    args = ap.parse_args(argv)
    if args.clean:
        clean()
        print("hat_env native core: removed; hat_env runs the pure-Python code")
        return
    if not args.force and up_to_date():
        print("hat_env native core: up to date")
        return
    t = time.monotonic()
    print(f"hat_env native core: compiling {len(native.COMPILED)} modules with mypyc ...", flush=True)
    build(args.jobs)
    print(f"hat_env native core: built in {time.monotonic() - t:.0f} s ({native.MANIFEST})", flush=True)
    sys.stderr.flush()
    os._exit(0)  # as mypy's own command line does: tearing down its in-memory build takes about 45 s


if __name__ == "__main__":
    main()
