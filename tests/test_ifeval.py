"""Live-IFEval: every instruction type (good / bad replies per locale; the reference agent's rewrites on sampled
params and realistic replies), validation and the suite sampler, strict vs loose, IFEval's aggregate numbers, and the
reference agent following instructions set on a live session's harness."""

from __future__ import annotations

import random
from typing import Any

import pytest

from hat_env import ifeval as I
from hat_env.agents import instructions as follow
from hat_env.agents import make_agent
from hat_env.agents.reply import FORBIDDEN_REPLY_TERMS
from hat_env.envs.session import LiveSession
from hat_env.evaluation import instruction_sampling as S
from hat_env.evaluation.ifeval import IFEvalResult, aggregate, by_type, evaluate, loose_variants
from hat_env.harness.render import render_system
from hat_env.runner import run_session
from hat_env.locales import get_locale
from hat_env.sim.compliance import RuleSet

ZH, EN = "zh_CN", "en_US"
CTX_ZH = I.make_context(["3号链接多少钱？", "有优惠券吗"], ["小鹿", "阿杰"])
CTX_EN = I.make_context(["how much is link 3?", "any coupon?"], ["Nancy Clark", "Sam"])

# (type, params, locale, context, good reply, bad reply)
CASES: list[tuple[str, dict[str, Any], str, dict[str, Any], str, str]] = [
    ("keywords:existence", {"keywords": ["福利", "下单"]}, ZH, CTX_ZH, "福利来了，喜欢就下单吧！", "3号链接券后价89元。"),
    ("keywords:existence", {"keywords": ["deal"]}, EN, CTX_EN, "Great DEAL on link 3!", "Link 3 has deals today."),
    ("keywords:frequency", {"keyword": "下单", "frequency": 2, "relation": "at least"}, ZH, CTX_ZH,
     "下单下单，快下单", "喜欢就下单吧"),
    ("keywords:frequency", {"keyword": "cart", "frequency": 2, "relation": "less than"}, EN, CTX_EN,
     "Add it to your cart.", "Cart! Add it to your cart."),
    ("keywords:forbidden_words", {"forbidden_words": ["哦", "真的"]}, ZH, CTX_ZH, "3号链接券后价89元。",
     "今天下单就是这个价哦～"),
    ("keywords:forbidden_words", {"forbidden_words": ["now"]}, EN, CTX_EN, "Link 3 is $99, nowhere cheaper.",
     "Link 3 is $99 now."),
    ("keywords:mention_link", {"link": 3}, ZH, CTX_ZH, "3号链接券后价89元。", "13号券后价89元。"),
    ("keywords:mention_link", {"link": 3}, ZH, CTX_ZH, "链接3券后价89元。", "链接33券后价89元。"),
    ("keywords:mention_link", {"link": 3}, EN, CTX_EN, "Item #3 is $99.", "Link 33 is $99."),
    ("detectable_content:mention_viewer", {}, ZH, CTX_ZH, "@小鹿 3号链接券后价89元。", "3号链接券后价89元。"),
    ("detectable_content:mention_viewer", {}, EN, CTX_EN, "nancy clark, link 3 is $99.", "Link 3 is $99."),
    ("detectable_content:mention_viewer", {"name": "Sam"}, EN, {}, "Sam, link 3 is $99.", "Link 3 is $99."),
    ("language:response_language", {"language": "zh"}, ZH, CTX_ZH, "3号链接清透防晒霜 SPF50，到手89元。",
     "Link 3 is $99 now."),
    ("language:response_language", {"language": "en"}, EN, CTX_EN, "Link 3 is $99 now.", "3号链接券后价89元。"),
    ("length_constraints:number_words", {"num_words": 5, "relation": "at least"}, EN, CTX_EN,
     "Link 3 is $99 now.", "Link 3 is $99."),
    ("length_constraints:number_words", {"num_words": 5, "relation": "less than"}, EN, CTX_EN,
     "Link 3 is $99.", "Link 3 is $99 now."),
    ("length_constraints:number_chars", {"num_chars": 10, "relation": "at least"}, ZH, CTX_ZH,
     "3号链接 券后价89元。", "3号 89元。"),
    ("length_constraints:number_chars", {"num_chars": 10, "relation": "less than"}, ZH, CTX_ZH,
     "3号 到手 89元。", "3号链接券后价89元。"),
    ("length_constraints:number_chars", {"num_chars": 10, "relation": "less than"}, EN, CTX_EN,
     "Link 3 $99", "Link 3 is $99"),
    ("length_constraints:number_sentences", {"num_sentences": 2, "relation": "at least"}, ZH, CTX_ZH,
     "3号链接到手89元。有问题随时问我！", "3号链接券后价89元，今天下单就是这个价哦～"),
    ("length_constraints:number_sentences", {"num_sentences": 2, "relation": "less than"}, EN, CTX_EN,
     "Link 3 is $39.99 now, P.S. it ships fast.", "Link 3 is $99. It ships fast."),
    ("detectable_content:postscript", {"postscript_marker": "P.S."}, ZH, CTX_ZH, "到手89元。P.S. 下次开播见。",
     "到手89元。PS 下次见。"),
    ("detectable_content:postscript", {"postscript_marker": "附："}, ZH, CTX_ZH, "到手89元。\n附：下次开播见。",
     "到手89元。附言下次见。"),
    ("detectable_content:postscript", {"postscript_marker": "P.P.S"}, EN, CTX_EN, "Link 3 is $99.\nP.P.S see you.",
     "Link 3 is $99. P.S. see you."),
    ("startend:start_checker", {"start_phrase": "家人们好"}, ZH, CTX_ZH, "家人们好！3号链接到手89元。",
     "3号链接到手89元，家人们好"),
    ("startend:start_checker", {"start_phrase": "Hey everyone"}, EN, CTX_EN, '"hey everyone! Link 3 is $99."',
     "Link 3 is $99. Hey everyone"),
    ("startend:end_checker", {"end_phrase": "我们下次见～"}, ZH, CTX_ZH, "到手89元。我们下次见～ ",
     "我们下次见～到手89元。"),
    ("startend:end_checker", {"end_phrase": "Happy shopping!"}, EN, CTX_EN, '"Link 3 is $99. Happy shopping!"',
     "Happy shopping! Link 3 is $99."),
    ("startend:quotation", {}, ZH, CTX_ZH, "“3号链接到手89元。”", "3号链接“到手89元”。"),
    ("startend:quotation", {}, EN, CTX_EN, '"Link 3 is $99."', 'Link 3 is "$99".'),
    ("change_case:english_lowercase", {}, EN, CTX_EN, "link 3 is $99 now.", "Link 3 is $99 now."),
    ("change_case:english_capital", {}, EN, CTX_EN, "LINK 3 IS $99 NOW.", "LINK 3 IS $99 now."),
    ("change_case:capital_word_frequency", {"capital_frequency": 2, "capital_relation": "at least"}, EN, CTX_EN,
     "LINK 3 is $99 NOW.", "Link 3 is $99 NOW."),
    ("change_case:capital_word_frequency", {"capital_frequency": 2, "capital_relation": "less than"}, EN, CTX_EN,
     "Link 3 SPF50 is $99.", "LINK 3 SPF50 is $99."),
    ("punctuation:no_comma", {}, ZH, CTX_ZH, "3号链接券后价89元。今天下单就是这个价～", "3号链接券后价89元，今天下单～"),
    ("punctuation:no_comma", {}, EN, CTX_EN, "Link 3 is $1299 now.", "Link 3 is $1,299 now."),
    ("combination:repeat_prompt", {}, ZH, CTX_ZH, "3号链接多少钱？到手89元。", "到手89元。3号链接多少钱？"),
    ("combination:repeat_prompt", {}, EN, CTX_EN, "How much is link 3? It's $99.", "It's $99."),
    ("combination:repeat_prompt", {"prompt_to_repeat": "Any coupon?"}, EN, CTX_EN, "any coupon? Yes, $10.",
     "How much is link 3? It's $99."),
]

ZH_REPLIES = [
    "3号链接券后价89元，今天下单就是这个价哦～",
    "2号链接丝绒雾面口红，现在到手99元。",
    "8号链接已经给大家挂上了，到手355元，30元券已经发了，记得领。8号链接付款后24小时内发货，中通，包邮。",
    "谢谢宝宝们的支持，喜欢哪个链接随时问我哦。",
    "抱歉，这个我不能说，我们还是聊聊商品吧。1号链接水润玻尿酸精华液 30ml，现在到手159元。",
    "4号持妆轻薄粉底液 30ml到手199元，3号清透防晒霜 SPF50到手89元，按需求选哦。6号链接有货，库存1000件。",
]
EN_REPLIES = [
    "Link 3 is $99 now.",
    "Link 5 is in stock, 700 available. Link 5: $10 off orders over $50.",
    "Link 4 $45, link 2 $35.99. Thanks for joining us, ask me anything about the products.",
    "Sorry, I can't say that, let's talk about the products.",
    "Link 1 is $1,049.99 after the $10 coupon, and a $10 coupon was just sent. Your order US1004 has shipped.",
    "The connectivity of link 3 is Bluetooth 5.2, GPS. Link 3 ships within 48h.",
]
REPLIES = {ZH: ZH_REPLIES, EN: EN_REPLIES}
CTXS = {ZH: CTX_ZH, EN: CTX_EN}


def test_at_least_twelve_types_with_ifeval_ids() -> None:
    assert len(I.INSTRUCTIONS) >= 12
    for tid in ("keywords:existence", "keywords:forbidden_words", "keywords:frequency", "language:response_language",
                "length_constraints:number_words", "length_constraints:number_chars",
                "length_constraints:number_sentences", "detectable_content:postscript", "startend:end_checker",
                "startend:quotation", "change_case:english_lowercase", "change_case:capital_word_frequency",
                "punctuation:no_comma", "combination:repeat_prompt", "startend:start_checker",
                "keywords:mention_link"):
        assert tid in I.INSTRUCTIONS
    assert {c[0] for c in CASES} == set(I.INSTRUCTIONS)  # every type has a crafted case


@pytest.mark.parametrize("case", CASES, ids=[f"{c[0]}-{c[2]}-{i}" for i, c in enumerate(CASES)])
def test_check_good_and_bad(case: tuple) -> None:
    tid, params, loc, ctx, good, bad = case
    t = I.INSTRUCTIONS[tid]
    assert t.check(good, params, loc, ctx), good
    assert not t.check(bad, params, loc, ctx), bad
    inst = {"type": tid, **params}
    assert I.check(good, inst, loc, ctx) and not I.check(bad, inst, loc, ctx)
    # the reference agent's rewrite repairs the bad reply and leaves the good one alone
    assert follow.satisfy(good, inst, loc, ctx) == good
    if tid != "language:response_language":  # a reply in the wrong language cannot be translated
        assert t.check(follow.satisfy(bad, inst, loc, ctx), params, loc, ctx)


def test_counting_rules() -> None:
    assert I.count_words("Link 3 is $99.99 now") == 6  # \w+ as IFEval: 99 and 99
    assert I.count_words("3号链接券后价89元") == 1  # \w+ does not segment Chinese: hence number_chars
    assert I.count_chars("3号 链接 89元。") == 8
    assert I.count_sentences("3号链接到手89元。有货！要吗？") == 3
    assert I.count_sentences("Link 3 weighs 3.5g. P.S. it ships in 24h. Mr. Lee asked!") == 3
    assert I.count_sentences("今天下单就是这个价哦～") == 1
    assert I.count_capital_words("LINK 3 SPF50 I am $99") == 3
    assert I.split_sentences("A. B! 好。") == ["A. ", "B! ", "好。"]
    assert I.count_term("Deals! deal? ideal", "deal") == 1  # ASCII at word boundaries, any case
    assert I.count_term("下单下单，快下单", "下单") == 3  # Chinese as substrings


def test_validation_errors_name_the_problem() -> None:
    with pytest.raises(ValueError, match="unknown instruction type"):
        I.validate_instruction({"type": "keywords:nope"})
    with pytest.raises(ValueError, match="relation"):
        I.validate_instruction({"type": "length_constraints:number_words", "num_words": 5, "relation": "more than"})
    with pytest.raises(ValueError, match="extra|not permitted"):
        I.validate_instruction({"type": "punctuation:no_comma", "oops": 1})
    with pytest.raises(ValueError, match="instructions\\[1\\]"):
        I.validate_instructions([{"type": "punctuation:no_comma"}, {"type": "keywords:existence", "keywords": []}])
    with pytest.raises(ValueError, match="'type'"):
        I.validate_instruction({"keywords": ["a"]})
    assert I.validate_instruction({"type": "detectable_content:postscript"}) == {
        "type": "detectable_content:postscript", "postscript_marker": "P.S."}


@pytest.mark.parametrize("locale", [ZH, EN])
def test_describe_in_the_locale_language(locale: str) -> None:
    rng = random.Random(1)
    for tid in I.INSTRUCTIONS:
        params = S.sample_params(tid, rng, locale)
        text = I.describe({"type": tid, **params}, locale)
        assert text and "{" not in text
        has_cjk = any("\u4e00" <= ch <= "\u9fff" for ch in text)
        assert has_cjk == (locale == ZH), text


@pytest.mark.parametrize("locale", [ZH, EN])
def test_satisfy_on_sampled_params_and_realistic_replies(locale: str) -> None:
    rng = random.Random(7)
    ctx = CTXS[locale]
    for tid in S.types_for(locale):
        t = I.INSTRUCTIONS[tid]
        for _ in range(25):
            params = S.sample_params(tid, rng, locale)
            t.validate(params)
            inst = {"type": tid, **params}
            for reply in REPLIES[locale]:
                out = follow.satisfy(reply, inst, locale, ctx)
                assert t.check(out, params, locale, ctx), (tid, params, reply, out)
                assert follow.satisfy(reply, inst, locale, ctx) == out  # deterministic
                if len(reply) <= 60:
                    assert len(out) <= 150, (tid, params, out)


@pytest.mark.parametrize("locale", [ZH, EN])
def test_satisfy_all_on_sampled_sets_within_max_length(locale: str) -> None:
    rng = random.Random(11)
    for _ in range(150):
        insts = S.sample_instructions(rng, locale)
        for reply in REPLIES[locale]:
            out = follow.satisfy_all(reply, insts, locale, CTXS[locale], max_chars=150)
            assert all(I.check_all(out, insts, locale, CTXS[locale])), (insts, reply, out)
            assert len(out) <= 150, (insts, out)
            assert evaluate(out, insts, locale, CTXS[locale]).prompt_strict


def test_satisfy_all_keeps_protected_text() -> None:
    ctx = I.make_context(["how much is link 3?"], keep=["(AI host)"])
    insts = [{"type": "change_case:english_lowercase"}, {"type": "keywords:forbidden_words", "forbidden_words": ["AI"]}]
    out = follow.satisfy_all("Link 3 is $99. (AI host)", insts, EN, ctx)
    assert "(AI host)" in out and out.startswith("link 3")
    # shortening never drops the sentence holding a required keyword
    insts = [{"type": "keywords:existence", "keywords": ["deal"]},
             {"type": "length_constraints:number_words", "num_words": 12, "relation": "less than"}]
    out = follow.satisfy_all(EN_REPLIES[4], insts, EN, CTX_EN)
    assert all(I.check_all(out, insts, EN, CTX_EN)) and "deal" in out.lower()


def test_fit_reply_shortens_the_composed_reply_first() -> None:
    long = "Link 1 is $49.99 after the $10 coupon. Link 2 is $35.99 now. Link 5 is in stock, 700 available."
    short = "Link 1 $49.99. Link 2 $35.99. Link 5: 700 in stock."
    insts = [{"type": "startend:end_checker", "end_phrase": "Happy shopping!"}]
    out = follow.fit_reply(lambda b: long if b >= 100 else short, insts, EN, CTX_EN, max_chars=100, budget=100)
    assert out == short + " Happy shopping!"


def test_sampler_draws_compatible_locale_sets() -> None:
    rng = random.Random(3)
    en_only = {"length_constraints:number_words", "change_case:english_lowercase", "change_case:english_capital",
               "change_case:capital_word_frequency"}
    seen: set[str] = set()
    for locale in (ZH, EN):
        for _ in range(400):
            insts = S.sample_instructions(rng, locale)
            assert 1 <= len(insts) <= 3
            types = [i["type"] for i in insts]
            assert len(set(types)) == len(types)
            for a in range(len(insts)):
                I.validate_instruction(insts[a])
                for b in range(a + 1, len(insts)):
                    assert S.compatible(insts[a], insts[b])
            assert not (set(types) >= {"change_case:english_lowercase", "change_case:capital_word_frequency"})
            if locale == ZH:
                assert not (set(types) & en_only)
            seen |= set(types)
        assert len(S.sample_instructions(rng, locale, 3)) == 3
    assert seen == set(I.INSTRUCTIONS)
    a = S.sample_instructions(random.Random(5), EN, 3)
    assert a == S.sample_instructions(random.Random(5), EN, 3)
    with pytest.raises(ValueError):
        S.sample_instructions(rng, EN, 0)


def test_word_pools_are_clean() -> None:
    rules = RuleSet.default()
    for loc in (ZH, EN):
        w = get_locale(loc).ifeval
        texts = (list(w.keywords) + list(w.keywords.values()) + list(w.start_phrases)
                 + list(w.end_phrases) + list(w.fillers) + [w.postscript_text]
                 + [f"大家也可以看看5号链接。" if loc == ZH else "Also check out link 5."])
        for text in texts:
            assert "," not in text and "，" not in text, text
            assert not any(I.count_term(text, f) for f in w.forbidden_pool), text
            assert not any(t.lower() in text.lower() for t in FORBIDDEN_REPLY_TERMS), text
            assert not rules.check(text, loc, {"cosmetics", "skincare", "health_food", "electronics"}), text
            assert not any(ch.isdigit() for ch in text.replace("5号", "").replace("link 5", ""))
        phrases = list(w.start_phrases) + list(w.end_phrases) + list(w.fillers) + [w.postscript_text]
        for kw, sentence in w.keywords.items():
            assert I.count_term(sentence, kw) == 1
            assert not any(I.count_term(p, kw) for p in phrases), kw
            for other in w.keywords:
                if other != kw:
                    assert not I.count_term(sentence, other), (sentence, other)


# --- strict / loose / aggregate ----------------------------------------------------------------------------


def test_loose_variants_are_ifevals_eight() -> None:
    v = loose_variants("**Hi**\nbody *x*\nend")
    assert v == ["**Hi**\nbody *x*\nend", "Hi\nbody x\nend", "body *x*\nend", "**Hi**\nbody *x*", "body *x*",
                 "body x\nend", "Hi\nbody x", "body x"]


def test_strict_and_loose_differ_on_leading_line_and_markup() -> None:
    insts = [
        {"type": "startend:start_checker", "start_phrase": "Link 3"},
        {"type": "startend:end_checker", "end_phrase": "Happy shopping!"},
        {"type": "punctuation:no_comma"},
    ]
    reply = "Sure, here is the answer:\nLink 3 is $99 now. **Happy shopping!**"
    r = evaluate(reply, insts, EN, CTX_EN)
    assert r.strict == [False, False, False] and not r.prompt_strict
    assert r.loose == [True, True, True] and r.prompt_loose  # first line dropped; '*' removed
    zh = "好的，马上回答：\n3号链接到手89元。**我们下次见～**"
    r = evaluate(zh, [{"type": "startend:end_checker", "end_phrase": "我们下次见～"},
                      {"type": "punctuation:no_comma"}], ZH, CTX_ZH)
    assert r.strict == [False, False] and r.loose == [True, True]
    # a trailing line that breaks the end phrase: loose drops the last line
    r = evaluate("Link 3 is $99. Happy shopping!\n(answer generated)", insts[1:2], EN, CTX_EN)
    assert r.strict == [False] and r.loose == [True]


def test_empty_reply_fails_everything() -> None:
    r = evaluate("   ", [{"type": "keywords:forbidden_words", "forbidden_words": ["now"]},
                         {"type": "punctuation:no_comma"}], EN)
    assert r.strict == [False, False] and r.loose == [False, False]


def test_aggregate_on_a_hand_made_example() -> None:
    results = [
        IFEvalResult(["a", "b"], strict=[True, True], loose=[True, True]),
        IFEvalResult(["a", "c"], strict=[True, False], loose=[True, True]),
        IFEvalResult(["b"], strict=[False], loose=[False]),
        IFEvalResult(["a", "b", "c"], strict=[False, True, False], loose=[True, True, False]),
    ]
    agg = aggregate(results)
    assert agg["prompt_strict"] == pytest.approx(1 / 4)
    assert agg["inst_strict"] == pytest.approx(4 / 8)
    assert agg["prompt_loose"] == pytest.approx(2 / 4)
    assert agg["inst_loose"] == pytest.approx(6 / 8)
    assert agg["prompts"] == 4 and agg["instructions"] == 8
    assert aggregate([r.to_dict() for r in results]) == agg
    assert aggregate([])["prompt_strict"] == 0.0
    bt = by_type(results)
    assert bt["a"] == {"strict": 2 / 3, "loose": 1.0, "n": 3}


def test_evaluate_rejects_unknown_types() -> None:
    with pytest.raises(ValueError):
        evaluate("hi", [{"type": "detectable_format:json_format"}], EN)


# --- the harness and the reference agent -------------------------------------------------------------------


def _instructed_session(scenario: str, insts: list[dict[str, Any]]) -> LiveSession:
    session = LiveSession(scenario, seed=1, duration_s=120)
    session.base_harness = session.harness = session.harness.apply(
        [{"op": "set", "path": "constraints.instructions", "value": insts}]
    )
    return session


def test_instructions_are_harness_data_validated_and_rendered() -> None:
    insts = [{"type": "startend:end_checker", "end_phrase": "我们下次见～"}, {"type": "punctuation:no_comma"}]
    session = _instructed_session("beauty_zh", insts)
    assert session.harness.spec.constraints.instructions == insts
    system = render_system(session.harness, session.room, session.scenario.room)
    for inst in insts:
        assert f"- {I.describe(inst, 'zh_CN')}" in system
    with pytest.raises(Exception, match="unknown instruction type"):
        session.harness.apply([{"op": "set", "path": "constraints.instructions", "value": [{"type": "nope"}]}])


_VIEWER_TEXT = {"combination:repeat_prompt", "detectable_content:mention_viewer"}

E2E_SETS: dict[str, list[list[dict[str, Any]]]] = {
    "beauty_zh": [
        [{"type": "startend:start_checker", "start_phrase": "家人们好"},
         {"type": "startend:end_checker", "end_phrase": "有问题随时问我！"}],
        [{"type": "keywords:existence", "keywords": ["福利"]}, {"type": "keywords:forbidden_words",
                                                                 "forbidden_words": ["哦", "呢"]},
         {"type": "punctuation:no_comma"}],
        [{"type": "length_constraints:number_chars", "num_chars": 80, "relation": "less than"},
         {"type": "detectable_content:postscript", "postscript_marker": "P.S."}, {"type": "startend:quotation"}],
        [{"type": "length_constraints:number_sentences", "num_sentences": 3, "relation": "less than"},
         {"type": "keywords:mention_link", "link": 2}, {"type": "detectable_content:mention_viewer"}],
        [{"type": "combination:repeat_prompt"}, {"type": "keywords:existence", "keywords": ["下单"]}],
    ],
    "electronics_en": [
        [{"type": "change_case:english_lowercase"}, {"type": "startend:end_checker", "end_phrase": "Happy shopping!"}],
        [{"type": "length_constraints:number_words", "num_words": 20, "relation": "less than"},
         {"type": "keywords:frequency", "keyword": "deal", "frequency": 2, "relation": "at least"}],
        [{"type": "change_case:capital_word_frequency", "capital_frequency": 2, "capital_relation": "at least"},
         {"type": "punctuation:no_comma"}, {"type": "detectable_content:postscript", "postscript_marker": "P.P.S"}],
        [{"type": "length_constraints:number_sentences", "num_sentences": 2, "relation": "at least"},
         {"type": "startend:start_checker", "start_phrase": "Hey everyone"}, {"type": "startend:quotation"}],
        [{"type": "combination:repeat_prompt"}, {"type": "change_case:english_capital"}],
    ],
}


def _assert_follows(scenario: str, insts: list[dict[str, Any]]) -> dict[str, Any]:
    session = _instructed_session(scenario, insts)
    summary = run_session(session, make_agent("reference"))
    loc = session.scenario.locale
    assert session.outcomes
    for out, _, _ in session.outcomes:
        ctx = I.make_context([c.text for c in out.request.comments], [c.viewer_name for c in out.request.comments])
        res = evaluate(out.reply, insts, loc, ctx)
        if res.prompt_strict:
            continue
        # the one allowed miss: a hook blocked viewer text an instruction copied in (a repeated comment holding a
        # compliance term); the retry drops that instruction instead of falling back
        blocked = any(e["decision"] == "deny" for e in out.hook_events)
        missed = {t for t, ok in zip(res.types, res.strict) if not ok}
        assert blocked and missed <= _VIEWER_TEXT and not out.fallback, (insts, out.reply, res.strict)
    return summary


@pytest.mark.parametrize("scenario", sorted(E2E_SETS))
def test_reference_follows_fixed_instruction_sets(scenario: str) -> None:
    for insts in E2E_SETS[scenario]:
        summary = _assert_follows(scenario, insts)
        assert summary["fallbacks"] == 0


@pytest.mark.parametrize("scenario", ["beauty_zh", "electronics_en"])
def test_reference_follows_sampled_instruction_sets(scenario: str) -> None:
    locale = "zh_CN" if scenario.endswith("_zh") else "en_US"
    rng = random.Random(2024)
    for _ in range(3):
        _assert_follows(scenario, S.sample_instructions(rng, locale, 3))


def test_context_accepts_comment_dicts_and_aliases() -> None:
    ctx = {"comments": [{"viewer": "用户1234", "text": "3号链接多少钱？"}]}
    assert I.prompt_of(ctx) == "3号链接多少钱？"
    assert I.prompt_of({"comment": "any coupon?"}) == "any coupon?"
    assert I.check("@用户1234 到手89元。", {"type": "detectable_content:mention_viewer"}, ZH, ctx)
    assert I.check("3号链接多少钱？到手89元。", {"type": "combination:repeat_prompt"}, ZH, ctx)
    from hat_env.evaluation.ifeval import aggregate_dicts

    r = evaluate("到手89元。", [{"type": "punctuation:no_comma"}], ZH)
    assert aggregate_dicts([r.to_dict()])["prompt_strict"] == 1.0
