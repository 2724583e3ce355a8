"""Render a harness into what the model reads: the system prompt (ordered sections in the harness's markup,
filled from the live room), the user message of a merged request, and the whole conversation as plain text.

The harness writes the sections' text; every fixed string the renderer adds (product, campaign and skill lines,
the rule lines, the room line, the user message's header) is the ``prompt`` section of the locale file of the
harness's prompt language (``prompt.language``), with the harness's ``prompt.strings`` over it
(:func:`prompt_strings`). ``{reply_language}`` is the room's language as that prompt language names it."""

from __future__ import annotations

import json
import json.encoder
import re
from typing import TYPE_CHECKING, Any

from hat_env.harness.parse import format_hermes
from hat_env.locale_text import PromptStrings, fill

if TYPE_CHECKING:
    from hat_env.harness.core import Harness
    from hat_env.sim.catalog import Product
    from hat_env.sim.room import RoomState
    from hat_env.sim.scenario import RoomSpec
    from hat_env.types import LiveRequest

#: First line of the user message of a request in the default prompt language (``en_US``); a harness's own header
#: is ``prompt_strings(harness, locale).user_header``. Agents that read the conversation find the request by it.
USER_HEADER = "Viewer comments:"
_JSON_STR = json.encoder.encode_basestring  # a JSON string literal, non-ASCII kept (the C encoder)
_PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")
_STRINGS: dict[tuple[str, str], PromptStrings] = {}


def prompt_language(harness: "Harness", locale: str) -> str:
    """The locale whose fixed prompt strings ``harness`` uses in a ``locale`` room (its ``prompt.language``;
    ``room``: the room's)."""
    lang = harness.spec.prompt.language
    return locale if lang == "room" else lang


def prompt_strings(harness: "Harness", locale: str) -> PromptStrings:
    """The fixed strings ``harness``'s prompt and user messages use in a ``locale`` room: the prompt language's
    locale file with the harness's ``prompt.strings`` over it (cached per harness and locale).

    Raises:
        ValueError: the prompt language is not a known locale.
    """
    key = (harness.hash, locale)
    hit = _STRINGS.get(key)
    if hit is None:
        from hat_env.locales import get_locale

        hit = get_locale(prompt_language(harness, locale)).prompt.with_overrides(harness.spec.prompt.strings)
        if len(_STRINGS) > 256:
            _STRINGS.clear()
        _STRINGS[key] = hit
    return hit


def reply_language(harness: "Harness", locale: str) -> str:
    """How ``harness``'s prompt names the language of a ``locale`` room: the prompt language's name for it, else
    the room language's own name (the locale id when it has no file)."""
    from hat_env.locales import get_locale

    named = prompt_strings(harness, locale).language_names.get(locale)
    if named:
        return named
    try:
        return get_locale(locale).prompt.name
    except ValueError:
        return locale


def _fill(text: str, values: dict[str, str]) -> str:
    """Replace ``{name}`` placeholders from ``values`` only (no attribute access, no code); unknown ones stay."""
    if "{" not in text:
        return text
    return _PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), text)


def _category(room: "RoomState", name: str) -> str:
    """What the room's vocabulary calls category ``name`` in its locale (the key when it gives no label)."""
    c = room.category(name)
    return c.label(room.locale) if c is not None else name


def _product_extra(P: PromptStrings, room: "RoomState", p: "Product") -> str:
    """The lines under a product's line for its variants and shipping regions (``variants_line``,
    ``regions_line``; nothing for a product without them, or when the strings are empty)."""
    out = ""
    if p.variants and P.variants_line:
        out += "\n" + fill(P.variants_line, variants=P.list_sep.join(v.name for v in p.variants))
    if p.shipping.regions and P.regions_line:
        from hat_env.locales import get_locale

        money = get_locale(room.locale).formats.amount
        items = [fill(P.region_fee, names="/".join(g.names), fee=money(g.fee)) if g.ships
                 else fill(P.region_no_ship, names="/".join(g.names)) for g in p.shipping.regions
                 if g.fee or not g.ships]
        if items:
            out += "\n" + fill(P.regions_line, regions=P.list_sep.join(items))
    return out


def _source(harness: "Harness", source: str, room: "RoomState", values: dict[str, str]) -> str:
    spec = harness.spec
    P = prompt_strings(harness, room.locale)
    if source == "products":
        return "\n".join(fill(P.product_line, link=p.link, title=p.title, product_id=p.product_id,
                              category=_category(room, p.category)) + _product_extra(P, room, p)
                         for p in room.products)
    if source == "campaigns":
        act = room.active_campaigns()
        return "\n".join(fill(P.campaign_line, title=c.title, type=P.campaign_types.get(c.type, c.type))
                         for c in act) or P.no_campaigns
    if source == "skills":
        return "\n".join(fill(P.skill_line, name=s.name, description=s.description) for s in spec.skills)
    if source == "constraints":
        c = spec.constraints
        lines = []
        if c.max_reply_chars:
            lines.append(fill(P.max_reply_chars, n=c.max_reply_chars))
        if c.require_reply_skill:
            lines.append(fill(P.require_reply_skill, skill_tool=spec.skill_tool.name))
        if c.forbidden_words:
            lines.append(fill(P.forbidden_words, words=P.list_sep.join(c.forbidden_words)))
        disclosure = c.disclosure(room.locale)
        if disclosure:
            lines.append(fill(P.required_disclosure, text=disclosure))
        lines.append(fill(P.turn_limit, n=c.turn_limit))
        if c.instructions:
            from hat_env.ifeval import describe

            lines += [fill(P.instruction, text=describe(inst, room.locale)) for inst in c.instructions]
        return "\n".join(lines)
    if source == "room":
        return fill(P.room_line, host_name=values["host_name"], ai_label=values["ai_label"],
                    shop_name=values["shop_name"])
    return ""


def _item(markup: str, sid: str, title: str, body: str) -> str:
    """One section as ``markup`` writes it (JSON: an element of the ``sections`` array, indented as
    ``json.dumps(..., indent=1)`` would, built with the C string encoder)."""
    if markup == "json":
        return f'  {{\n   "title": {_JSON_STR(title)},\n   "content": {_JSON_STR(body)}\n  }}'
    if markup == "markdown":
        return f"## {title}\n{body}"
    if markup == "xml":
        return f'<{sid} title="{title}">\n{body}\n</{sid}>'
    return f"{title.upper()}\n{body}"


#: Sources that change while a session runs (the rest depend only on the harness and the room).
_LIVE_SOURCES = ("campaigns",)


#: Marks where a live section's source lines go in its :func:`_item` text (never in a harness's text).
_SLOT = "\x00"


def _live_piece(markup: str, sid: str, title: str, body: str) -> tuple[str, str]:
    """``(before, after)``: a live section's :func:`_item` text around its source's lines (JSON: inside the
    content string, so the lines go in escaped and unquoted)."""
    text = _item(markup, sid, title, f"{body}\n{_SLOT}" if body else _SLOT)
    before, after = text.split(_JSON_STR(_SLOT)[1:-1] if markup == "json" else _SLOT)
    return before, after


def _pieces(harness: "Harness", room: "RoomState", room_spec: "RoomSpec") -> tuple[Any, ...]:
    """The harness's system prompt in this room as fixed text and live slots, worked out once per harness and
    room (kept on the room, like the prompts): a slot ``(source, escape as JSON)`` stands for the lines a source
    reads from live room state (campaigns), which :func:`render_system` fills in; everything else, markup and the
    text around each slot included, is already final."""
    key = (harness.hash, room_spec.host_name, room_spec.shop_name, room_spec.ai_label)
    cache = room.prompt_parts
    hit = cache.get(key)
    if hit is not None:
        return hit
    spec = harness.spec
    markup = spec.prompt.markup
    values = {
        "host_name": room_spec.host_name,
        "shop_name": room_spec.shop_name,
        "ai_label": room_spec.ai_label,
        "skill_tool": spec.skill_tool.name,
        "reply_language": reply_language(harness, room.locale),
        "max_reply_chars": str(spec.constraints.max_reply_chars or ""),
        "turn_limit": str(spec.constraints.turn_limit),
    }
    json_markup = markup == "json"
    sep = ",\n" if json_markup else "\n\n"
    out: list[Any] = []
    text = '{\n "sections": [\n' if json_markup else ""
    for i, s in enumerate(spec.prompt.sections):
        if i:
            text += sep
        body = _fill(s.text, values).strip()
        if s.source in _LIVE_SOURCES:
            before, after = _live_piece(markup, s.id, s.title, body)
            out += [text + before, (s.source, json_markup)]
            text = after
            continue
        if s.source:
            extra = _source(harness, s.source, room, values)
            body = f"{body}\n{extra}" if body else extra
        text += _item(markup, s.id, s.title, body)
    if json_markup:
        text = text + "\n ]\n}" if spec.prompt.sections else '{\n "sections": []\n}'
    out.append(text)
    if len(cache) > 64:
        cache.clear()
    pieces = cache[key] = tuple(out)
    return pieces


def render_system(harness: "Harness", room: "RoomState", room_spec: "RoomSpec") -> str:
    """The system prompt of ``harness`` for the room as it is now (cached while campaigns stay the same)."""
    active = tuple(c.campaign_id for c in room.active_campaigns())
    cache = room.prompt_cache  # per room: the key needs no room identity, and dies with the session
    key = (harness.hash, room_spec.host_name, room_spec.shop_name, room_spec.ai_label, active)
    hit = cache.get(key)
    if hit is not None:
        return hit
    parts = []
    for piece in _pieces(harness, room, room_spec):
        if isinstance(piece, str):
            parts.append(piece)
        else:
            source, json_markup = piece
            lines = _source(harness, source, room, {})
            parts.append(_JSON_STR(lines)[1:-1] if json_markup else lines)
    text = "".join(parts)
    if len(cache) > 256:
        cache.clear()
    cache[key] = text
    return text


def render_user(request: "LiveRequest", note: str = "", header: str = USER_HEADER) -> str:
    """The user message of a merged request: ``header`` (the harness's ``user_header``), then one line per comment,
    ``[viewer name] text``, then ``note`` (a hook's) when given."""
    lines = [header] + [f"[{c.viewer_name}] {c.text}" for c in request.comments]
    if note:
        lines.append(note)
    return "\n".join(lines)


def render_conversation(messages: list[dict[str, Any]], tools: list[dict[str, Any]], tools_json: str | None = None) -> str:
    """The whole conversation as one text (the Gymnasium observation): roles in ``<|role|>`` headers, the tool
    list after the system prompt, assistant tool calls in Hermes form. A ``<|`` inside a message (a viewer
    writing ``<|assistant|>``) is shown as ``< |``, so only the env starts a message.

    Args:
        messages: OpenAI-format messages.
        tools: OpenAI function tools.
        tools_json: ``json.dumps([t["function"] for t in tools], ensure_ascii=False)`` when the caller keeps it
            (it is most of the cost), else ``None``.
    """
    out = []
    for i, m in enumerate(messages):
        role = m["role"]
        body = m.get("content") or ""
        if role == "assistant" and m.get("tool_calls"):
            calls = [
                format_hermes(tc["function"]["name"], json.loads(tc["function"]["arguments"] or "{}"))
                for tc in m["tool_calls"]
            ]
            body = (body + "\n" if body else "") + "\n".join(calls)
        if "<|" in body:  # a comment or an output that writes a role header cannot start a message of its own
            body = body.replace("<|", "< |")
        out.append(f"<|{role}|>\n{body}")
        if i == 0 and role == "system":
            if tools_json is None:
                tools_json = json.dumps([t["function"] for t in tools], ensure_ascii=False)
            out.append("<|tools|>\n" + tools_json)
    return "\n".join(out)
