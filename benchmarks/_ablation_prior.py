"""The shared initial model's pretraining for the HSA ablation (``benchmarks/hsa_ablation.py``): a task-free
language prior, what a pretrained base model has and a from-scratch tiny model lacks.

Three kinds of text, mixed in every batch, none of them a tool call, a harness or a viewer's comment:

- **identifiers** (:func:`identifier_texts`): code-like lines and sentences that define and use identifiers of
  2-4 words in every casing (snake, camel, Pascal, kebab, SCREAMING, dotted), drawn from a word pool made of the
  words of both HSA vocabulary families (so the held-out family's words and casings are ordinary text here) and
  general programming words; an identifier is mentioned, then repeated or picked from a list by a word it
  contains, so the model learns to write identifiers of any style it has read in its context;
- **copy** (:func:`copy_batch`): a random token sequence and its repeat (every token gets an embedding; copying
  values such as link numbers);
- **general chat** (:func:`general_chat_rows`): short general instructions with verifiable reply constraints and
  replies that satisfy them, in the model's chat template, outside the live room (the general ability that
  IFEval-live measures and that fixed-harness SFT may lose).

Everything is seeded. Imports of torch and transformers happen inside the functions.
"""

from __future__ import annotations

import random
import re
import time
from pathlib import Path
from typing import Any, Callable

#: Casing styles of the identifiers (every style of both HSA families, and more).
STYLES: tuple[str, ...] = ("snake", "camel", "pascal", "kebab", "screaming", "dot")

#: General programming words, so the pool is not only the HSA families' words.
GENERAL_WORDS: tuple[str, ...] = (
    "add", "apply", "array", "batch", "buffer", "build", "cache", "check", "clear", "client", "close", "config",
    "count", "create", "data", "date", "delete", "display", "event", "file", "filter", "flag", "format", "handle",
    "index", "init", "input", "key", "label", "limit", "load", "log", "map", "merge", "mode", "name", "node",
    "open", "output", "page", "parse", "path", "queue", "range", "record", "render", "reset", "result", "save",
    "scale", "score", "search", "select", "server", "set", "size", "sort", "source", "state", "status", "store",
    "stream", "table", "task", "text", "time", "token", "total", "update", "user", "value", "view", "write",
)

_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+")


def split_words(identifier: str) -> list[str]:
    """The lower-case words of an identifier in any casing (``PullGoodsOnLink`` -> pull, goods, on, link)."""
    return [w.lower() for w in _WORD.findall(identifier)]


def word_pool() -> list[str]:
    """The identifier words: every word of both HSA families' tool, parameter, wrapper, enum and result names,
    and :data:`GENERAL_WORDS` (sorted, unique)."""
    from hat_env.hsa.vocab import FAMILIES, vocabulary

    words: set[str] = set(GENERAL_WORDS)
    for fam in FAMILIES:
        v = vocabulary(fam)
        for kind in ("tool_name", "param_name", "wrapper", "skill_tool_name", "skill_tool_param", "enum_value",
                     "result_field"):
            for text in v.values.get(kind, ()):
                words.update(w for w in split_words(text) if len(w) > 1)
    return sorted(words)


def identifier(rng: random.Random, words: list[str], style: str | None = None) -> tuple[str, list[str]]:
    """A random identifier of 2-4 words from ``words`` in ``style`` (random when ``None``); returns it and its
    words."""
    from hat_env.hsa.vocab import case_words

    ws = [rng.choice(words) for _ in range(rng.randint(2, 4))]
    return case_words(ws, style or rng.choice(STYLES)), ws


def identifier_texts(n: int, seed: int) -> list[str]:
    """``n`` short code-like texts that define and use identifiers of every casing (see the module docstring):
    a function defined and called, a name picked from a list by a word it contains, an API reference line and its
    use, an assignment, a rename. Numbers are repeated too (a value read earlier is written again)."""
    rng = random.Random(f"{seed}:identifiers")
    words = word_pool()
    out: list[str] = []
    for _ in range(n):
        a, aw = identifier(rng, words)
        b, _bw = identifier(rng, words)
        c, _cw = identifier(rng, words)
        p, _pw = identifier(rng, words)
        k = rng.randint(1, 99)
        form = rng.randrange(6)
        if form == 0:
            text = f"def {a}({p}):\n    return {b}({p})\n\nvalue = {k}\nresult = {a}({p}={k})"
        elif form == 1:
            cue = next((w for w in aw if w not in split_words(b) + split_words(c)), aw[0])
            names = [a, b, c]
            rng.shuffle(names)
            text = f"names: {', '.join(names)}\nthe one with {cue}: {a}"
        elif form == 2:
            cue = next((w for w in aw if w not in split_words(b) + split_words(c)), aw[0])
            refs = [f"{x}({y}) - {' '.join(split_words(x))}" for x, y in ((a, p), (b, p), (c, p))]
            rng.shuffle(refs)
            text = "API:\n" + "\n".join(refs) + f"\n# {cue} for {k}\n{a}({p}={k})"
        elif form == 3:
            text = f"Call {a} with {p} set to {k}. {a} returns the {' '.join(aw)}. Example: {a}({k})"
        elif form == 4:
            text = f"{a} = {b}.{c}({k})\nprint({a}, {k})"
        else:
            text = f"rename {b} to {a}, then use {a} in {c}"
        out.append(text)
    return out


# -- general chat ------------------------------------------------------------------------------------------

_TOPICS: tuple[tuple[str, str], ...] = (
    ("why the sky is blue", "Sunlight scatters in the air and blue light scatters the most"),
    ("how to keep a plant healthy", "Give it light and water it when the soil is dry"),
    ("what a good breakfast is", "Eggs and fruit give you energy for the morning"),
    ("why people sleep", "Sleep lets the body rest and the brain store memories"),
    ("how to learn a language", "Practice a little every day and speak with people"),
    ("what rain is", "Rain is water that falls from clouds"),
    ("how bikes stay up", "A moving bike keeps its balance as the rider steers"),
    ("why exercise helps", "Exercise makes the heart and muscles stronger"),
    ("what a library is", "A library is a place where people borrow books"),
    ("how to write a letter", "Start with a greeting and say what you need clearly"),
    ("what the moon is", "The moon is a rock that travels around the earth"),
    ("how to save money", "Spend less than you earn and keep the rest"),
    ("why we cook food", "Cooking makes food safe and easy to eat"),
    ("what music is", "Music is sound arranged in time"),
    ("how bees make honey", "Bees turn flower nectar into honey in the hive"),
    ("how to stay calm", "Breathe slowly and take one step at a time"),
)


def general_chat_rows(n: int, seed: int) -> list[dict[str, Any]]:
    """``n`` general chat rows ``{"messages"}``: a system prompt whose rules are 1-3 IFEval-style instructions
    (worded by :func:`hat_env.ifeval.describe`, as a harness's rules section words them), a general
    question (not about a live room), and a reply rewritten by
    :func:`hat_env.agents.instructions.satisfy_all` to follow them (rows whose reply still fails a strict check
    are skipped)."""
    from hat_env.evaluation.ifeval import evaluate
    from hat_env.agents.instructions import satisfy_all
    from hat_env.evaluation.instruction_sampling import sample_instructions
    from hat_env.ifeval import describe, make_context

    rng = random.Random(f"{seed}:general-chat")
    rows: list[dict[str, Any]] = []
    tries = 0
    while len(rows) < n and tries < 20 * n:
        tries += 1
        insts = sample_instructions(rng, "en_US")
        topic, answer = rng.choice(_TOPICS)
        question = f"Tell me {topic}."
        ctx = make_context([question], ["friend"])
        reply = satisfy_all(answer + ".", insts, "en_US", ctx)
        if not all(evaluate(reply, insts, "en_US", ctx).strict):
            continue
        rules = "\n".join(f"- {describe(i, 'en_US')}" for i in insts)
        rows.append({"messages": [
            {"role": "system", "content": f"You are a helpful assistant.\nRules:\n{rules}"},
            {"role": "user", "content": f"[friend] {question}"},
            {"role": "assistant", "content": reply}]})
    return rows


# -- the pretraining loop ----------------------------------------------------------------------------------


def copy_batch(rng: random.Random, pool: list[int], sep: int, batch: int, span: int) -> tuple[list[list[int]], int]:
    """``batch`` rows ``w1..wk <sep> w1..wk`` of tokens drawn from ``pool``; returns the rows and ``k`` (the loss
    covers the repeat only)."""
    k = rng.randint(span // 2, span)
    rows = []
    for _ in range(batch):
        w = [rng.choice(pool) for _ in range(k)]
        rows.append(w + [sep] + w)
    return rows, k


def pretrain(model_dir: Path, texts: list[str], chat_rows: list[dict[str, Any]], steps: int, batch: int, lr: float,
             threads: int, seed: int, copy_share: float = 0.25, log: Callable[[str], None] = print) -> dict[str, Any]:
    """Pretrain the model in ``model_dir`` in place (plain PyTorch, AdamW, one-cycle schedule).

    Each step is a copy batch with probability ``copy_share``, else a batch of identifier texts or (in
    proportion to their count) of chat rows, rendered by the model's chat template; the loss is on every token (a
    language prior, not SFT). One kind per batch keeps the padding small. Returns the steps, seconds and the mean
    losses of the first and last 5% of steps.
    """
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    torch.set_num_threads(threads)
    torch.manual_seed(seed)
    rng = random.Random(f"{seed}:pretrain")
    tok = AutoTokenizer.from_pretrained(str(model_dir))
    model = AutoModelForCausalLM.from_pretrained(str(model_dir))
    special = set(tok.all_special_ids)
    pool = [i for i in range(len(tok)) if i not in special]
    sep = tok.convert_tokens_to_ids("<tool_call>")
    pad = tok.pad_token_id
    kinds = [[tok(t, add_special_tokens=False)["input_ids"] + [tok.eos_token_id] for t in texts],
             [tok.apply_chat_template(r["messages"], tokenize=True, return_dict=True)["input_ids"] for r in chat_rows]]
    chat_share = len(chat_rows) / max(1, len(texts) + len(chat_rows))
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.0)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.05)
    model.train()
    t0 = time.perf_counter()
    losses: list[float] = []
    for step in range(steps):
        if rng.random() < copy_share:
            rows, k = copy_batch(rng, pool, sep, batch * 2, 16)
            x = torch.tensor(rows)
            labels = x.clone()
            labels[:, : k + 1] = -100
            att = torch.ones_like(x)
        else:
            docs = kinds[1] if kinds[1] and rng.random() < max(chat_share, 0.3) else kinds[0]
            pick = [docs[rng.randrange(len(docs))] for _ in range(batch)]
            n = max(len(d) for d in pick)
            x = torch.full((len(pick), n), pad, dtype=torch.long)
            att = torch.zeros_like(x)
            for i, d in enumerate(pick):
                x[i, : len(d)] = torch.tensor(d)
                att[i, : len(d)] = 1
            labels = x.masked_fill(att == 0, -100)
        loss = model(input_ids=x, attention_mask=att, labels=labels).loss
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        sched.step()
        opt.zero_grad()
        losses.append(loss.item())
        if (step + 1) % max(1, steps // 10) == 0:
            log(f"pretrain step {step + 1}/{steps}: loss {sum(losses[-50:]) / len(losses[-50:]):.3f}")
    model.save_pretrained(str(model_dir), safe_serialization=True)
    m = max(1, steps // 20)
    return {"steps": steps, "batch": batch, "texts": len(texts), "chat_rows": len(chat_rows),
            "copy_share": copy_share, "seconds": round(time.perf_counter() - t0, 1),
            "first_loss": round(sum(losses[:m]) / m, 4), "last_loss": round(sum(losses[-m:]) / m, 4)}
