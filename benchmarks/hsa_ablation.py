"""The paper's HSA finding, reproduced small through ``hat_env.train``: fixed-harness SFT vs HSA-SFT, from a
shared initial model with a task-free language prior; IFEval-live before and after SFT and after distillation.

(This module is over 500 lines: it is one experiment, whose steps are only meaningful together; the language
prior and the IFEval-live driver are in ``_ablation_prior.py`` and ``_ablation_ifeval.py``.)

From one initial tiny model, two SFT runs with the same number of examples and steps:

- (a) fixed-harness SFT: every example under the compact harness as shipped;
- (b) HSA-SFT: the same requests, a share of them under tool-schema augmentations from the ``train`` vocabulary
  family (tool and parameter names, nesting, encodings, descriptions, distractor tools, the skill tool's name).

The narrow task a tiny model can learn on two CPU cores: for a viewer's comment, write the first tool call,
reading the tool's name, its argument names and their encoding from the harness given (the reference agent's
first turn is the gold). The models are scored on the original harness and on held-out HSA variants (the
``heldout`` family: names, casings, wordings never seen in training), plus unseen variants of the ``train``
family, by teacher-forced decoding of the gold call: exact match (every token of the call is the model's greedy
choice, which is exactly when greedy decoding writes the call), tool-name match, argument match, per-token
accuracy. Each SFT arm is then distilled from the initial model on general prompts (``hat_env.train.distill``),
and the initial, SFT and distilled models are run on IFEval-live cases (``_ablation_ifeval.py``).

Everything goes through the train module: the data come from ``hat_env.train.data`` (teacher trajectories in the
simulator, HSA on a share, first assistant turn kept) and the training from ``hat_env.train.sft`` (TRL's
``SFTTrainer``, assistant-only loss). Following the CPU probe's advice (stack.md), the tiny model's tokenizer is a
BPE that splits identifiers at case and separator boundaries, learnt from the training text, the HSA vocabulary of
both families and the prior's text (the words a pretrained tokenizer knows), so a tool name is a few word tokens;
the prompt is rendered compactly by the model's own chat template (one line per tool).

The shared initial model gets what the paper's pretrained base has and a from-scratch model lacks, a task-free
language prior (``_ablation_prior.py``): code-like text defining and using identifiers of every casing over the
words of both HSA families and general words (the held-out family's words and casings as ordinary text, never in
a tool call or a harness), a copy objective over the whole vocabulary, and general chat with verifiable reply
instructions. Both arms start from that model; neither sees a harness before SFT.

    nice -n 10 python benchmarks/hsa_ablation.py            # the recorded configuration (see the results file)
    python benchmarks/hsa_ablation.py --steps 300 --pilot   # a quick look (not saved)
    nice -n 15 python benchmarks/hsa_ablation.py --reuse-init --prior-steps 2000 --steps 250 --n-eval 200 \
        --ifeval-n 60 --distill-steps 40                     # the 2026-12-01 run: the prior model of an earlier run

The language prior is the slow part (2000 steps took 70 min on 2 shared cores): ``--reuse-init`` starts from the
initial model an earlier run left in ``--work`` and refuses one built with other prior or model options.

Measured on 2 shared cores: one torch thread per process is several times faster than two when the machine is
busy, so the two arms train (and distil) at once, one process and one thread each.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import RESULTS, save  # noqa: E402

SCENARIO = "electronics_en"
PERSONAS = ["price_asker", "spec_asker", "after_sales", "purchase_intent"]

COMPACT_HARNESS = """\
name: compact
version: "1"
description: A compact harness for the HSA ablation (three tools, one skill, no hooks).
prompt:
  markup: plain
  sections:
    - {id: base, title: Task, text: "Call the tool that answers the viewer."}
    - {id: rules, title: Rules, source: constraints}
skill_tool: {name: load_skill, param: name, description: Load a skill by name.}
tools:
  - name: get_product_info_by_link_id
    op: product_by_link
    description: Look up the product on a link number.
    parameters:
      type: object
      properties:
        link_id: {type: integer, minimum: 1}
      required: [link_id]
      additionalProperties: false
    args: {link: {path: link_id}}
  - name: query_order_status
    op: order_status
    description: Status of a viewer's order by order id.
    parameters:
      type: object
      properties:
        order_id: {type: string}
      required: [order_id]
      additionalProperties: false
    args: {order_id: {path: order_id}}
  - name: check_stock
    op: stock
    description: Units left for a product id.
    parameters:
      type: object
      properties:
        product_id: {type: string}
      required: [product_id]
      additionalProperties: false
    args: {product_id: {path: product_id}}
skills:
  - name: item-qa
    description: Answer a viewer's question about a product or an order.
    body: Look the facts up with a tool, then answer with the exact numbers.
    metadata: {kind: reply, intents: "price,spec,stock,campaign,shipping,after_sales,compare,purchase,order_status,chitchat,troll,injection"}
constraints:
  max_reply_chars: 150
  require_reply_skill: false
hooks: []
"""

#: The model's chat template: one compact line per tool (name, the first words of its description, a signature
#: with parameter names, types, nesting, patterns and enums), generation markers around assistant turns (TRL's
#: assistant-only loss reads them).
TEMPLATE = (
    "{%- macro sig(p) -%}{%- for k, v in (p.properties or {}).items() -%}"
    "{{- ' ' + k + ':' -}}{%- if v.type == 'object' -%}{{- '{' -}}{{- sig(v) -}}{{- ' }' -}}"
    "{%- else -%}{{- v.type or 'any' -}}{%- if v.pattern -%}{{- ' /' + v.pattern + '/' -}}{%- endif -%}"
    "{%- if v.enum -%}{{- ' ' + (v.enum | join('|')) -}}{%- endif -%}{%- endif -%}{%- endfor -%}{%- endmacro -%}"
    "{%- if messages[0]['role'] == 'system' %}{{- '<|im_start|>system\\n' + messages[0]['content'] }}"
    "{%- else %}{{- '<|im_start|>system\\n' }}{%- endif %}"
    "{%- for tool in (tools or []) %}{%- set f = tool.function if tool.function is defined else tool %}"
    "{{- '\\n' + f.name + ' : ' + ((f.description or '').split(' ')[:DESC_WORDS] | join(' ')) + ' (' }}"
    "{{- sig(f.parameters or {}) }}{{- ' )' }}{%- endfor %}"
    "{{- '<|im_end|>\\n' }}"
    "{%- for message in messages %}"
    "{%- if message.role == 'user' %}{{- '<|im_start|>user\\n' + message.content + '<|im_end|>\\n' }}"
    "{%- elif message.role == 'assistant' %}{{- '<|im_start|>assistant\\n' }}{%- generation %}"
    "{%- if message.tool_calls %}{%- for tc in message.tool_calls %}"
    "{%- set c = tc.function if tc.function is defined else tc %}"
    "{{- '<tool_call>{\"name\": \"' + c.name + '\", \"arguments\": ' + (c.arguments | tojson) + '}</tool_call>' }}"
    "{%- endfor %}{%- else %}{{- message.content }}{%- endif %}{{- '<|im_end|>\\n' }}{%- endgeneration %}"
    "{%- elif message.role == 'tool' %}"
    "{{- '<|im_start|>user\\n<tool_response>\\n' + message.content + '\\n</tool_response><|im_end|>\\n' }}"
    "{%- endif %}{%- endfor %}"
    "{%- if add_generation_prompt %}{{- '<|im_start|>assistant\\n' }}{%- endif %}"
).replace("DESC_WORDS", "8")

#: Identifiers split at case and separator boundaries; runs of punctuation and single CJK characters are pieces.
PRETOKENIZE = r" ?[A-Z]+(?![a-z])| ?[A-Z]?[a-z]+| ?[0-9]|[\u4e00-\u9fff]|[^A-Za-z0-9\u4e00-\u9fff]+"


# -- building blocks ---------------------------------------------------------------------------------------


def write_harness(work: Path) -> Path:
    d = work / "compact-harness"
    d.mkdir(parents=True, exist_ok=True)
    (d / "harness.yaml").write_text(COMPACT_HARNESS, encoding="utf-8")
    from hat_env.harness.core import Harness

    Harness.load(d)  # validate
    return d


def data_config(out: Path, harness: Path, episodes: int, seed: int, share: float, family: str) -> Any:
    from hat_env.train.config import DataConfig

    return DataConfig.model_validate({
        "output_dir": str(out),
        "seed": seed,
        "sources": [{"kind": "qa", "scenario": SCENARIO, "episodes": episodes, "personas": PERSONAS,
                     "harness": str(harness)}],
        "hsa": {"share": share, "dims": ["tool_schemas"], "strength": 1.0, "family": family},
        "max_assistant_turns": 1,
        "filter": {"min_composite": 0, "min_accuracy": 0, "min_effectiveness": 0, "drop_fallback": False},
        "retries": {"keep_whole_share": 0.0},
    })


def build_rows(cfg: Any) -> list[dict[str, Any]]:
    from hat_env.train.data import build_examples

    examples, _ = build_examples(cfg)
    return [e.row() for e in examples]


def build_model(out: Path, corpus: list[str], vocab_size: int, layers: int, hidden: int, heads: int,
                seed: int) -> Path:
    """Tokenizer (case-splitting BPE over ``corpus``), compact chat template, random Qwen2 weights."""
    import torch
    from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import GenerationConfig, PreTrainedTokenizerFast, Qwen2Config, Qwen2ForCausalLM

    from hat_env.agents.tiny_model import SPECIAL_TOKENS

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Split(Regex(PRETOKENIZE), behavior="isolated"),
        pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
    ])
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, min_frequency=2, special_tokens=list(SPECIAL_TOKENS),
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False)
    tok.train_from_iterator(corpus, trainer=trainer, length=len(corpus))
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, eos_token="<|im_end|>", pad_token="<|endoftext|>",
                                   additional_special_tokens=[t for t in SPECIAL_TOKENS
                                                              if t not in ("<|im_end|>", "<|endoftext|>")],
                                   model_max_length=2048, clean_up_tokenization_spaces=False)
    fast.chat_template = TEMPLATE
    out.mkdir(parents=True, exist_ok=True)
    fast.save_pretrained(out)
    im_end = fast.convert_tokens_to_ids("<|im_end|>")
    eot = fast.convert_tokens_to_ids("<|endoftext|>")
    config = Qwen2Config(vocab_size=len(fast), hidden_size=hidden, intermediate_size=hidden * 3,
                         num_hidden_layers=layers, num_attention_heads=heads, num_key_value_heads=heads,
                         max_position_embeddings=2048, rope_theta=10000.0, tie_word_embeddings=True,
                         bos_token_id=None, eos_token_id=im_end, pad_token_id=eot, use_sliding_window=False)
    torch.manual_seed(seed)
    model = Qwen2ForCausalLM(config).to(torch.float32)
    model.generation_config = GenerationConfig(eos_token_id=[im_end, eot], pad_token_id=eot)
    model.save_pretrained(out, safe_serialization=True)
    return out


def corpus_of(rows: list[dict[str, Any]], tok_template: Any = None) -> list[str]:
    """Text of the rows as the template renders them (rendered with a throwaway tokenizer)."""
    import jinja2
    import jinja2.ext

    env = jinja2.Environment(extensions=["jinja2.ext.loopcontrols"])
    env.filters["tojson"] = lambda x: json.dumps(x, ensure_ascii=False)

    class _Gen(jinja2.ext.Extension):
        tags = {"generation"}

        def parse(self, parser: Any) -> Any:
            lineno = next(parser.stream).lineno
            body = parser.parse_statements(("name:endgeneration",), drop_needle=True)
            return jinja2.nodes.Scope(body, lineno=lineno)

    env.add_extension(_Gen)
    t = env.from_string(TEMPLATE)
    return [t.render(messages=r["messages"], tools=r.get("tools"), add_generation_prompt=False) for r in rows]


def vocab_corpus() -> list[str]:
    """The harness vocabulary of both HSA families (tool, parameter, wrapper and skill-tool names, tool
    descriptions), each word also in lower, title and upper case: the words a pretrained tokenizer would know."""
    from hat_env.hsa.vocab import FAMILIES, vocabulary

    out: list[str] = []
    for fam in FAMILIES:
        v = vocabulary(fam)
        for kind in ("tool_name", "param_name", "wrapper", "skill_tool_name", "skill_tool_param", "tool_description"):
            for text in sorted(v.values.get(kind, ())):
                out += [text, text]
                words = [w for w in re.split(r"[^A-Za-z]+|(?<=[a-z])(?=[A-Z])", text) if w]
                line = " ".join(w.lower() for w in words) + " " + " ".join(w.title() for w in words) + " " + \
                    " ".join(w.upper() for w in words)
                out += [line, line]
    return out


def train_arm(model_dir: Path, data_dir: Path, out: Path, steps: int, batch: int, lr: float, threads: int,
              seed: int) -> dict[str, Any]:
    from hat_env.train.config import SFTConfig
    from hat_env.train.sft import run_sft

    cfg = SFTConfig.model_validate({
        "model": {"path": str(model_dir)}, "dataset": str(data_dir), "max_length": 1024,
        "training": {"output_dir": str(out), "max_steps": steps, "learning_rate": lr,
                     "lr_scheduler_type": "cosine", "warmup_steps": 0.03, "weight_decay": 0.0,
                     "per_device_train_batch_size": batch, "logging_steps": max(1, steps // 20),
                     "save_steps": steps, "save_total_limit": 1, "use_cpu": True, "torch_num_threads": threads,
                     "seed": seed, "resume_from_checkpoint": None,
                     "extra": {"dataloader_num_workers": 0, "disable_tqdm": True}},
    })
    t0 = time.perf_counter()
    summary = run_sft(cfg)
    summary["seconds"] = round(time.perf_counter() - t0, 1)
    return summary


def distill_arm(student: str | Path, teacher: Path, prompts: Path, out: Path, steps: int, batch: int, lr: float,
                threads: int, seed: int) -> dict[str, Any]:
    """General on-policy distillation of an SFT arm from the initial model, through ``hat_env.train.distill``
    (TRL's ``DistillationTrainer``, reverse KL), on general chat prompts."""
    from hat_env.train.config import DistillConfig
    from hat_env.train.distill import run_distill

    cfg = DistillConfig.model_validate({
        "model": {"path": str(student)}, "teacher": {"path": str(teacher)}, "dataset": str(prompts),
        "trainer": "distillation", "beta": 1.0, "max_completion_length": 40, "temperature": 1.0,
        "training": {"output_dir": str(out), "max_steps": steps, "learning_rate": lr, "lr_scheduler_type": "cosine",
                     "per_device_train_batch_size": batch, "logging_steps": max(1, steps // 10),
                     "save_steps": steps, "save_total_limit": 1, "use_cpu": True, "torch_num_threads": threads,
                     "seed": seed, "resume_from_checkpoint": None, "extra": {"disable_tqdm": True}},
    })
    t0 = time.perf_counter()
    summary = run_distill(cfg)
    summary["seconds"] = round(time.perf_counter() - t0, 1)
    return summary


def evaluate(model_dir: str | Path, rows: list[dict[str, Any]], threads: int, batch: int = 64) -> dict[str, float]:
    """Teacher-forced scoring of the gold first call: exact match (every token), the tool name, the tool name and
    argument names (the call's structure: values excluded), the whole arguments object, per-token accuracy."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    torch.set_num_threads(threads)
    tok = AutoTokenizer.from_pretrained(str(model_dir))
    model = AutoModelForCausalLM.from_pretrained(str(model_dir)).eval()
    items = []
    for r in rows:
        text = tok.apply_chat_template(r["messages"], tools=r["tools"], tokenize=False)
        a0 = text.rindex("<|im_start|>assistant\n") + len("<|im_start|>assistant\n")
        a1 = text.index("<|im_end|>", a0) + len("<|im_end|>")
        n0 = text.index('"name": "', a0) + len('"name": "')
        n1 = text.index('"', n0)
        g0 = text.index('"arguments": ', n1) + len('"arguments": ')
        g1 = text.index("}</tool_call>", g0)
        enc = tok(text, return_offsets_mapping=True, add_special_tokens=False)
        ids, offs = enc["input_ids"], enc["offset_mapping"]
        tgt = [i for i, (s, e) in enumerate(offs) if s >= a0 and e <= a1 and i > 0]
        name = [i for i in tgt if offs[i][0] < n1 and offs[i][1] > n0]
        args = [i for i in tgt if offs[i][0] < g1 and offs[i][1] > g0]
        keys = [(g0 + m.start(1), g0 + m.end(1)) for m in re.finditer(r'"([^"]+)":', text[g0:g1])]
        knames = [i for i in tgt if any(offs[i][0] < k1 and offs[i][1] > k0 for k0, k1 in keys)]
        items.append((ids, tgt, name, args, knames))
    exact = name_ok = args_ok = struct_ok = 0
    tok_right = tok_all = 0
    pad = tok.pad_token_id
    with torch.inference_mode():
        for b in range(0, len(items), batch):
            chunk = items[b: b + batch]
            L = max(len(x[0]) for x in chunk)
            inp = torch.full((len(chunk), L), pad, dtype=torch.long)
            att = torch.zeros((len(chunk), L), dtype=torch.long)
            for k, (ids, *_r) in enumerate(chunk):
                inp[k, : len(ids)] = torch.tensor(ids)
                att[k, : len(ids)] = 1
            pred = model(input_ids=inp, attention_mask=att).logits.argmax(-1)
            for k, (ids, tgt, name, args, knames) in enumerate(chunk):
                right = {i: int(pred[k, i - 1]) == ids[i] for i in tgt}
                exact += all(right.values())
                name_ok += all(right[i] for i in name)
                args_ok += all(right[i] for i in args)
                struct_ok += all(right[i] for i in name + knames)
                tok_right += sum(right.values())
                tok_all += len(right)
    n = max(1, len(items))
    return {"n": len(items), "exact_match": round(exact / n, 4), "tool_name": round(name_ok / n, 4),
            "tool_and_argument_names": round(struct_ok / n, 4), "arguments": round(args_ok / n, 4),
            "token_accuracy": round(tok_right / max(1, tok_all), 4)}


# -- the experiment ----------------------------------------------------------------------------------------


def _child(args: argparse.Namespace, work: Path) -> int:
    """A child process: train one arm (``--arm``), or distil it (``--arm ... --phase distill``)."""
    if args.phase == "sft":
        s = train_arm(work / "init-model", work / f"data-{args.arm}", work / f"sft-{args.arm}", args.steps,
                      args.batch, args.lr, args.threads, args.seed)
    else:
        s = distill_arm(work / f"sft-{args.arm}" / "final", work / "init-model", work / "general-prompts.jsonl",
                        work / f"distill-{args.arm}", args.distill_steps, args.batch, args.distill_lr, args.threads,
                        args.seed)
    (work / f"summary-{args.phase}-{args.arm}.json").write_text(json.dumps(s, default=str), encoding="utf-8")
    return 0


def _run_children(args: argparse.Namespace, work: Path, phase: str, arms: list[str]) -> dict[str, Any]:
    """Run ``phase`` for ``arms``: one process each, at once (``--parallel``), or one after the other."""
    import subprocess

    env = {**os.environ, "OMP_NUM_THREADS": str(args.threads)}
    cmd = [sys.executable, __file__, *sys.argv[1:], "--phase", phase]
    if args.parallel:
        procs = {arm: subprocess.Popen([*cmd, "--arm", arm], env=env) for arm in arms}
        for arm, p in procs.items():
            if p.wait() != 0:
                raise SystemExit(f"{phase} of arm {arm} failed")
    else:
        for arm in arms:
            subprocess.run([*cmd, "--arm", arm], env=env, check=True)
    return {arm: json.loads((work / f"summary-{phase}-{arm}.json").read_text(encoding="utf-8")) for arm in arms}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n-train", type=int, default=3000, help="training examples per arm (default 3000)")
    ap.add_argument("--n-eval", type=int, default=300, help="evaluation requests per set (default 300)")
    ap.add_argument("--steps", type=int, default=1200, help="SFT optimizer steps per arm (default 1200)")
    ap.add_argument("--batch", type=int, default=8, help="batch size (default 8)")
    ap.add_argument("--lr", type=float, default=2e-3, help="peak SFT learning rate (default 2e-3)")
    ap.add_argument("--hsa-share", type=float, default=0.8, help="share of augmented examples in arm (b)")
    ap.add_argument("--vocab", type=int, default=2000, help="BPE vocabulary size (default 2000)")
    ap.add_argument("--layers", type=int, default=3)
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--heads", type=int, default=4)
    ap.add_argument("--threads", type=int, default=1, help="torch threads per process (default 1)")
    ap.add_argument("--parallel", action="store_true", default=True,
                    help="train the two arms at once, one process each (the default)")
    ap.add_argument("--sequential", dest="parallel", action="store_false", help="train the arms one after the other")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--work", default="runs/hsa_ablation", help="work folder (data, models)")
    ap.add_argument("--arms", default="fixed,hsa", help="arms to train (pilots)")
    ap.add_argument("--prior-steps", type=int, default=4000,
                    help="language-prior pretraining steps of the initial model (0: none; default 4000)")
    ap.add_argument("--prior-texts", type=int, default=20000, help="identifier texts in the prior (default 20000)")
    ap.add_argument("--chat-rows", type=int, default=3000, help="general chat rows in the prior (default 3000)")
    ap.add_argument("--copy-share", type=float, default=0.25, help="share of copy batches in the prior")
    ap.add_argument("--ifeval-n", type=int, default=60, help="IFEval-live cases per model (0: skip; default 60)")
    ap.add_argument("--distill-steps", type=int, default=60, help="distillation steps per arm (0: skip)")
    ap.add_argument("--distill-lr", type=float, default=5e-4, help="distillation learning rate")
    ap.add_argument("--reuse-init", action="store_true",
                    help="reuse the initial model an earlier run with the same prior options left in --work")
    ap.add_argument("--pilot", action="store_true", help="do not save results")
    ap.add_argument("--arm", choices=["fixed", "hsa"], help=argparse.SUPPRESS)  # child process
    ap.add_argument("--phase", choices=["sft", "distill"], default="sft", help=argparse.SUPPRESS)
    args = ap.parse_args()
    work = Path(args.work)
    os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
    if args.arm:
        return _child(args, work)

    import _ablation_ifeval as ife
    import _ablation_prior as prior

    t_start = time.perf_counter()
    harness = write_harness(work)
    from hat_env.train.data import Example, export

    # data: the same requests for both arms (same seeds); arm (b) runs a share of them under train-family HSA
    t0 = time.perf_counter()
    fixed = build_rows(data_config(work / "data-fixed", harness, args.n_train, args.seed, 0.0, "train"))
    hsa = build_rows(data_config(work / "data-hsa", harness, args.n_train, args.seed, args.hsa_share, "train"))
    for name, rows in (("fixed", fixed), ("hsa", hsa)):
        export([Example(r["messages"], r["tools"], r["meta"]) for r in rows], work / f"data-{name}", hf=True)
    ev_seed = args.seed + 7919
    evals = {
        "original": build_rows(data_config(work / "e0", harness, args.n_eval, ev_seed, 0.0, "train")),
        "heldout_hsa": build_rows(data_config(work / "e1", harness, args.n_eval, ev_seed + 1, 1.0, "heldout")),
        "unseen_train_family_hsa": build_rows(data_config(work / "e2", harness, args.n_eval, ev_seed + 2, 1.0, "train")),
    }
    # the language prior: identifier texts, general chat rows; distillation prompts are other general rows
    texts = prior.identifier_texts(args.prior_texts, args.seed)
    chat = prior.general_chat_rows(args.chat_rows, args.seed)
    distill_rows = prior.general_chat_rows(200, args.seed + 1)
    with (work / "general-prompts.jsonl").open("w", encoding="utf-8") as fh:
        for r in distill_rows:
            fh.write(json.dumps({"prompt": r["messages"][:2]}, ensure_ascii=False) + "\n")
    data_s = time.perf_counter() - t0
    # one initial model for both arms; its tokenizer is learnt from the training text, the HSA vocabulary and
    # the prior's text, as a pretrained tokenizer knows words it was not fine-tuned on
    corpus = corpus_of(fixed) + corpus_of(hsa) + vocab_corpus() + texts + corpus_of(chat)
    model_dir = work / "init-model"
    pre_file = work / "pretraining.json"
    if args.reuse_init and pre_file.is_file() and (model_dir / "model.safetensors").is_file():
        pre = json.loads(pre_file.read_text(encoding="utf-8"))  # the same seeded prior, built by an earlier run
        _check_reuse(pre, model_dir, args)
        print(f"reusing the initial model in {model_dir}: {pre}", flush=True)
    else:
        build_model(model_dir, corpus, args.vocab, args.layers, args.hidden, args.heads, args.seed)
        pre = None
        if args.prior_steps:
            pre = prior.pretrain(model_dir, texts, chat, args.prior_steps, 16, 3e-3, args.threads, args.seed,
                                 copy_share=args.copy_share, log=lambda m: print(m, flush=True))
            print(f"pretraining: {pre}", flush=True)
        pre_file.write_text(json.dumps(pre), encoding="utf-8")
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(str(model_dir))
    lens = [len(tok(t, add_special_tokens=False)["input_ids"]) for t in corpus_of(hsa[:200])]
    name_lens = {}
    for fam, rows in (("train", hsa[:200]), ("heldout", evals["heldout_hsa"][:200])):
        ns = [tc["function"]["name"] for r in rows for m in r["messages"] for tc in m.get("tool_calls") or []]
        name_lens[fam] = round(sum(len(tok(n, add_special_tokens=False)["input_ids"]) for n in ns) / max(1, len(ns)), 2)
    print(f"data {data_s:.0f}s; prompt+target tokens: mean {sum(lens) / len(lens):.0f}, max {max(lens)}; "
          f"tokens per gold tool name: {name_lens}", flush=True)

    # SFT arms, then each arm's distillation from the initial model
    arms = [a for a in ("fixed", "hsa") if a in args.arms.split(",")]
    results = _run_children(args, work, "sft", arms)
    for arm in arms:
        print(f"{arm}: {results[arm]['seconds']}s, loss {results[arm]['first_loss']:.3f} -> "
              f"{results[arm]['last_loss']:.4f}", flush=True)
    distilled = _run_children(args, work, "distill", arms) if args.distill_steps else {}

    # evaluation: the gold first call on the three sets; IFEval-live
    models = {"initial": str(model_dir), **{a: results[a]["final_model"] for a in arms},
              **{f"{a}+distill": distilled[a]["final_model"] for a in distilled}}
    table = {m: {k: evaluate(path, v, args.threads) for k, v in evals.items()} for m, path in models.items()}
    for m, sets in table.items():
        print(m, json.dumps({k: (v["exact_match"], v["tool_name"], v["tool_and_argument_names"], v["arguments"],
                                 v["token_accuracy"]) for k, v in sets.items()}), flush=True)
    ifeval: dict[str, Any] = {}
    if args.ifeval_n:
        cases = ife.ifeval_cases(SCENARIO, args.ifeval_n)
        for m, path in models.items():
            t1 = time.perf_counter()
            ifeval[m] = ife.run_ifeval(path, cases, str(harness), args.threads)
            ifeval[m]["seconds"] = round(time.perf_counter() - t1, 1)
            print("ifeval", m, json.dumps(ifeval[m], ensure_ascii=False), flush=True)
    figures = {
        "setup": {
            "scenario": SCENARIO, "personas": PERSONAS, "harness": "compact (3 tools, 1 skill, no hooks)",
            "hsa": {"dims": ["tool_schemas"], "strength": 1.0, "train_family_share_in_b": args.hsa_share,
                    "eval_heldout_family": "heldout"},
            "n_train_per_arm": len(fixed), "n_train_hsa_arm": len(hsa), "n_eval_per_set": args.n_eval,
            "steps": args.steps, "batch": args.batch, "lr": args.lr, "threads": args.threads,
            "parallel": args.parallel, "ifeval_cases": args.ifeval_n,
            "distill": {"steps": args.distill_steps, "lr": args.distill_lr, "prompts": len(distill_rows)},
            "model": {"layers": args.layers, "hidden": args.hidden, "heads": args.heads, "vocab": len(tok),
                      "parameters": _params(model_dir)},
            "mean_tokens_per_example": round(sum(lens) / len(lens), 1),
            "tokens_per_gold_tool_name": name_lens,
        },
        "pretraining": pre,
        "training": {arm: {"seconds": results[arm]["seconds"], "first_loss": results[arm]["first_loss"],
                           "last_loss": results[arm]["last_loss"], "steps": results[arm]["global_step"]}
                     for arm in arms},
        "distillation": {arm: {"seconds": d["seconds"], "first_loss": d["first_loss"], "last_loss": d["last_loss"],
                               "steps": d["global_step"]} for arm, d in distilled.items()},
        "table": table,
        "ifeval": ifeval,
        "wall_seconds": round(time.perf_counter() - t_start, 1),
    }
    print(json.dumps(figures["training"]), f"wall {figures['wall_seconds']}s", flush=True)
    if not args.pilot:
        path = save("hsa_ablation", figures)
        (RESULTS / path.name.replace(".json", ".md")).write_text(markdown(
            {**figures, "command": json.loads(path.read_text(encoding="utf-8"))["command"]}, path.name), encoding="utf-8")
        print(f"saved {path}")
    return 0


def _check_reuse(pre: dict[str, Any] | None, model_dir: Path, args: argparse.Namespace) -> None:
    """Refuse ``--reuse-init`` when the initial model left in ``model_dir`` was built with other prior or model
    options than ``args`` asks for (``pre``: its ``pretraining.json``); returns nothing, raises ``SystemExit``."""
    pre = pre or {"steps": 0}
    want = {"steps": args.prior_steps, "texts": args.prior_texts, "chat_rows": args.chat_rows,
            "copy_share": args.copy_share}
    cfg = json.loads((model_dir / "config.json").read_text(encoding="utf-8"))
    have_model = {"layers": cfg["num_hidden_layers"], "hidden": cfg["hidden_size"], "heads": cfg["num_attention_heads"]}
    want_model = {"layers": args.layers, "hidden": args.hidden, "heads": args.heads}
    bad = [f"{k}: built with {pre.get(k)}, asked {v}" for k, v in want.items() if want["steps"] and pre.get(k) != v]
    bad += [f"{k}: built with {have_model[k]}, asked {v}" for k, v in want_model.items() if have_model[k] != v]
    if bad:
        raise SystemExit(f"--reuse-init: {model_dir} was built with other options ({'; '.join(bad)}); "
                         "run without --reuse-init to rebuild it")


def _params(model_dir: Path) -> int:
    from safetensors import safe_open

    n = 0
    with safe_open(str(model_dir / "model.safetensors"), "pt") as f:
        for k in f.keys():
            n += math.prod(f.get_slice(k).get_shape())
    return n


NAMES = {"initial": "initial (language prior only)", "fixed": "(a) fixed-harness SFT", "hsa": "(b) HSA-SFT",
         "fixed+distill": "(a) + distillation", "hsa+distill": "(b) + distillation"}


def markdown(fig: dict[str, Any], json_name: str) -> str:
    """The result tables (the reading is written by hand below them)."""
    s = fig["setup"]
    pre = fig.get("pretraining") or {}
    lines = [
        "# HSA ablation: fixed-harness SFT vs HSA-SFT from a language prior (tiny model, CPU)",
        "",
        f"Raw figures: `{json_name}`. Command: `nice -n 15 {fig.get('command', 'python benchmarks/hsa_ablation.py')}` "
        "(see its docstring).",
        "",
        f"Task: first tool call for a viewer comment ({s['scenario']}, personas {', '.join(s['personas'])}) under a "
        f"compact harness; gold = the reference agent's call. Same initial model ({s['model']['parameters']:,} "
        f"parameters, {s['model']['layers']} layers, vocab {s['model']['vocab']}), pretrained "
        f"{pre.get('steps', 0)} steps on the task-free language prior, then {s['n_train_per_arm']} examples "
        f"and {s['steps']} SFT steps x batch {s['batch']} per arm; (b) has "
        f"{int(s['hsa']['train_family_share_in_b'] * 100)}% of its examples under `tool_schemas` HSA variants of the "
        f"`train` family. Evaluation: {s['n_eval_per_set']} requests per set, teacher-forced greedy decoding of the "
        "gold call.",
        "",
        "| model | set | exact match | tool name | tool + argument names | arguments | token accuracy |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for arm, sets in fig["table"].items():
        for k, v in sets.items():
            lines.append(f"| {NAMES[arm]} | {k} | {v['exact_match']:.3f} | {v['tool_name']:.3f} | "
                         f"{v['tool_and_argument_names']:.3f} | {v['arguments']:.3f} | {v['token_accuracy']:.3f} |")
    if fig.get("ifeval"):
        lines += ["", f"IFEval-live ({s['ifeval_cases']} `ifeval-live-v1` cases of {s['scenario']}, the scenario's own "
                  "harness with the case's instructions, greedy decoding through the evaluation runner):", "",
                  "| model | prompt strict | instruction strict | prompt loose | instruction loose | fallback replies | "
                  "tool calls / case |", "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
        for m, v in fig["ifeval"].items():
            lines.append(f"| {NAMES[m]} | {v['prompt_strict']:.3f} | {v['inst_strict']:.3f} | {v['prompt_loose']:.3f} | "
                         f"{v['inst_loose']:.3f} | {v['fallback_share']:.2f} | {v['mean_tool_calls']:.2f} |")
    tr = fig["training"]
    lines += ["", "Training: " + "; ".join(f"{NAMES[a]} {v['seconds']:.0f} s, loss {v['first_loss']:.3f} -> "
                                           f"{v['last_loss']:.4f}" for a, v in tr.items())]
    if fig.get("distillation"):
        lines += ["Distillation: " + "; ".join(f"{NAMES[a + '+distill']} {v['seconds']:.0f} s, loss "
                                               f"{v['first_loss']:.3f} -> {v['last_loss']:.4f}"
                                               for a, v in fig["distillation"].items())]
    if pre:
        lines += [f"Language prior: {pre['steps']} steps, {pre['seconds']:.0f} s, loss {pre['first_loss']:.2f} -> "
                  f"{pre['last_loss']:.2f}. Whole run: {fig['wall_seconds']:.0f} s wall."]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
