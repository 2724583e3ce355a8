"""Tool-argument JSON Schemas: checked when a harness is validated, and validated without backtracking regexes.

A tool's ``parameters`` schema comes from a harness pack (data) and is matched against arguments a model wrote.
So:

- ``pattern`` and ``patternProperties`` run on RE2 (:mod:`hat_env.saferegex`): :data:`ToolValidator` is
  jsonschema's Draft 2020-12 validator with those keywords (and ``additionalProperties``, which reads
  ``patternProperties``) replaced through ``jsonschema.validators.extend``, the documented way to swap a keyword's
  implementation. A pattern RE2 refuses is a validation error; ``unevaluatedProperties`` next to
  ``patternProperties`` is refused (jsonschema would match those with Python's ``re``).
- ``$ref`` must point inside the schema (``#`` or ``#/...``): remote and file references are refused, the
  validator is built on an empty ``referencing`` registry (nothing is ever fetched), every reference is
  resolved when the harness is validated (an unresolvable one is an error with its field and line, not a crash on
  the first tool call), and a cycle of references that never reaches a value is refused (it would recurse
  forever). ``$id``, ``$anchor`` and ``$dynamicRef`` are refused: they would make references leave that simple
  form.
"""

from __future__ import annotations

import json
from typing import Any, Iterator

import referencing
import referencing.exceptions
from jsonschema import Draft202012Validator, FormatChecker, validators
from jsonschema.exceptions import SchemaError, ValidationError
from referencing.jsonschema import DRAFT202012

from hat_env import saferegex

#: Keywords whose value is a mapping of subschemas / a single subschema / a list of subschemas.
_SCHEMA_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
_SCHEMA_ONE = ("additionalProperties", "items", "contains", "not", "if", "then", "else", "propertyNames",
               "unevaluatedItems", "unevaluatedProperties", "additionalItems")
_SCHEMA_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems", "items")
#: Applicators that apply their subschemas to the same value (a cycle through them alone never ends).
_IN_PLACE_ONE = ("not", "if", "then", "else")
_IN_PLACE_LISTS = ("allOf", "anyOf", "oneOf")
_REFUSED = ("$id", "$anchor", "$dynamicRef", "$dynamicAnchor", "$recursiveRef", "$recursiveAnchor")

#: An empty registry: references resolve only inside the schema being validated, nothing is retrieved.
NO_REMOTE = referencing.Registry()
_BASE = "urn:hat-env:tool-parameters"


def _pattern(validator: Any, patrn: str, instance: Any, schema: dict[str, Any]) -> Iterator[ValidationError]:
    if validator.is_type(instance, "string"):
        try:
            found = saferegex.search(patrn, instance)
        except saferegex.RegexError as exc:
            yield ValidationError(f"the schema's pattern {patrn!r} is refused: {exc}")
            return
        if not found:
            yield ValidationError(f"{instance!r} does not match {patrn!r}")


def _key_matchers(schema: dict[str, Any]) -> list[Any]:
    return [saferegex.compile(p) for p in schema.get("patternProperties", {})]


def _pattern_properties(validator: Any, pp: dict[str, Any], instance: Any, schema: dict[str, Any]) -> Iterator[Any]:
    if not validator.is_type(instance, "object"):
        return
    for pattern, subschema in pp.items():
        rx = saferegex.compile(pattern)
        for k, v in instance.items():
            if rx.search(saferegex.clean(k)):
                yield from validator.descend(v, subschema, path=k, schema_path=pattern)


_ORIGINAL_AP = Draft202012Validator.VALIDATORS["additionalProperties"]


def _additional_properties(validator: Any, ap: Any, instance: Any, schema: dict[str, Any]) -> Iterator[Any]:
    if "patternProperties" not in schema:  # no regex involved: jsonschema's own implementation
        yield from _ORIGINAL_AP(validator, ap, instance, schema)
        return
    if not validator.is_type(instance, "object"):
        return
    props = schema.get("properties", {})
    rxs = _key_matchers(schema)
    extras = {k for k in instance if k not in props and not any(rx.search(saferegex.clean(k)) for rx in rxs)}
    if validator.is_type(ap, "object"):
        for extra in extras:
            yield from validator.descend(instance[extra], ap, path=extra)
    elif not ap and extras:  # jsonschema's message, word for word
        verb = "does" if len(extras) == 1 else "do"
        joined = ", ".join(repr(each) for each in sorted(extras))
        patterns = ", ".join(repr(each) for each in sorted(schema["patternProperties"]))
        yield ValidationError(f"{joined} {verb} not match any of the regexes: {patterns}")


#: Draft 2020-12 with ``pattern``, ``patternProperties`` and ``additionalProperties`` on RE2.
ToolValidator = validators.extend(
    Draft202012Validator,
    {"pattern": _pattern, "patternProperties": _pattern_properties, "additionalProperties": _additional_properties},
)


def make_validator(schema: dict[str, Any]) -> Any:
    """A :data:`ToolValidator` for ``schema`` on the empty registry :data:`NO_REMOTE` (no reference is fetched)."""
    return ToolValidator(schema, registry=NO_REMOTE)


def _format_checker() -> FormatChecker:
    """Draft 2020-12's format checks for checking a schema, without ``regex``: :func:`problems` checks every
    pattern with RE2 itself (Python's ``re.compile`` would judge them by the wrong syntax)."""
    fc = FormatChecker()
    fc.checkers = {k: v for k, v in Draft202012Validator.FORMAT_CHECKER.checkers.items() if k != "regex"}
    return fc


_FORMATS = _format_checker()


def _walk(schema: Any) -> Iterator[tuple[tuple, dict[str, Any]]]:
    """Every subschema of ``schema`` that is a mapping, with its location (keyword path), depth first."""
    todo: list[tuple[tuple, Any]] = [((), schema)]
    while todo:
        loc, node = todo.pop()
        if not isinstance(node, dict):
            continue
        yield loc, node
        for kw in _SCHEMA_MAPS:
            sub = node.get(kw)
            if isinstance(sub, dict):
                todo.extend((loc + (kw, k), v) for k, v in sub.items())
        for kw in _SCHEMA_ONE:
            if isinstance(node.get(kw), dict):
                todo.append((loc + (kw,), node[kw]))
        for kw in _SCHEMA_LISTS:
            sub = node.get(kw)
            if isinstance(sub, list):
                todo.extend((loc + (kw, i), v) for i, v in enumerate(sub))


def _in_place(node: dict[str, Any]) -> Iterator[Any]:
    for kw in _IN_PLACE_ONE:
        if isinstance(node.get(kw), dict):
            yield node[kw]
    for kw in _IN_PLACE_LISTS:
        if isinstance(node.get(kw), list):
            yield from (s for s in node[kw] if isinstance(s, dict))
    deps = node.get("dependentSchemas")
    if isinstance(deps, dict):
        yield from (s for s in deps.values() if isinstance(s, dict))


#: Answers of :func:`problems` by the schema's canonical JSON: a patched harness (distractor tools, a harness
#: variant) re-checks the same tool schemas, and the meta-schema check is most of building one.
_CHECKED: dict[str, list[tuple[tuple, str]]] = {}
_CHECKED_MAX = 4096


def _cache_key(schema: Any) -> str | None:
    """The schema's canonical JSON when it is plain JSON that reads back equal (so ``{1: ...}`` and
    ``{"1": ...}`` never share an answer), else ``None`` (checked without the cache)."""
    try:
        key = json.dumps(schema, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        same = json.loads(key) == schema
    except (TypeError, ValueError, RecursionError):
        return None
    return key if same else None


def problems(schema: Any) -> list[tuple[tuple, str]]:
    """What is wrong with a tool's ``parameters`` schema, as ``(location below parameters, reason)``; the answer
    for a schema is kept by its canonical JSON (:func:`_cache_key`), so each distinct schema is checked once per
    process."""
    key = _cache_key(schema)
    if key is not None and key in _CHECKED:
        return list(_CHECKED[key])
    out = _problems(schema)
    if key is not None:
        if len(_CHECKED) >= _CHECKED_MAX:
            _CHECKED.clear()
        _CHECKED[key] = list(out)
    return out


def _problems(schema: Any) -> list[tuple[tuple, str]]:
    """What is wrong with a tool's ``parameters`` schema, as ``(location below parameters, reason)``.

    Checks: a valid Draft 2020-12 schema; every ``pattern`` and
    ``patternProperties`` key accepted by RE2; ``$ref`` local and resolvable; no cycle of references through
    applicators that never reaches a value; no ``$id``/``$anchor``/``$dynamicRef``; no ``unevaluatedProperties``
    where ``patternProperties`` are used. Empty when the schema is usable.
    """
    try:
        Draft202012Validator.check_schema(schema, format_checker=_FORMATS)
    except SchemaError as exc:
        return [(tuple(exc.path), f"not a valid JSON Schema: {exc.message}")]
    except RecursionError:
        return [((), "not a valid JSON Schema: nested too deeply to check")]
    out: list[tuple[tuple, str]] = []
    nodes = list(_walk(schema))
    has_pp = any("patternProperties" in n for _, n in nodes)
    resolver = referencing.Registry().with_resource(_BASE, DRAFT202012.create_resource(schema)).resolver(_BASE)
    targets: dict[int, Any] = {}
    for loc, node in nodes:
        for kw in _REFUSED:
            if kw in node:
                out.append((loc + (kw,), f"{kw} is not supported in tool schemas; use $ref with '#/...' pointers"))
        if isinstance(node.get("pattern"), str) and (why := saferegex.problem(node["pattern"])):
            out.append((loc + ("pattern",), why))
        for key in node.get("patternProperties") or {}:
            if (why := saferegex.problem(key)) is not None:
                out.append((loc + ("patternProperties", key), why))
        if has_pp and "unevaluatedProperties" in node:
            out.append((loc + ("unevaluatedProperties",),
                        "unevaluatedProperties cannot be used with patternProperties in a tool schema"))
        ref = node.get("$ref")
        if ref is None:
            continue
        if not isinstance(ref, str) or not (ref == "#" or ref.startswith("#/")):
            out.append((loc + ("$ref",), f"$ref {ref!r} must point inside the schema ('#' or '#/...'): remote "
                                         "and file references are not allowed"))
            continue
        try:
            targets[id(node)] = resolver.lookup(ref).contents
        except referencing.exceptions.Unresolvable as exc:
            out.append((loc + ("$ref",), f"$ref {ref!r} does not resolve: {type(exc).__name__}"))
    if not out:
        cycle = _ref_cycle(nodes, targets)
        if cycle is not None:
            out.append((cycle + ("$ref",), "$ref cycle: these references lead back here without reaching a value, "
                                           "so validating would never end"))
    return out


def _ref_cycle(nodes: list[tuple[tuple, dict[str, Any]]], targets: dict[int, Any]) -> tuple | None:
    """The location of a subschema on a cycle of in-place references, or ``None``."""
    where = {id(n): loc for loc, n in nodes}

    def edges(n: Any) -> list[Any]:
        out = list(_in_place(n)) if isinstance(n, dict) else []
        t = targets.get(id(n))
        if isinstance(t, dict):
            out.append(t)
        return out

    state: dict[int, int] = {}  # 1: on the stack, 2: done
    for _, start in nodes:
        if id(start) in state:
            continue
        stack: list[tuple[Any, Iterator[Any]]] = [(start, iter(edges(start)))]
        state[id(start)] = 1
        while stack:
            node, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                state[id(node)] = 2
                stack.pop()
                continue
            s = state.get(id(nxt))
            if s == 1:  # a cycle: name the last schema on it that holds a $ref (every cycle has one)
                on_cycle = [n for n, _ in stack if id(n) in targets]
                return where.get(id(on_cycle[-1] if on_cycle else nxt), ())
            if s is None:
                state[id(nxt)] = 1
                stack.append((nxt, iter(edges(nxt))))
    return None
