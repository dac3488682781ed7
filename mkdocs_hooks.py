"""The documentation's tables that the code owns, written into the Markdown pages themselves (so that
they read whole on GitHub too) by ``python mkdocs_hooks.py --write``, and checked by
``python mkdocs_hooks.py --check`` (``tests/test_docs_tables.py`` fails when a committed page is out of
date). A page holds one between a pair of marker lines, ``<!-- dptune: NAME -->`` and
``<!-- /dptune: NAME -->``; whatever lies between them is the generator's:

- ``knobs``: every knob of a run (``dptune.training.config.KNOBS``): its default, valid values, whether
  a sweep may search it, and what it is;
- ``methods``: every method in the registry (``dptune.methods.METHODS``) with its parameters, their
  valid values and defaults;
- ``spec-keys``: every plain setting of a sweep spec (``dptune.sweep.spec_keys.SPEC_KEYS``): its YAML path,
  default, valid values and what it is;
- ``spec-rules``: every rule across a spec's settings (``dptune.sweep.spec_rules.SPEC_RULES``): its name
  and what it requires.

As an MkDocs hook (``mkdocs.yml``) it fills the same tables in when the site builds, so the site never
drifts either. An unknown table or a marker without its end fails the build and the command.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from dataclasses import MISSING, fields
from pathlib import Path
from typing import Any

DOCS = Path(__file__).parent / "docs"
BLOCK = re.compile(r"^<!-- dptune: ([a-z-]+) -->\n(.*?)^<!-- /dptune: \1 -->$", re.MULTILINE | re.DOTALL)
"""A generated table: its opening marker line, what the generator wrote, its closing marker line."""
OPENING = re.compile(r"^<!-- dptune: ([a-z-]+) -->$", re.MULTILINE)
COMMAND = "python mkdocs_hooks.py --write"


def cell(text: Any) -> str:
    """Text for a Markdown table cell: pipes escaped, no line breaks."""
    return str(text).replace("|", "\\|").replace("\n", " ")


def knobs_table() -> str:
    """One row per knob of a run, in ``RunConfig``'s field order."""
    from dptune.training.config import KNOBS, RunConfig

    defaults = {f.name: f.default for f in fields(RunConfig)}
    rows = ["| knob | default | valid | searchable | what |", "|---|---|---|---|---|"]
    for name, knob in KNOBS.items():
        default = defaults.get(name, MISSING)
        shown = "required" if default is MISSING else "none" if default is None else f"`{default}`"
        searchable = "yes" if knob.searchable else ""
        rows.append(f"| `{name}` | {cell(shown)} | {cell(knob.valid)} | {searchable} | {cell(knob.help)} |")
    return "\n".join(rows)


def methods_tables() -> str:
    """One section per method: its summary, its default space and a table of its parameters."""
    from dptune.methods import METHODS
    from dptune.sweep.default_spaces import DEFAULT_SPACES, described

    parts = []
    for definition in METHODS.values():
        parts += [f"### `{definition.name}`", "", cell(definition.summary), ""]
        space = described(DEFAULT_SPACES[definition.name])
        parts += [f"Default space (a spec's `methods: [{definition.name}]`): {cell(space)}", ""]
        if not definition.params:
            parts += ["No parameters of its own.", ""]
            continue
        parts += ["| parameter | default | valid | what |", "|---|---|---|---|"]
        for p in definition.params:
            default = "none (optional)" if p.default is None else f"`{p.default}`"
            parts.append(f"| `{p.name}` | {cell(default)} | {cell(p.valid)} | {cell(p.help)} |")
        parts.append("")
    return "\n".join(parts)


def spec_keys_table() -> str:
    """One row per plain setting of a spec, in the table's order."""
    from dptune.sweep.spec_keys import SPEC_KEYS

    rows = ["| key | default | valid | what |", "|---|---|---|---|"]
    for key in SPEC_KEYS:
        default = key.unset or ("none" if key.default is None else f"`{key.default}`")
        rows.append(f"| `{key.path}` | {cell(default)} | {cell(key.valid)} | {cell(key.help)} |")
    return "\n".join(rows)


def spec_rules_table() -> str:
    """One row per cross-field rule of a spec, in the order they are checked."""
    from dptune.sweep.spec_rules import rules_table

    rows = ["| rule | what it requires |", "|---|---|"]
    rows += [f"| {cell(name)} | {requires} |" for name, requires in rules_table()]
    return "\n".join(rows)


GENERATORS = {
    "knobs": knobs_table,
    "methods": methods_tables,
    "spec-keys": spec_keys_table,
    "spec-rules": spec_rules_table,
}


def generated(markdown: str, where: str) -> str:
    """``markdown`` with every generated table as its generator writes it now; ``ValueError`` (naming
    ``where``) for an unknown table or an opening marker without its closing one."""
    opened = OPENING.findall(markdown)
    closed = [match.group(1) for match in BLOCK.finditer(markdown)]
    if opened != closed:
        missing = next((name for name in opened if opened.count(name) != closed.count(name)), opened[0])
        raise ValueError(f"{where}: <!-- dptune: {missing} --> has no closing <!-- /dptune: {missing} -->")

    def table(match: re.Match) -> str:
        name = match.group(1)
        if name not in GENERATORS:
            known = ", ".join(GENERATORS)
            raise ValueError(f"{where}: unknown generated table {name!r} (known: {known})")
        return f"<!-- dptune: {name} -->\n\n{GENERATORS[name]().strip()}\n\n<!-- /dptune: {name} -->"

    return BLOCK.sub(table, markdown)


def stale_pages(docs: Path = DOCS) -> list[Path]:
    """The pages under ``docs`` whose generated tables differ from what the generators write now."""
    pages = sorted(docs.rglob("*.md"))
    return [page for page in pages if generated(text := page.read_text(), str(page)) != text]


def on_page_markdown(markdown: str, page: Any, **kwargs: Any) -> str:
    """MkDocs' hook: the page with its generated tables as the code states them now."""
    return generated(markdown, page.file.src_path)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Write or check the generated tables of docs/*.md.")
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--write", action="store_true", help="rewrite the pages whose tables are stale")
    action.add_argument("--check", action="store_true", help="exit 1 naming the pages whose tables are stale")
    args = parser.parse_args(argv)
    stale = stale_pages()
    for page in stale:
        name = page.relative_to(DOCS.parent)
        if args.write:
            page.write_text(generated(page.read_text(), str(page)))
            print(f"wrote {name}")
        else:
            print(f"{name}: its generated tables are stale; run {COMMAND}", file=sys.stderr)
    return 1 if stale and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
