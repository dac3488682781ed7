"""MkDocs hook: the documentation's tables that the code owns, generated at build time so that they
cannot drift from it. A page asks for one with a marker line ``<!-- dptune: NAME -->``:

- ``knobs``: every knob of a run (``dptune.training.config.KNOBS``): its default, valid values, whether
  a sweep may search it, and what it is;
- ``methods``: every method in the registry (``dptune.methods.METHODS``) with its parameters, their
  valid values and defaults;
- ``spec-keys``: every plain setting of a sweep spec (``dptune.sweep.spec_keys.SPEC_KEYS``): its YAML path,
  default, valid values and what it is;
- ``spec-rules``: every rule across a spec's settings (``dptune.sweep.spec_rules.SPEC_RULES``): its name
  and what it requires.

An unknown marker fails the build.
"""

from __future__ import annotations

import re
from dataclasses import MISSING, fields
from typing import Any

MARKER = re.compile(r"^<!-- dptune: ([a-z-]+) -->$", re.MULTILINE)


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


def on_page_markdown(markdown: str, page: Any, **kwargs: Any) -> str:
    def generated(match: re.Match) -> str:
        name = match.group(1)
        if name not in GENERATORS:
            known = ", ".join(GENERATORS)
            raise ValueError(f"{page.file.src_path}: unknown generated table {name!r} (known: {known})")
        return GENERATORS[name]()

    return MARKER.sub(generated, markdown)
