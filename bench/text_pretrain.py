"""A small RoBERTa pretrained without DP on public text (WordNet 3.0 glosses, ``bench/text_corpus.py``),
saved as a checkpoint that dptune loads by name (``model: {hf: FOLDER}``), and the same architecture with
random weights, saved the same way, for training from scratch by the same path.

1. **Tokenizer**: byte-level BPE (the ``tokenizers`` library; RoBERTa's pre-tokenizer with a prefix space,
   so a text's first word is read as any other), trained on the glosses only, ``--vocab`` entries (default
   8,192) including the specials ``<s> <pad> </s> <unk> <mask>`` (ids 0–4, RoBERTa's order), RoBERTa's
   post-processor (``<s> A </s>``, ``<s> A </s></s> B </s>``); wrapped as ``PreTrainedTokenizerFast`` with
   ``model_max_length`` 64.
2. **Data**: every gloss tokenized, their order permuted (``SEED``), concatenated with ``</s>`` between
   them and cut into blocks of 62 tokens, each read as ``<s> block </s>`` (64 positions: RoBERTa's
   FULL-SENTENCES packing, no padding). ``EVAL_BLOCKS`` blocks are held out for the MLM loss reported.
3. **Model**: ``RobertaForMaskedLM`` of hidden 128, 2 layers, 4 heads, intermediate 512, 66 positions
   (64 tokens and RoBERTa's padding offset), type vocabulary 1, tied input and output embeddings, dropout
   0 (under one pass over the text nothing overfits, and dptune fine-tunes without dropout); 1.48 M
   parameters (1.05 M of them the token embeddings), 1.47 M in the saved body.
4. **Masked-language modelling**: 15% of a block's tokens (not ``<s>``/``</s>``) chosen, of those 80%
   replaced by ``<mask>``, 10% by a random token, 10% kept; cross-entropy on the chosen ones, the output
   layer applied at those positions only. The output bias starts at the training blocks' log unigram
   frequencies (Adam's steps of at most about ``lr`` would otherwise spend the budget learning token
   frequencies, a spread of 12 nats). AdamW (β = 0.9, 0.98; weight decay 0.01 on matrices), peak step
   ``--lr`` (2e-3) after a linear warm-up over 6% of the steps, linear decay to 0; batch ``--batch``
   blocks (32; at a fixed budget of compute, more and smaller steps lowered the loss faster than batches
   of 128 in trials of 300 steps); gradient norm clipped at 1; ``--steps`` steps (a fixed budget, 2,000:
   64,000 blocks, 1.8 passes over the glosses; about 10–15 minutes on 2 idle cores of an AMD EPYC, longer
   on shared ones: the record states the wall and CPU seconds). No DP: the text is public.
5. **Saved**: the RoBERTa body (``RobertaModel`` without pooler; the MLM head is dropped) and the
   tokenizer with ``save_pretrained`` in ``--out``; ``AutoModelForSequenceClassification.from_pretrained(
   OUT, num_labels=2)`` is checked to initialise only ``classifier.*`` anew. ``--scratch`` gets a
   ``RobertaModel`` of the same configuration with ``transformers``' random initialisation (``SEED``) and
   the same tokenizer. OUT/pretraining.json records the settings, the loss curve and the time.

    python bench/text_pretrain.py [--glosses ~/.cache/dptune/bench-text/wordnet-glosses.txt]
        [--out ~/.cache/dptune/bench-text/wordnet-roberta]
        [--scratch ~/.cache/dptune/bench-text/scratch-roberta]
        [--steps 2000] [--batch 32] [--lr 2e-3] [--threads 2]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import time
from pathlib import Path
from typing import Any

import torch

BENCH_TEXT = Path.home() / ".cache" / "dptune" / "bench-text"
SEED = 0
SPECIALS = ("<s>", "<pad>", "</s>", "<unk>", "<mask>")
MAX_LENGTH = 64
EVAL_BLOCKS = 512
ARCHITECTURE = {
    "hidden_size": 128,
    "num_hidden_layers": 2,
    "num_attention_heads": 4,
    "intermediate_size": 512,
    "max_position_embeddings": MAX_LENGTH + 2,
    "type_vocab_size": 1,
}


def train_tokenizer(glosses: list[str], vocab: int) -> Any:
    """Byte-level BPE trained on ``glosses`` alone, as a ``PreTrainedTokenizerFast`` (module docstring)."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors, trainers
    from transformers import PreTrainedTokenizerFast

    backend = Tokenizer(models.BPE())
    backend.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=True)
    backend.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab,
        min_frequency=2,
        special_tokens=list(SPECIALS),
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    backend.train_from_iterator(glosses, trainer=trainer)
    backend.post_processor = processors.RobertaProcessing(
        ("</s>", backend.token_to_id("</s>")), ("<s>", backend.token_to_id("<s>")), add_prefix_space=True
    )
    assert [backend.token_to_id(t) for t in SPECIALS] == [0, 1, 2, 3, 4]
    return PreTrainedTokenizerFast(
        tokenizer_object=backend,
        bos_token="<s>",
        eos_token="</s>",
        sep_token="</s>",
        cls_token="<s>",
        pad_token="<pad>",
        unk_token="<unk>",
        mask_token="<mask>",
        model_max_length=MAX_LENGTH,
    )


def blocks(glosses: list[str], tokenizer: Any) -> torch.Tensor:
    """The glosses' tokens, in a permuted order, packed into ``<s> … </s>`` blocks of ``MAX_LENGTH``."""
    ids = [e.ids for e in tokenizer.backend_tokenizer.encode_batch(glosses, add_special_tokens=False)]
    order = torch.randperm(len(ids), generator=torch.Generator().manual_seed(SEED)).tolist()
    stream: list[int] = []
    for i in order:
        stream += [*ids[i], tokenizer.eos_token_id]
    inner = MAX_LENGTH - 2
    count = len(stream) // inner
    body = torch.tensor(stream[: count * inner]).view(count, inner)
    return torch.cat(
        [
            torch.full((count, 1), tokenizer.bos_token_id),
            body,
            torch.full((count, 1), tokenizer.eos_token_id),
        ],
        dim=1,
    )


def masked(
    batch: torch.Tensor, tokenizer: Any, generator: torch.Generator
) -> tuple[torch.Tensor, torch.Tensor]:
    """BERT's masking of ``batch`` (module docstring): the inputs and the labels (-100 where unscored)."""
    special = (batch == tokenizer.bos_token_id) | (batch == tokenizer.eos_token_id)
    chosen = (torch.rand(batch.shape, generator=generator) < 0.15) & ~special
    labels = torch.where(chosen, batch, torch.full_like(batch, -100))
    draw = torch.rand(batch.shape, generator=generator)
    inputs = batch.clone()
    inputs[chosen & (draw < 0.8)] = tokenizer.mask_token_id
    random_tokens = torch.randint(len(SPECIALS), len(tokenizer), batch.shape, generator=generator)
    swap = chosen & (draw >= 0.8) & (draw < 0.9)
    inputs[swap] = random_tokens[swap]
    return inputs, labels


def config_for(tokenizer: Any) -> Any:
    from transformers import RobertaConfig

    return RobertaConfig(
        vocab_size=len(tokenizer),
        pad_token_id=tokenizer.pad_token_id,
        bos_token_id=tokenizer.bos_token_id,
        eos_token_id=tokenizer.eos_token_id,
        hidden_dropout_prob=0.0,
        attention_probs_dropout_prob=0.0,
        **ARCHITECTURE,
    )


@torch.no_grad()
def eval_loss(model: Any, data: torch.Tensor, tokenizer: Any) -> float:
    """The MLM loss on held-out blocks, with one fixed masking."""
    model.eval()
    inputs, labels = masked(data, tokenizer, torch.Generator().manual_seed(SEED + 1))
    pairs = zip(inputs.split(128), labels.split(128), strict=True)
    losses = [mlm_loss(model, i, lab).item() for i, lab in pairs]
    model.train()
    return sum(losses) / len(losses)


def mlm_loss(model: Any, inputs: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
    """The MLM cross-entropy, the output layer applied at the scored positions only (what
    ``RobertaForMaskedLM(labels=…)`` computes, without the vocabulary's scores at the other 85%)."""
    hidden = model.roberta(input_ids=inputs)[0]
    scored = labels != -100
    return torch.nn.functional.cross_entropy(model.lm_head(hidden[scored]), labels[scored])


def check_loads(folder: Path) -> list[str]:
    """The parameters ``AutoModelForSequenceClassification`` initialises anew from ``folder``: only the
    head's, or the check fails."""
    from transformers import AutoModelForSequenceClassification

    auto = AutoModelForSequenceClassification
    _, info = auto.from_pretrained(folder, num_labels=2, output_loading_info=True)
    fresh = sorted(info["missing_keys"])
    if not fresh or any(not k.startswith("classifier.") for k in fresh) or info["unexpected_keys"]:
        raise SystemExit(f"{folder}: newly initialised {fresh}, unexpected {info['unexpected_keys']}")
    return fresh


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--glosses", type=Path, default=BENCH_TEXT / "wordnet-glosses.txt")
    parser.add_argument("--out", type=Path, default=BENCH_TEXT / "wordnet-roberta")
    parser.add_argument("--scratch", type=Path, default=BENCH_TEXT / "scratch-roberta")
    parser.add_argument("--steps", type=int, default=2000)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--lr", type=float, default=2e-3)
    parser.add_argument("--vocab", type=int, default=8192)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    from transformers import RobertaForMaskedLM, RobertaModel
    from transformers.utils import logging as hf_logging

    hf_logging.set_verbosity_error()
    started = time.time()
    glosses = args.glosses.expanduser().read_text(encoding="utf-8").splitlines()
    tokenizer = train_tokenizer(glosses, args.vocab)
    data = blocks(glosses, tokenizer)
    held, train = data[:EVAL_BLOCKS], data[EVAL_BLOCKS:]
    tokenizer_seconds = time.time() - started
    print(f"tokenizer: {len(tokenizer)} entries; {len(data)} blocks of {MAX_LENGTH} "
          f"({data.numel():,} tokens) in {tokenizer_seconds:.0f}s", flush=True)  # fmt: skip

    config = config_for(tokenizer)
    torch.manual_seed(SEED)
    model = RobertaForMaskedLM(config)
    counts = torch.bincount(train[:, 1:-1].flatten(), minlength=len(tokenizer)).double() + 1
    with torch.no_grad():  # the output bias starts at the blocks' log unigram frequencies
        model.lm_head.bias.copy_((counts / counts.sum()).log().float())
    parameters = sum(p.numel() for p in model.parameters())
    decay = [p for n, p in model.named_parameters() if p.dim() > 1 and "LayerNorm" not in n]
    other = [p for n, p in model.named_parameters() if not (p.dim() > 1 and "LayerNorm" not in n)]
    optimizer = torch.optim.AdamW(
        [{"params": decay, "weight_decay": 0.01}, {"params": other, "weight_decay": 0.0}],
        lr=args.lr,
        betas=(0.9, 0.98),
        eps=1e-6,
    )
    warmup = max(1, int(0.06 * args.steps))
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda s: min((s + 1) / warmup, max(0.0, (args.steps - s) / (args.steps - warmup)))
    )
    generator = torch.Generator().manual_seed(SEED)
    initial = eval_loss(model, held, tokenizer)
    print(f"model: {parameters:,} parameters; held-out MLM loss at start {initial:.3f} "
          f"(ln V = {math.log(len(tokenizer)):.3f})", flush=True)  # fmt: skip
    model.train()
    curve, window, position = [], [], len(train)
    order = torch.empty(0, dtype=torch.long)
    train_started, cpu_started = time.time(), time.process_time()
    for step in range(args.steps):
        if position + args.batch > len(order):
            order, position = torch.randperm(len(train), generator=generator), 0
        batch = train[order[position : position + args.batch]]
        position += args.batch
        inputs, labels = masked(batch, tokenizer, generator)
        loss = mlm_loss(model, inputs, labels)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        schedule.step()
        window.append(loss.item())
        if (step + 1) % max(1, args.steps // 10) == 0 or step + 1 == args.steps:
            point = {
                "step": step + 1,
                "train_loss": round(sum(window) / len(window), 4),
                "held_out_loss": round(eval_loss(model, held, tokenizer), 4),
                "seconds": round(time.time() - train_started, 1),
            }
            curve.append(point)
            window = []
            print(f"step {point['step']:>6}: train MLM loss {point['train_loss']:.3f} (mean since the "
                  f"last line), held-out {point['held_out_loss']:.3f}, {point['seconds']:.0f}s",
                  flush=True)  # fmt: skip
    train_seconds, cpu_seconds = time.time() - train_started, time.process_time() - cpu_started

    out, scratch = args.out.expanduser(), args.scratch.expanduser()
    model.roberta.save_pretrained(out)
    tokenizer.save_pretrained(out)
    torch.manual_seed(SEED)
    RobertaModel(config, add_pooling_layer=False).save_pretrained(scratch)
    tokenizer.save_pretrained(scratch)
    fresh = {str(folder): check_loads(folder) for folder in (out, scratch)}
    record = {
        "glosses": str(args.glosses.expanduser()),
        "tokenizer": {"kind": "byte-level BPE", "entries": len(tokenizer), "specials": list(SPECIALS)},
        "blocks": {"train": len(train), "held_out": len(held), "length": MAX_LENGTH},
        "architecture": ARCHITECTURE | {"vocab_size": len(tokenizer), "parameters": parameters},
        "training": {"steps": args.steps, "batch": args.batch, "lr": args.lr, "warmup": warmup,
                     "epochs_of_the_blocks": round(args.steps * args.batch / len(train), 2),
                     "threads": args.threads, "seed": SEED},
        "initial_held_out_loss": round(initial, 4),
        "curve": curve,
        "seconds": {"tokenizer_and_blocks": round(tokenizer_seconds, 1), "training": round(train_seconds, 1),
                    "training_cpu": round(cpu_seconds, 1), "load_average_after": os.getloadavg()},
        "newly_initialised_on_loading": fresh,
    }  # fmt: skip
    (out / "pretraining.json").write_text(json.dumps(record, indent=1) + "\n")
    print(f"saved {out} (pretrained body) and {scratch} (random weights, seed {SEED}); loading either as "
          f"a sequence classifier initialises only {fresh[str(out)]}")  # fmt: skip
    last = curve[-1]
    print(f"final MLM loss: train {last['train_loss']:.3f}, held-out {last['held_out_loss']:.3f} "
          f"(start {initial:.3f}); {train_seconds:.0f}s of training ({cpu_seconds:.0f} CPU-s), "
          f"{tokenizer_seconds:.0f}s before",
          flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
