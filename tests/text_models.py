"""Small text models and data that tests build offline: a word-level tokenizer trained with the
``tokenizers`` library and a RoBERTa configuration of a few thousand parameters, saved with
``save_pretrained`` and loaded through the hub-name path (``hf:FOLDER``), and sentiment sentences written
as CSV."""

from __future__ import annotations

import csv
import random
from pathlib import Path

POSITIVE = ("gripping", "moving", "brilliant", "charming", "superb", "funny", "tender", "sharp")
NEGATIVE = ("dull", "tedious", "clumsy", "bland", "awful", "flat", "messy", "lifeless")
NEUTRAL = ("a", "the", "film", "story", "cast", "plot", "very", "and", "was", "it", "acted", "well", "ending")
SPECIAL = ("<s>", "<pad>", "</s>", "<unk>")


def sentences(count: int, seed: int) -> list[tuple[str, int]]:
    """``count`` sentences of 3–9 words, each with one to three cue words of its class (0 negative, 1
    positive) among neutral ones."""
    rng = random.Random(seed)
    rows = []
    for _ in range(count):
        label = rng.randrange(2)
        cues = POSITIVE if label else NEGATIVE
        words = [rng.choice(NEUTRAL) for _ in range(rng.randrange(2, 7))]
        for _ in range(rng.randrange(1, 4)):
            words.insert(rng.randrange(len(words) + 1), rng.choice(cues))
        rows.append((" ".join(words), label))
    return rows


def write_csv(path: Path, rows: list[tuple[str, int]], text: str = "text", label: str = "label") -> Path:
    with open(path, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow([text, label])
        writer.writerows(rows)
    return path


def tiny_roberta(folder: Path, hidden: int = 16, layers: int = 2, positions: int = 34, seed: int = 0) -> Path:
    """A RoBERTa with a word-level tokenizer over the test vocabulary, random weights from ``seed``, saved
    in ``folder`` (``save_pretrained``) with no classification head (the body's checkpoint)."""
    import torch
    from tokenizers import Tokenizer, models, pre_tokenizers, processors
    from transformers import PreTrainedTokenizerFast, RobertaConfig, RobertaModel

    vocabulary = {token: i for i, token in enumerate((*SPECIAL, *POSITIVE, *NEGATIVE, *NEUTRAL))}
    backend = Tokenizer(models.WordLevel(vocabulary, unk_token="<unk>"))
    backend.pre_tokenizer = pre_tokenizers.Whitespace()
    backend.post_processor = processors.TemplateProcessing(
        single="<s> $A </s>", pair="<s> $A </s> </s> $B </s>", special_tokens=[("<s>", 0), ("</s>", 2)]
    )
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=backend,
        bos_token="<s>",
        eos_token="</s>",
        pad_token="<pad>",
        unk_token="<unk>",
        model_max_length=positions - 2,
    )
    config = RobertaConfig(
        vocab_size=len(vocabulary),
        hidden_size=hidden,
        num_hidden_layers=layers,
        num_attention_heads=2,
        intermediate_size=2 * hidden,
        max_position_embeddings=positions,
        type_vocab_size=1,
        pad_token_id=1,
        bos_token_id=0,
        eos_token_id=2,
    )
    torch.manual_seed(seed)
    RobertaModel(config, add_pooling_layer=False).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder
