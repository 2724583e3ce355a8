"""How each Live-IFEval instruction type reads in the system prompt: ``describe(params, locale) -> str``, in the
locale's language (``"zh_CN"`` or ``"en_US"``; the English texts follow IFEval's wording)."""

from __future__ import annotations

from hat_env.ifeval.params import (
    CapitalFrequencyParams,
    CharsParams,
    EndParams,
    ForbiddenParams,
    FrequencyParams,
    KeywordsParams,
    LanguageParams,
    LinkParams,
    NoParams,
    PostscriptParams,
    RepeatParams,
    SentencesParams,
    StartParams,
    ViewerParams,
    WordsParams,
)
from hat_env.ifeval.text import is_zh

_REL_ZH = {"less than": "少于", "at least": "至少"}


def _quote_list(words: list[str], zh: bool) -> str:
    return "、".join(f"“{w}”" for w in words) if zh else ", ".join(f'"{w}"' for w in words)


def existence(p: KeywordsParams, loc: str) -> str:
    if is_zh(loc):
        return f"回复中要包含这些词：{_quote_list(p.keywords, True)}。"
    return f"Include the keywords {_quote_list(p.keywords, False)} in your reply."


def frequency(p: FrequencyParams, loc: str) -> str:
    if is_zh(loc):
        return f"“{p.keyword}”这个词在回复中要出现{_REL_ZH[p.relation]}{p.frequency}次。"
    return f'In your reply, the word "{p.keyword}" should appear {p.relation} {p.frequency} times.'


def forbidden(p: ForbiddenParams, loc: str) -> str:
    if is_zh(loc):
        return f"回复中不能出现这些词：{_quote_list(p.forbidden_words, True)}。"
    return f"Do not include the keywords {_quote_list(p.forbidden_words, False)} in your reply."


def mention_link(p: LinkParams, loc: str) -> str:
    if is_zh(loc):
        return f"回复中要提到{p.link}号链接。"
    return f"Mention link {p.link} in your reply."


def mention_viewer(p: ViewerParams, loc: str) -> str:
    if p.name:
        if is_zh(loc):
            return f"回复中要点名“{p.name}”。"
        return f'Address the viewer "{p.name}" by name in your reply.'
    if is_zh(loc):
        return "回复时要带上提问观众的昵称（点名回应）。"
    return "Address the viewer who asked by their name in your reply."


def language(p: LanguageParams, loc: str) -> str:
    if is_zh(loc):
        return f"请只用{'中文' if p.language == 'zh' else '英文'}回复。"
    lang = "Chinese" if p.language == "zh" else "English"
    return f"Your ENTIRE reply should be in {lang}, no other language is allowed."


def words(p: WordsParams, loc: str) -> str:
    if is_zh(loc):
        return f"回复的英文单词数要{_REL_ZH[p.relation]}{p.num_words}个。"
    return f"Answer with {p.relation} {p.num_words} words."


def chars(p: CharsParams, loc: str) -> str:
    if is_zh(loc):
        return f"回复的字数（不计空格，标点也算）要{_REL_ZH[p.relation]}{p.num_chars}个字。"
    return f"Your reply must have {p.relation} {p.num_chars} characters (spaces not counted)."


def sentences(p: SentencesParams, loc: str) -> str:
    if is_zh(loc):
        return f"回复要{_REL_ZH[p.relation]}{p.num_sentences}句话（句子以。！？结尾）。"
    return f"Your reply should contain {p.relation} {p.num_sentences} sentences."


def postscript(p: PostscriptParams, loc: str) -> str:
    if is_zh(loc):
        return f"在回复的最后加一句以“{p.postscript_marker}”开头的附言。"
    return f"At the end of your reply, please explicitly add a postscript starting with {p.postscript_marker}"


def start(p: StartParams, loc: str) -> str:
    if is_zh(loc):
        return f"回复要以“{p.start_phrase}”开头。"
    return f'Start your reply with the exact phrase "{p.start_phrase}".'


def end(p: EndParams, loc: str) -> str:
    if is_zh(loc):
        return f"回复要以“{p.end_phrase}”结尾，后面不能再有别的内容。"
    return f'Finish your reply with this exact phrase "{p.end_phrase}". No other words should follow this phrase.'


def quotation(p: NoParams, loc: str) -> str:
    if is_zh(loc):
        return "把整个回复用双引号括起来。"
    return "Wrap your entire reply with double quotation marks."


def lowercase(p: NoParams, loc: str) -> str:
    if is_zh(loc):
        return "整个回复要用英文，并且全部是小写字母，不能有大写字母。"
    return "Your entire reply should be in English, and in all lowercase letters. No capital letters are allowed."


def uppercase(p: NoParams, loc: str) -> str:
    if is_zh(loc):
        return "整个回复要用英文，并且全部是大写字母。"
    return "Your entire reply should be in English, and in all capital letters."


def capital_frequency(p: CapitalFrequencyParams, loc: str) -> str:
    if is_zh(loc):
        return f"全大写的英文单词要出现{_REL_ZH[p.capital_relation]}{p.capital_frequency}次。"
    return (f"In your reply, words with all capital letters should appear {p.capital_relation} "
            f"{p.capital_frequency} times.")


def no_comma(p: NoParams, loc: str) -> str:
    if is_zh(loc):
        return "回复中不要使用任何逗号（，或 ,）。"
    return "In your entire reply, refrain from the use of any commas."


def repeat_prompt(p: RepeatParams, loc: str) -> str:
    if p.prompt_to_repeat:
        if is_zh(loc):
            return f"先一字不差地复述这句话，再回答（复述前不要说别的）：{p.prompt_to_repeat}"
        return f"First repeat the request word for word without change, then give your answer: {p.prompt_to_repeat}"
    if is_zh(loc):
        return "先一字不差地复述观众的问题，再回答（复述前不要说别的）。"
    return ("First repeat the viewer's question word for word without change, then give your answer "
            "(do not say anything before repeating the question).")
