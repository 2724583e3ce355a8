"""Locales as data (issue 14 item 3): the prompt's fixed strings come from the locale file of the harness's prompt
language (or the harness), ``{reply_language}`` names the room's language, disclosure and fallback texts are per
locale, skill examples show the room's language only, injection payloads fit the room's products, the reference's
sentences and money formats are the locale file's, and a room may bring its own locale file."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from hat_env.agents import make_agent
from hat_env.envs.session import LiveSession
from hat_env.harness.core import Harness
from hat_env.harness.render import prompt_strings, reply_language
from hat_env.harness.skills import skill_text
from hat_env.locale_text import Formats
from hat_env.locales import get_locale, load_locale_file, locales_dir
from hat_env.runner import run_session
from hat_env.sim.comments import injection_payloads
from hat_env.yamlio import FileError


def _default(*patch: dict) -> Harness:
    h = Harness.load("default")
    return h.apply(list(patch)) if patch else h


def _system_and_user(session: LiveSession) -> tuple[str, str]:
    assert session.next_request()
    msgs = session.loop.agent_request().messages
    return msgs[0]["content"], msgs[-1]["content"]


def test_the_default_prompt_language_is_english_in_every_room() -> None:
    system, user = _system_and_user(LiveSession("beauty_zh", duration_s=60))
    assert "- A reply has at most 150 characters." in system
    assert "in Chinese (简体中文), out loud" in system
    assert re.search(r"^- link 1: .+ \(id \w+, \w+\)$", system, re.M)
    assert user.startswith("Viewer comments:\n[")


def test_a_chinese_prompt_language_renders_every_fixed_string_in_chinese_and_the_reference_follows() -> None:
    h = _default({"op": "set", "path": "prompt.language", "value": "zh_CN"})
    system, user = _system_and_user(LiveSession("electronics_en", harness=h, duration_s=60))
    assert "- 每条回复不超过150个字。" in system and "- 最终回复前先用load_skill加载一个回复技能。" in system
    assert "in 英语, out loud" in system  # the harness's own text is English; the language is named in Chinese
    assert "- 1号链接：" in system and "link 1:" not in system
    assert user.startswith("观众弹幕：\n[")
    # the reference finds the comments under the harness's own header: the same replies as under the default
    base = run_session(LiveSession("electronics_en", duration_s=200), make_agent("reference"))
    zh = run_session(LiveSession("electronics_en", harness=h, duration_s=200), make_agent("reference"))
    assert zh["score"] == base["score"] and zh["requests"] == base["requests"] >= 10


def test_prompt_language_room_follows_the_room() -> None:
    h = _default({"op": "set", "path": "prompt.language", "value": "room"})
    assert prompt_strings(h, "zh_CN").user_header == "观众弹幕："
    assert prompt_strings(h, "en_US").user_header == "Viewer comments:"
    assert reply_language(h, "zh_CN") == "简体中文" and reply_language(h, "en_US") == "English"
    assert reply_language(_default(), "zh_CN") == "Chinese (简体中文)"


def test_harness_strings_override_the_locale_file_and_bad_ones_name_the_field(tmp_path: Path) -> None:
    h = _default({"op": "set", "path": "prompt.strings", "value": {"max_reply_chars": "- Keep it under {n} chars."}})
    system, _ = _system_and_user(LiveSession("electronics_en", harness=h, duration_s=60))
    assert "- Keep it under 150 chars." in system and "A reply has at most" not in system
    pack = tmp_path / "pack"
    shutil.copytree(Path(Harness.load("default").source).parent, pack)
    text = (pack / "harness.yaml").read_text(encoding="utf-8")
    text = text.replace("  markup: markdown\n", "  markup: markdown\n  strings:\n    user_header: 'Chat {who}:'\n")
    (pack / "harness.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(FileError) as err:
        Harness.load(pack)
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if "Chat {who}" in ln)
    assert any(f == "prompt.strings.user_header" and ln == line and "placeholder {who} is not allowed" in r
               for f, ln, r in err.value.problems), err.value.problems
    with pytest.raises(FileError, match="unknown prompt string 'footer'"):
        _default({"op": "set", "path": "prompt.strings", "value": {"footer": "x"}})


def test_disclosure_per_locale_is_shown_required_and_said() -> None:
    table = {"zh_CN": "【AI主播】", "en_US": "[AI host]"}
    h = _default({"op": "set", "path": "constraints.required_disclosure", "value": table})
    for scenario, text in (("beauty_zh", "【AI主播】"), ("electronics_en", "[AI host]")):
        s = LiveSession(scenario, harness=h, duration_s=120)
        summary = run_session(s, make_agent("reference"))
        assert summary["components"]["constraints"] == 1.0
        replies = [o.reply for o, _c, _s in s.outcomes]
        assert replies and all(r.endswith(" " + text) for r in replies)
        other = next(v for k, v in table.items() if v != text)
        assert not any(other in r for r in replies)
    c = _default({"op": "set", "path": "constraints.required_disclosure", "value": True}).spec.constraints
    assert c.disclosure("zh_CN") == get_locale("zh_CN").host.disclosure
    assert c.disclosure("en_US") == get_locale("en_US").host.disclosure


def test_fallback_is_the_harness_text_else_the_locale_files() -> None:
    c = _default().spec.constraints
    assert c.fallback("zh_CN") == get_locale("zh_CN").host.fallback
    assert c.fallback("en_US") == get_locale("en_US").host.fallback
    own = _default({"op": "set", "path": "constraints.fallback_reply", "value": {"default": "One moment."}})
    assert own.spec.constraints.fallback("zh_CN") == "One moment."


def test_a_skill_example_is_shown_in_its_locale_only(tmp_path: Path) -> None:
    body = Harness.load("default").skills_by_name["item-qa"].body
    zh, en = skill_text(body, "zh_CN"), skill_text(body, "en_US")
    assert "3号链接多少钱" in zh and "how much is link 3" not in zh and "[zh_CN]" not in zh
    assert "how much is link 3" in en and not re.search(r"[\u4e00-\u9fff]{2}", en.split("## Example")[1])
    # a locale without an example of its own gets no example section at all
    assert "## Example" not in skill_text(body, "fr_FR")
    import json

    trace = tmp_path / "t.jsonl"
    run_session(LiveSession("electronics_en", duration_s=120, trace=trace), make_agent("reference"))
    records = [json.loads(x) for x in trace.read_text(encoding="utf-8").splitlines()]
    loaded = [m["content"] for r in records if r["type"] == "request" for m in r["messages"]
              if m["role"] == "tool" and m["content"].startswith("# item-qa")]
    assert loaded and all("[en_US]" not in t and "3号" not in t and "how much is link 3" in t for t in loaded)


def test_injection_payloads_fit_the_rooms_products() -> None:
    skin = {"skincare", "cosmetics"}
    assert set(injection_payloads("en_US", {"skincare"})) == set(injection_payloads("en_US"))
    electronics = injection_payloads("en_US", {"electronics"})
    assert electronics and not any("acne" in p or "eczema" in p for p in electronics)
    zh_food = injection_payloads("zh_CN", {"health_food"})
    assert "吃了就能降血压" in zh_food and not any("湿疹" in p or "祛斑" in p for p in zh_food)
    assert "吃了就能降血压" not in injection_payloads("zh_CN", skin)
    s = LiveSession("electronics_en", duration_s=900)
    run_session(s, make_agent("reference"))
    said = [i.payload for o, _c, _s in s.outcomes for c in o.request.comments for i in c.intents if i.payload]
    assert said and all(p in electronics for p in said)


def test_money_and_numbers_follow_the_locale_format() -> None:
    assert get_locale("en_US").formats.amount(89.5) == "$89.5"
    assert get_locale("zh_CN").formats.amount(129) == "129元"
    euro = Formats(money="{amount} €", decimal_sep=",", fraction_digits=2)
    assert euro.amount(89.5) == "89,50 €" and euro.amount(12) == "12 €" and euro.number(2.25) == "2,25"
    with pytest.raises(ValueError, match="lacks"):
        Formats(money="EUR")


@pytest.mark.parametrize("old,new,field,reason", [
    ("    ref_full: Link {n}\n", "", "reply.sentences", r"missing sentence\(s\) \['ref_full'\]"),
    ("    ref_full: Link {n}\n", "    ref_full: Link {n}\n    ref_fulll: x\n", "reply.sentences.ref_fulll",
     "unknown sentence"),
    ("    day_one: day\n", "    day_one: [day, d]\n", "reply.sentences.day_one", "must be one string"),
    ("    price_now: ['{L}{T} is {price} now', '{Ls} is {price}', \"It's {price}\"]\n",
     "    price_now: ['{L}{T} is {price} now', '{Ls} is {price}']\n", "reply.sentences.price_now", "list of 3"),
    ("    stock_in: ['{L} is in stock, {n} available',", "    stock_in: ['{L} is in stock, {stock} available',",
     "reply.sentences.stock_in.0", r"placeholder \{stock\} is not allowed"),
    ("  product_line: '- link {link}: {title} (id {product_id}, {category})'",
     "  product_line: '- link {link}: (id {product_id})'", "prompt.product_line", r"lacks \{title\}"),
    ("  money: ${amount}", "  money: ${amount.real}", "formats.money", "is not allowed"),
])
def test_bad_text_sections_name_file_field_and_line(tmp_path: Path, old: str, new: str, field: str,
                                                    reason: str) -> None:
    text = (locales_dir() / "en_US.yaml").read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    p = tmp_path / "en_US.yaml"
    p.write_text(text.replace(old, new), encoding="utf-8")
    with pytest.raises(FileError) as err:
        load_locale_file(p)
    assert any(f == field and ln is not None and re.search(reason, r) for f, ln, r in err.value.problems), \
        err.value.problems


def _room_with_own_locale(tmp_path: Path, header: str = "Chat:") -> Path:
    """electronics_en copied to ``tmp_path`` as a room in locale ``en_XX`` whose file is in ``locales/``."""
    from hat_env.sim.scenario import resolve_scenario_path

    text = resolve_scenario_path("electronics_en").read_text(encoding="utf-8")
    sc = tmp_path / "room.yaml"
    sc.write_text(text.replace("locale: en_US", "locale: en_XX"), encoding="utf-8")
    loc = (locales_dir() / "en_US.yaml").read_text(encoding="utf-8")
    loc = loc.replace("locale: en_US", "locale: en_XX\nfaker_locale: en_US").replace("  user_header: 'Viewer comments:'",
                                                                f"  user_header: '{header}'")
    loc = loc.replace("  money: ${amount}", "  money: '{amount} USD'").replace("  name: English", "  name: Xenglish")
    (tmp_path / "locales").mkdir()
    (tmp_path / "locales" / "en_XX.yaml").write_text(loc, encoding="utf-8")
    return sc


def test_a_room_brings_its_own_locale_file(tmp_path: Path) -> None:
    sc = _room_with_own_locale(tmp_path)
    h = _default({"op": "set", "path": "prompt.language", "value": "room"})
    s = LiveSession(sc, harness=h, duration_s=120)
    system, user = _system_and_user(s)
    assert user.startswith("Chat:\n[") and "in Xenglish, out loud" in system
    reply = make_agent("reference")
    while True:
        out = reply.act(s.loop.agent_request())
        if s.feed(out) is not None:
            break
    assert s.outcomes[-1][0].reply  # the reference found the comments under the room's header
    assert get_locale("en_XX").formats.amount(5) == "5 USD"


def test_an_unknown_locale_or_a_clash_is_refused_with_file_and_line(tmp_path: Path) -> None:
    from hat_env.sim.scenario import load_scenario, resolve_scenario_path

    text = resolve_scenario_path("electronics_en").read_text(encoding="utf-8")
    sc = tmp_path / "room.yaml"
    sc.write_text(text.replace("locale: en_US", "locale: fr_FR"), encoding="utf-8")
    line = next(i for i, ln in enumerate(sc.read_text().splitlines(), 1) if ln.startswith("locale:"))
    with pytest.raises(FileError) as err:
        load_scenario(sc)
    assert any(f == "locale" and ln == line and "locales/fr_FR.yaml" in r for f, ln, r in err.value.problems)
    first, other = tmp_path / "first", tmp_path / "other"
    first.mkdir()
    other.mkdir()
    load_scenario(_room_with_own_locale(first))
    clash = _room_with_own_locale(other, header="Talk:")
    with pytest.raises(FileError, match="another file already defines locale 'en_XX'"):
        load_scenario(clash)
