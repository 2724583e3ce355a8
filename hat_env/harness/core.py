"""The :class:`Harness`: an immutable, hashed harness state, loaded from a pack folder or built from a spec.

It knows its tools (OpenAI format for the model; bindings to canonical operations for the runtime), its skills,
constraints and hooks. ``apply(patch)`` gives the next harness; ``parse`` reads model output; argument and
result codecs translate between the harness's encoding and the backend's canonical one.
"""

from __future__ import annotations

import hashlib
import json
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import Any

from referencing.exceptions import Unresolvable

from hat_env.harness.fallback import fallback_problems
from hat_env.harness.parse import parse_output
from hat_env.harness.schema import make_validator
from hat_env.harness.schema import problems as schema_problems
from hat_env.harness.skills import skill_metadata_problems
from hat_env.harness.spec import HarnessSpec, SkillSpec, ToolSpec
from hat_env.types import ParsedOutput
from hat_env.yamlio import FileError, FileErrors, line_of, load_yaml, validate


_LOAD_CACHE: dict[tuple, "Harness"] = {}


class ArgError(ValueError):
    """A tool call's arguments do not fit the tool (the message is fed back to the model)."""


def harnesses_dir() -> Path:
    """The folder of built-in harness packs."""
    return Path(str(resources.files("hat_env.scenarios"))) / "harnesses"


def _get_path(obj: dict[str, Any], path: str) -> tuple[bool, Any]:
    cur: Any = obj
    for part in path.split("."):
        if not isinstance(cur, dict) or part not in cur:
            return False, None
        cur = cur[part]
    return True, cur


def _set_path(obj: dict[str, Any], path: str, value: Any) -> None:
    parts = path.split(".")
    cur = obj
    for part in parts[:-1]:
        cur = cur.setdefault(part, {})
    cur[parts[-1]] = value


def _schema_has_path(schema: dict[str, Any], path: str) -> bool:
    cur = schema
    for part in path.split("."):
        props = cur.get("properties") if isinstance(cur, dict) else None
        if not isinstance(props, dict) or part not in props:
            return False
        cur = props[part]
    return True


class Harness:
    """An immutable harness state.

    Args:
        spec: the validated :class:`HarnessSpec`.
        source: where it came from (a pack folder), for messages.
        check: run the semantic checks (JSON Schemas valid, bindings complete, hooks known). Transforms that
            start from a checked harness and preserve validity (HSA) may pass ``False`` for speed.

    Raises:
        FileError: a semantic check failed (with the field path; the line when ``lines`` are known).
    """

    __slots__ = ("spec", "source", "tools_by_name", "skills_by_name", "tool_for_op", "__dict__")

    def __init__(self, spec: HarnessSpec, source: str = "", check: bool = True, lines: dict | None = None):
        self.spec = spec
        self.source = source
        self.tools_by_name: dict[str, ToolSpec] = {t.name: t for t in spec.tools}
        self.skills_by_name: dict[str, SkillSpec] = {s.name: s for s in spec.skills}
        self.tool_for_op: dict[str, ToolSpec] = {}
        for t in spec.tools:
            if t.op is not None:
                self.tool_for_op.setdefault(t.op, t)
        if check:
            problems = self.problems()
            if problems:
                lines = lines or {}
                raise FileError(
                    source or spec.name,
                    [(".".join(map(str, loc)), line_of(lines, loc) if lines else None, msg) for loc, msg in problems],
                )

    # -- construction --------------------------------------------------------------------------------------
    @classmethod
    def from_dict(cls, data: dict[str, Any], source: str = "<dict>", check: bool = True) -> "Harness":
        """Build from a plain dict (the ``harness.yaml`` layout with inline ``skills``)."""
        return cls(validate(HarnessSpec, data, source, {}), source=source, check=check)

    @classmethod
    def load(cls, name_or_path: str | Path) -> "Harness":
        """Load a harness pack by built-in name (``default``) or folder path.

        Harnesses are immutable, so a pack is read once and cached until one of its files changes.

        Raises:
            FileError: naming the file (``harness.yaml`` or a ``SKILL.md``), field path, line and reason.
        """
        p = cls._resolve(name_or_path)
        files = [p / "harness.yaml", *sorted((p / "skills").glob("*/SKILL.md"))]
        try:  # what each path leads to (inode, mtime): a file swapped for a link elsewhere is a miss, and checked
            key = (str(p.resolve()), tuple((str(f), st.st_ino, st.st_mtime_ns) for f in files if (st := f.stat())))
        except OSError as exc:
            raise FileError(p, [("", None, f"cannot read the pack: {exc}")]) from None
        hit = _LOAD_CACHE.get(key)
        if hit is None:
            hit = _LOAD_CACHE[key] = cls._load_uncached(p)
        return hit

    @staticmethod
    def _resolve(name_or_path: str | Path) -> Path:
        p = Path(name_or_path)
        if not (p / "harness.yaml").exists():
            cand = harnesses_dir() / str(name_or_path)
            if not (cand / "harness.yaml").exists():
                known = sorted(d.name for d in harnesses_dir().iterdir() if (d / "harness.yaml").exists())
                raise FileError(str(name_or_path), [("harness", None, f"no harness pack here; built-in: {known}")])
            p = cand
        return p

    @staticmethod
    def _pack_files(p: Path) -> list[Path]:
        """The pack's files (``harness.yaml``, then the ``SKILL.md`` files by folder), each checked to resolve
        inside the pack folder (no symlink may leave the pack; see :mod:`hat_env.confine`)."""
        from hat_env.confine import PathRefused, pack_files

        files = [p / "harness.yaml", *sorted((p / "skills").glob("*/SKILL.md"))]
        try:
            return pack_files(p, files)
        except PathRefused as exc:
            raise FileError(exc.path or p, [("", None, str(exc))]) from None

    @classmethod
    def _load_uncached(cls, p: Path) -> "Harness":
        from hat_env.harness.skills import read_skill_md

        yml = p / "harness.yaml"
        data, lines = load_yaml(yml)
        if not isinstance(data, dict):
            raise FileError(yml, [("", 1, "harness.yaml must be a YAML mapping")])
        # every file is checked, each against its own lines, and all their problems are reported together:
        # first what each file holds (SKILL.md files, then harness.yaml), then how the parts fit
        errors: list[FileError] = []
        files, read = [], []
        for f in cls._pack_files(p)[1:]:
            try:
                read.append(read_skill_md(f))
                files.append(f)
            except FileError as exc:
                errors.append(exc)
        data = dict(data)
        raw = data.get("skills")
        inline = list(raw or []) if raw is None or isinstance(raw, list) else raw  # not a list: validation says so
        if isinstance(inline, list):
            data["skills"] = inline + [d for d, _ in read]
        try:
            spec = validate(HarnessSpec, data, yml, lines)
        except FileError as exc:
            errors.append(exc)
        if errors:
            raise errors[0] if len(errors) == 1 else FileErrors(errors)
        h = cls(spec, source=str(yml), check=False)
        problems = h.problems() + fallback_problems(spec)  # a pack's fallback keeps its reply constraints
        if problems:  # a problem of a skill read from a SKILL.md is that file's, at its line
            n = len(inline) if isinstance(inline, list) else 0
            by_file: dict[str, list[tuple[str, int | None, str]]] = {}
            for loc, msg in problems:
                k = loc[1] - n if loc[:1] == ("skills",) and isinstance(loc[1], int) and loc[1] >= n else None
                if k is None:
                    by_file.setdefault(str(yml), []).append((".".join(map(str, loc)), line_of(lines, loc), msg))
                else:
                    sub = loc[2:]
                    by_file.setdefault(str(files[k]), []).append(
                        (".".join(map(str, sub)) or "<root>", line_of(read[k][1], sub), msg))
            errors = [FileError(path, probs) for path, probs in by_file.items()]
            raise errors[0] if len(errors) == 1 else FileErrors(errors)
        return h

    # -- checks --------------------------------------------------------------------------------------------
    def problems(self) -> list[tuple[tuple, str]]:
        """Semantic problems as ``(field path, reason)``; empty when the harness is usable."""
        from hat_env.harness.hooks import CHECKS
        from hat_env.sim.tools import OPS

        out: list[tuple[tuple, str]] = []
        spec = self.spec
        seen: set[str] = set()
        for i, t in enumerate(spec.tools):
            loc = ("tools", i)
            if t.name in seen or t.name == spec.skill_tool.name:
                out.append((loc + ("name",), f"duplicate tool name {t.name!r}"))
            seen.add(t.name)
            bad = schema_problems(t.parameters)  # valid, RE2 patterns, local resolvable $refs (harness/schema.py)
            if bad:
                out.extend((loc + ("parameters", *where), why) for where, why in bad)
                continue
            if t.parameters.get("type") != "object":
                out.append((loc + ("parameters", "type"), "tool parameters must be an object schema"))
            if t.op is None:
                continue
            if t.op not in OPS:
                out.append((loc + ("op",), f"unknown operation {t.op!r}; known: {sorted(OPS)}"))
                continue
            op = OPS[t.op]
            for canon in t.args:
                if canon not in op.args:
                    out.append((loc + ("args", canon), f"{t.op} has no argument {canon!r}; it takes {list(op.args)}"))
            for req in op.required:
                if req not in t.args:
                    out.append((loc + ("args",), f"required argument {req!r} of {t.op} is not bound"))
            for canon, b in t.args.items():
                if not _schema_has_path(t.parameters, b.path):
                    out.append((loc + ("args", canon, "path"), f"{b.path!r} is not a property of the parameters"))
        names = [s.name for s in spec.skills]
        for i, s in enumerate(spec.skills):
            if names.count(s.name) > 1:
                out.append((("skills", i, "name"), f"duplicate skill name {s.name!r}"))
            out += [(("skills", i, *loc), why) for loc, why in skill_metadata_problems(s)]
        if spec.constraints.require_reply_skill and not any(s.kind == "reply" for s in spec.skills):
            out.append((("constraints", "require_reply_skill"), "a reply skill is required but the harness has none"))
        for i, h in enumerate(spec.hooks):
            if h.check not in CHECKS:
                out.append((("hooks", i, "check"), f"unknown check {h.check!r}; known: {sorted(CHECKS)}"))
            elif CHECKS[h.check].event != h.event:
                out.append((("hooks", i, "event"), f"check {h.check!r} runs on {CHECKS[h.check].event!r}"))
        return out

    # -- identity ------------------------------------------------------------------------------------------
    @cached_property
    def canonical_json(self) -> str:
        """The spec as canonical JSON (sorted keys): what the hash covers."""
        data = self.__dict__.pop("_dumped", None)  # the dict a trusted build came from: the same content
        if data is None:
            data = self.spec.model_dump(mode="json", by_alias=True)
        return json.dumps(data, sort_keys=True, ensure_ascii=False)

    @cached_property
    def hash(self) -> str:
        """Content hash: 16 hex digits of SHA-256 over :attr:`canonical_json`."""
        return hashlib.sha256(self.canonical_json.encode()).hexdigest()[:16]

    @property
    def name(self) -> str:
        """The pack name."""
        return self.spec.name

    @property
    def version(self) -> str:
        """The declared version."""
        return self.spec.version

    def to_dict(self) -> dict[str, Any]:
        """A deep, JSON-ready copy of the spec (inline skills), the input of :meth:`from_dict` and patches."""
        return json.loads(self.canonical_json)

    # -- tools ---------------------------------------------------------------------------------------------
    @cached_property
    def openai_tools(self) -> list[dict[str, Any]]:
        """Tools in OpenAI function format, the skill tool last."""
        out = [
            {"type": "function", "function": {"name": t.name, "description": t.description, "parameters": t.parameters}}
            for t in self.spec.tools
        ]
        st = self.spec.skill_tool
        out.append(
            {
                "type": "function",
                "function": {
                    "name": st.name,
                    "description": st.description,
                    "parameters": {
                        "type": "object",
                        "properties": {st.param: {"type": "string", "enum": [s.name for s in self.spec.skills]}},
                        "required": [st.param],
                    },
                },
            }
        )
        return out

    @cached_property
    def _validators(self) -> dict[str, Any]:
        return {}

    def validator(self, tool: ToolSpec) -> Any:
        """The compiled JSON Schema validator of ``tool``'s arguments (built once; RE2 for ``pattern``, nothing
        fetched for ``$ref``: :func:`hat_env.harness.schema.make_validator`)."""
        v = self._validators.get(tool.name)
        if v is None:
            v = self._validators[tool.name] = make_validator(tool.parameters)
        return v

    def decode_args(self, tool: ToolSpec, arguments: dict[str, Any]) -> dict[str, Any]:
        """Validate ``arguments`` against ``tool``'s schema and translate them to canonical arguments.

        Raises:
            ArgError: with every schema error, or a value the codec cannot decode.
        """
        try:
            errs = sorted(self.validator(tool).iter_errors(arguments), key=lambda e: list(e.path))
        except RecursionError:
            raise ArgError(f"invalid arguments for {tool.name}: nested too deeply to validate") from None
        except Unresolvable as exc:  # only in a harness built unchecked: checked ones resolve every $ref
            raise ArgError(f"{tool.name}'s schema has a $ref that does not resolve: {exc}") from None
        if errs:
            msgs = []
            for e in errs[:3]:
                where = ".".join(str(x) for x in e.path) or "arguments"
                msgs.append(f"{where}: {e.message}")
            raise ArgError(f"invalid arguments for {tool.name}: " + "; ".join(msgs))
        out: dict[str, Any] = {}
        for canon, b in tool.args.items():
            found, val = _get_path(arguments, b.path)
            if not found:
                continue
            c = b.codec
            if c.type == "int_as_str":
                try:
                    val = int(str(val).strip())
                except ValueError:
                    raise ArgError(f"{b.path} must be a number written as a string, got {val!r}") from None
            elif c.type == "prefix":
                s = str(val)
                if not s.startswith(c.prefix):
                    raise ArgError(f"{b.path} must start with {c.prefix!r}, got {val!r}")
                val = s[len(c.prefix) :]
            elif c.type == "enum":
                if str(val) not in c.map:
                    raise ArgError(f"{b.path} must be one of {sorted(c.map)}, got {val!r}")
                val = c.map[str(val)]
            out[canon] = val
        return out

    def encode_args(self, tool: ToolSpec, canonical: dict[str, Any]) -> dict[str, Any]:
        """Translate canonical arguments into ``tool``'s encoding (what a harness-reading agent writes)."""
        out: dict[str, Any] = {}
        for canon, val in canonical.items():
            b = tool.args.get(canon)
            if b is None or val is None:
                continue
            c = b.codec
            if c.type == "int_as_str":
                val = str(val)
            elif c.type == "prefix":
                val = c.prefix + str(val)
            elif c.type == "enum":
                inv = {v: k for k, v in c.map.items()}
                val = inv.get(str(val), val)
            _set_path(out, b.path, val)
        return out

    def encode_result(self, tool: ToolSpec, result: dict[str, Any]) -> dict[str, Any]:
        """Rename top-level result fields as the harness declares (``results``)."""
        if not tool.results:
            return result
        r = tool.results
        return {r.get(k, k): v for k, v in result.items()}

    def decode_result(self, tool: ToolSpec, result: dict[str, Any]) -> dict[str, Any]:
        """Inverse of :meth:`encode_result`."""
        if not tool.results:
            return result
        inv = {v: k for k, v in tool.results.items()}
        return {inv.get(k, k): v for k, v in result.items()}

    # -- skills --------------------------------------------------------------------------------------------
    @cached_property
    def reply_skills(self) -> dict[str, frozenset[str]]:
        """Reply-skill name -> intent kinds it covers."""
        return {s.name: s.intents for s in self.spec.skills if s.kind == "reply"}

    def reply_skill_for(self, intent_kind: str) -> str | None:
        """The reply skill covering ``intent_kind`` (the first declared), or ``None``."""
        for name, intents in self.reply_skills.items():
            if intent_kind in intents:
                return name
        return None

    # -- model output --------------------------------------------------------------------------------------
    def parse(self, text: str, tool_calls: list[dict[str, Any]] | None = None) -> ParsedOutput:
        """Parse a raw model output (see :func:`hat_env.harness.parse.parse_output`)."""
        return parse_output(text, tool_calls)

    # -- evolution -----------------------------------------------------------------------------------------
    def apply(self, patch: list[dict[str, Any]], check: bool = True) -> "Harness":
        """The harness after ``patch`` (a list of operations, see :mod:`hat_env.harness.patch`).

        Raises:
            PatchError: an operation names something that does not exist, or the result is invalid.
        """
        from hat_env.harness.patch import apply_patch

        data = apply_patch(self.to_dict(), patch)
        return Harness.from_dict(data, source=f"{self.source}+patch", check=check)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle as the spec alone (caches such as compiled validators are rebuilt on use)."""
        return (_rebuild, (self.spec, self.source))

    def __eq__(self, other: object) -> bool:
        """Two harnesses are equal when their contents are (same hash)."""
        return isinstance(other, Harness) and (self is other or self.canonical_json == other.canonical_json)

    def __hash__(self) -> int:
        return hash(self.hash)

    def __repr__(self) -> str:
        return f"Harness({self.name!r}, version={self.version!r}, hash={self.hash})"


def _rebuild(spec: HarnessSpec, source: str) -> Harness:
    """Unpickle a :class:`Harness` (it was valid when pickled, so the checks are skipped)."""
    return Harness(spec, source=source, check=False)
