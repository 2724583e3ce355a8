"""Harness patches: lists of operations that turn one harness state into the next.

Scenario timelines (mid-stream harness changes) and Harness-State Augmentation both use these operations, so
every harness change in the project is a recorded, replayable patch. Renames follow every reference: prompt
text, skill text, hook matchers, bindings and the reply-skill metadata.

Operations (``op`` field):

- ``set``: ``{path: "constraints.max_reply_chars", value: 80}`` (dotted path into the harness dict)
- ``rename_tool``: ``{tool, to}``; ``rename_skill``: ``{skill, to}``
- ``rename_param``: ``{tool, param, to}`` (``param`` is a dotted path in the parameters)
- ``rename_skill_tool``: ``{to, param?}`` (the built-in skill-loading tool, and optionally its parameter)
- ``add_tool``: ``{tool: {...}}``; ``remove_tool``: ``{tool}``; ``update_tool``: ``{tool, set: {...}}``;
  ``move_tool``: ``{tool, index}``; ``reorder_tools``: ``{order: [names]}`` (the order the model sees them in)
- ``add_skill``: ``{skill: {...}}``; ``remove_skill``: ``{skill}``; ``update_skill``: ``{skill, set: {...}}``
- ``add_section``: ``{section: {...}, index}``; ``remove_section``: ``{section}``;
  ``update_section``: ``{section, set: {...}}``; ``move_section``: ``{section, index}``;
  ``reorder_sections``: ``{order: [ids]}``
"""

from __future__ import annotations

import re
from typing import Any, Callable, Iterator


class PatchError(ValueError):
    """A patch operation could not be applied; the message names the operation index and the reason. ``index`` is
    that index and ``field`` the operation's field at fault (``"skill"`` for a skill it names that does not exist),
    when known."""

    index: int | None = None
    field: str | None = None


def _find(items: list[dict[str, Any]], key: str, value: str, what: str, i: int) -> dict[str, Any]:
    for it in items:
        if it.get(key) == value:
            return it
    have = ", ".join(str(it.get(key)) for it in items) or "none"
    err = PatchError(f"patch[{i}]: no {what} named {value!r}; the harness has {what}s: {have}")
    err.field = what  # every operation names the item in the field named after its kind
    raise err


def _word_sub(text: str, old: str, new: str) -> str:
    if not text or old not in text:
        return text
    return re.sub(rf"(?<![A-Za-z0-9_\-]){re.escape(old)}(?![A-Za-z0-9_\-])", new.replace("\\", r"\\"), text)


def text_fields(h: dict[str, Any]) -> Iterator[tuple[dict[str, Any], str]]:
    """Every prose field of a harness dict that may name a tool or skill, as ``(item, key)``: section texts,
    skill bodies and descriptions, tool descriptions (what a rename rewrites besides hooks)."""
    for s in h["prompt"]["sections"]:
        yield s, "text"
    for sk in h.get("skills", []):
        yield sk, "body"
        yield sk, "description"
    for t in h["tools"]:
        yield t, "description"


def _rename_everywhere(h: dict[str, Any], old: str, new: str) -> None:
    for item, key in text_fields(h):
        item[key] = _word_sub(item.get(key, ""), old, new)
    for hk in h.get("hooks", []):
        if hk.get("matcher"):
            hk["matcher"] = _word_sub(hk["matcher"], old, new)
        for k, v in list(hk.get("params", {}).items()):
            if v == old:
                hk["params"][k] = new


def _set(h: dict[str, Any], op: dict[str, Any], i: int) -> None:
    path = op["path"].split(".")
    cur: Any = h
    for part in path[:-1]:
        if isinstance(cur, list):
            cur = cur[int(part)]
        elif isinstance(cur, dict) and part in cur:
            cur = cur[part]
        else:
            raise PatchError(f"patch[{i}]: path {op['path']!r} does not exist")
    if isinstance(cur, list):
        cur[int(path[-1])] = op["value"]
    else:
        cur[path[-1]] = op["value"]


def _rename_tool(h: dict[str, Any], op: dict[str, Any], i: int) -> None:
    t = _find(h["tools"], "name", op["tool"], "tool", i)
    t["name"] = op["to"]
    _rename_everywhere(h, op["tool"], op["to"])


def _rename_skill(h: dict[str, Any], op: dict[str, Any], i: int) -> None:
    s = _find(h["skills"], "name", op["skill"], "skill", i)
    s["name"] = op["to"]
    _rename_everywhere(h, op["skill"], op["to"])


def _rename_skill_tool(h: dict[str, Any], op: dict[str, Any], i: int) -> None:
    st = h.setdefault("skill_tool", {"name": "load_skill", "param": "name"})
    old = st.get("name", "load_skill")
    new = op["to"]
    if new != old and any(t.get("name") == new for t in h["tools"]):
        raise PatchError(f"patch[{i}]: a tool named {new!r} already exists")
    st["name"] = new
    if op.get("param"):
        st["param"] = op["param"]
    if new != old:
        _rename_everywhere(h, old, new)


def _rename_param(h: dict[str, Any], op: dict[str, Any], i: int) -> None:
    t = _find(h["tools"], "name", op["tool"], "tool", i)
    parts = op["param"].split(".")
    node = t["parameters"]
    for part in parts[:-1]:
        node = node.get("properties", {}).get(part)
        if node is None:
            raise PatchError(f"patch[{i}]: {op['tool']} has no parameter {op['param']!r}")
    props = node.get("properties", {})
    leaf = parts[-1]
    if leaf not in props:
        raise PatchError(f"patch[{i}]: {op['tool']} has no parameter {op['param']!r}")
    node["properties"] = {(op["to"] if k == leaf else k): v for k, v in props.items()}
    if leaf in node.get("required", []):
        node["required"] = [op["to"] if r == leaf else r for r in node["required"]]
    old_prefix = op["param"]
    new_prefix = ".".join(parts[:-1] + [op["to"]])
    for b in t.get("args", {}).values():
        if b["path"] == old_prefix or b["path"].startswith(old_prefix + "."):
            b["path"] = new_prefix + b["path"][len(old_prefix) :]
    t["description"] = _word_sub(t.get("description", ""), leaf, op["to"])


def _add(key: str, field: str) -> Callable[[dict[str, Any], dict[str, Any], int], None]:
    def run(h: dict[str, Any], op: dict[str, Any], i: int) -> None:
        item = op[field]
        if any(x.get("name") == item.get("name") for x in h[key]):
            raise PatchError(f"patch[{i}]: a {field} named {item.get('name')!r} already exists")
        h[key].append(item)

    return run


def _remove(key: str, field: str) -> Callable[[dict[str, Any], dict[str, Any], int], None]:
    def run(h: dict[str, Any], op: dict[str, Any], i: int) -> None:
        _find(h[key], "name", op[field], field, i)
        h[key] = [x for x in h[key] if x.get("name") != op[field]]

    return run


def _update(key: str, field: str) -> Callable[[dict[str, Any], dict[str, Any], int], None]:
    def run(h: dict[str, Any], op: dict[str, Any], i: int) -> None:
        _find(h[key], "name", op[field], field, i).update(op["set"])

    return run


def _move_tool(h: dict[str, Any], op: dict[str, Any], i: int) -> None:
    t = _find(h["tools"], "name", op["tool"], "tool", i)
    tools = [x for x in h["tools"] if x is not t]
    tools.insert(int(op["index"]), t)
    h["tools"] = tools


def _reorder(key: str, field: str, what: str) -> Callable[[dict[str, Any], dict[str, Any], int], None]:
    def run(h: dict[str, Any], op: dict[str, Any], i: int) -> None:
        items = h["prompt"]["sections"] if key == "sections" else h[key]
        by = {x.get(field): x for x in items}
        order = list(op["order"])
        if sorted(order) != sorted(by) or len(order) != len(items):
            raise PatchError(f"patch[{i}]: order must list every {what} once: {sorted(by)}")
        new = [by[n] for n in order]
        if key == "sections":
            h["prompt"]["sections"] = new
        else:
            h[key] = new

    return run


def _sections(h: dict[str, Any]) -> list[dict[str, Any]]:
    return h["prompt"]["sections"]


def _add_section(h: dict[str, Any], op: dict[str, Any], i: int) -> None:
    secs = _sections(h)
    if any(s["id"] == op["section"]["id"] for s in secs):
        raise PatchError(f"patch[{i}]: section {op['section']['id']!r} already exists")
    secs.insert(op.get("index", len(secs)), op["section"])


def _remove_section(h: dict[str, Any], op: dict[str, Any], i: int) -> None:
    _find(_sections(h), "id", op["section"], "section", i)
    h["prompt"]["sections"] = [s for s in _sections(h) if s["id"] != op["section"]]


def _update_section(h: dict[str, Any], op: dict[str, Any], i: int) -> None:
    _find(_sections(h), "id", op["section"], "section", i).update(op["set"])


def _move_section(h: dict[str, Any], op: dict[str, Any], i: int) -> None:
    s = _find(_sections(h), "id", op["section"], "section", i)
    secs = [x for x in _sections(h) if x is not s]
    secs.insert(int(op["index"]), s)
    h["prompt"]["sections"] = secs


OPERATIONS: dict[str, Callable[[dict[str, Any], dict[str, Any], int], None]] = {
    "set": _set,
    "rename_tool": _rename_tool,
    "rename_skill": _rename_skill,
    "rename_param": _rename_param,
    "rename_skill_tool": _rename_skill_tool,
    "add_tool": _add("tools", "tool"),
    "remove_tool": _remove("tools", "tool"),
    "update_tool": _update("tools", "tool"),
    "move_tool": _move_tool,
    "add_skill": _add("skills", "skill"),
    "remove_skill": _remove("skills", "skill"),
    "update_skill": _update("skills", "skill"),
    "add_section": _add_section,
    "remove_section": _remove_section,
    "update_section": _update_section,
    "move_section": _move_section,
    "reorder_tools": _reorder("tools", "name", "tool"),
    "reorder_sections": _reorder("sections", "id", "section"),
}


def apply_patch(h: dict[str, Any], patch: list[dict[str, Any]]) -> dict[str, Any]:
    """Apply ``patch`` to the harness dict ``h`` in place and return it.

    Raises:
        PatchError: an unknown operation, a missing field, or a reference to something that does not exist.
    """
    for i, op in enumerate(patch):
        if not isinstance(op, dict) or op.get("op") not in OPERATIONS:
            err = PatchError(f"patch[{i}]: unknown operation {op.get('op') if isinstance(op, dict) else op!r}; "
                             f"known: {sorted(OPERATIONS)}")
            err.index = i
            raise err
        try:
            OPERATIONS[op["op"]](h, op, i)
        except PatchError as exc:
            exc.index = i
            raise
        except KeyError as exc:
            err = PatchError(f"patch[{i}] ({op['op']}): missing field {exc.args[0]!r}")
            err.index = i
            raise err from None
        except (TypeError, ValueError, AttributeError, IndexError) as exc:  # a field of the wrong shape
            err = PatchError(f"patch[{i}] ({op['op']}): invalid operation: {type(exc).__name__}: {exc}")
            err.index = i
            raise err from None
    return h
