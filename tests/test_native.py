"""The compiled HSA core (mypyc): it is used when built, gives the same variants as the pure-Python code to the
byte, and is never used once its sources change."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from hat_env import native

#: Prints which core ran and a fingerprint of seeded variants: both families, several dims and strengths, chained
#: variants, the validated path, and the random state left after each (so a different number of draws shows).
_FINGERPRINT = r"""
import hashlib, json, random, sys
from hat_env.harness.core import Harness
from hat_env.hsa import FAMILIES, augment
from hat_env.native import status
import hat_env.hsa.transforms.tools as tools
h = Harness.load("default")
acc = hashlib.sha256()
for fam in FAMILIES:
    for dims, s in (("all", 1.0), ("all", 0.5), ("all", 0.15), ("tool_schemas,constraints", 1.0),
                    ("skill_ids,skill_content", 0.7), ("prompt", 1.0)):
        rng = random.Random(f"native:{fam}:{dims}:{s}")
        for i in range(12):
            v, m = augment(h, rng, dims, s, fam, check=(i == 0))
            if i % 4 == 3:  # a variant of a variant
                v, m = augment(v, rng, dims, s, fam)
            acc.update(v.canonical_json.encode())
            acc.update(json.dumps([m.ops, m.tools, m.skills], sort_keys=True, ensure_ascii=False).encode())
            acc.update(repr(rng.getstate()[1][-3:]).encode())
print(json.dumps({"core": status().describe(), "tools_file": tools.__file__, "fingerprint": acc.hexdigest()}))
"""

#: Prints which core ran and where the tool-schema transform was loaded from.
_WHICH = r"""
import json
from hat_env.native import status
import hat_env.hsa.transforms.tools as tools
st = status()
print(json.dumps({"active": st.active, "reason": st.reason, "tools_file": tools.__file__}))
"""


def _env(changes: dict[str, str | None]) -> dict[str, str]:
    """This process's environment with ``changes`` (``None``: the variable removed)."""
    return {k: v for k, v in {**os.environ, **changes}.items() if v is not None}


def _run(script: str, env: dict[str, str | None], cwd: Path | None = None) -> tuple[dict, str]:
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=_env(env), cwd=cwd,
                         timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1]), out.stderr


def _require_build() -> None:
    if os.environ.get(native.PURE_ENV, "") not in ("", "0"):
        pytest.skip(f"{native.PURE_ENV} is set: this run tests the pure-Python code")
    st = native.status()
    assert st.active, f"the compiled HSA core is not in use: {st.reason}"


def test_hsa_runs_the_compiled_core() -> None:
    _require_build()
    import hat_env.harness.trusted as trusted
    import hat_env.hsa.transforms.tools as tools

    assert tools.__file__.endswith(native.EXT_SUFFIX) and trusted.__file__.endswith(native.EXT_SUFFIX)
    manifest = json.loads(native.MANIFEST.read_text())
    assert sorted(manifest["sources"]) == sorted(native.COMPILED)


def test_compiled_and_pure_python_variants_are_identical() -> None:
    _require_build()
    compiled, _ = _run(_FINGERPRINT, {native.PURE_ENV: None})
    pure, _ = _run(_FINGERPRINT, {native.PURE_ENV: "1"})
    assert compiled["core"] == "compiled (mypyc)" and compiled["tools_file"].endswith(native.EXT_SUFFIX)
    assert pure["core"].startswith("pure Python") and pure["tools_file"].endswith("tools.py")
    assert compiled["fingerprint"] == pure["fingerprint"]


def test_a_build_older_than_its_sources_is_not_used(tmp_path: Path) -> None:
    """A copy of the package with its build: used as is (the build moves with the package); once a compiled
    module's source changes, the copy warns, names the file and runs every compiled module as pure Python."""
    _require_build()
    copy = tmp_path / "hat_env"
    shutil.copytree(native.PACKAGE_DIR, copy, ignore=shutil.ignore_patterns("__pycache__"))
    env = {"PYTHONPATH": str(tmp_path), native.PURE_ENV: None}
    fresh, err = _run(_WHICH, env, cwd=tmp_path)
    assert fresh["active"] and fresh["tools_file"].startswith(str(copy)), (fresh, err)
    assert "NativeWarning" not in err
    src = copy / "hsa" / "transforms" / "tools.py"
    src.write_text(src.read_text() + "\n# an edit after the build\n")
    stale, err = _run(_WHICH, env, cwd=tmp_path)
    assert not stale["active"] and "hat_env/hsa/transforms/tools.py changed since the build" in stale["reason"]
    assert stale["tools_file"] == str(src)
    assert "NativeWarning" in err and "make native" in err


def test_the_build_is_used_only_when_it_matches() -> None:
    sources = {m: native.digest(f"source of {m}".encode()) for m in native.COMPILED}
    manifest = {"ext_suffix": ".so-x", "sources": dict(sources)}
    built = [*native.COMPILED, native.GROUP]
    assert native.evaluate(manifest, sources, built, ".so-x").active
    assert not native.evaluate(manifest, sources, built, ".so-x", pure=True).active
    no_build = native.evaluate(None, sources, [], ".so-x")
    assert not no_build.active and not no_build.stale and "make native" in no_build.reason
    other = native.evaluate(manifest, sources, built, ".so-y")
    assert not other.active and "another Python" in other.reason
    partial = native.evaluate(manifest, sources, built[1:], ".so-x")
    assert not partial.active and native.COMPILED[0] in partial.reason
    module = native.COMPILED[-1]
    edited = dict(sources, **{module: native.digest(b"edited")})
    stale = native.evaluate(manifest, edited, built, ".so-x")
    assert not stale.active and stale.stale and f"{native.source_path(module).name} changed since" in stale.reason


def test_cli_version_says_which_core_runs() -> None:
    _require_build()
    for env, expected in (({native.PURE_ENV: None}, "(HSA core: compiled (mypyc))"),
                          ({native.PURE_ENV: "1"}, "(HSA core: pure Python (HAT_ENV_PURE=1))")):
        out = subprocess.run([sys.executable, "-m", "hat_env.cli", "--version"], capture_output=True, text=True,
                             env=_env(env), check=True)
        assert out.stdout.strip().endswith(expected), out.stdout
