"""The documentation's generated tables are in the committed Markdown (they read whole on GitHub, not
only on the built site), as the code states them now: ``python mkdocs_hooks.py --write`` writes them."""

from __future__ import annotations

import re
from dataclasses import MISSING, fields
from pathlib import Path

import pytest

import mkdocs_hooks
from dptune.methods import METHODS
from dptune.sweep.spec_keys import SPEC_KEYS
from dptune.training.config import KNOBS, RunConfig

DOCS = Path(__file__).parents[1] / "docs"


def test_the_committed_pages_hold_the_tables_the_code_states_now() -> None:
    stale = [str(page.relative_to(DOCS.parent)) for page in mkdocs_hooks.stale_pages(DOCS)]
    assert stale == [], f"out of date: {', '.join(stale)}; run {mkdocs_hooks.COMMAND}"


def test_the_reference_lists_every_knob_with_its_default_and_every_spec_key() -> None:
    """Read as a person reads the file on GitHub: a row per knob, its default as the table states it."""
    reference = (DOCS / "reference.md").read_text()
    defaults = {f.name: f.default for f in fields(RunConfig)}
    for name in KNOBS:
        default = defaults[name]
        shown = "required" if default is MISSING else "none" if default is None else f"`{default}`"
        assert re.search(rf"^\| `{name}` \| {re.escape(shown)} \|", reference, re.MULTILINE), name
    for key in SPEC_KEYS:
        assert f"| `{key.path}` |" in reference, key.path
    methods = (DOCS / "methods.md").read_text()
    for name in METHODS:
        assert f"### `{name}`" in methods, name


def test_a_stale_table_is_rewritten_and_a_broken_marker_refused(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("# Page\n\n<!-- dptune: knobs -->\n| old | table |\n<!-- /dptune: knobs -->\n\nAfter.\n")
    assert mkdocs_hooks.stale_pages(tmp_path) == [page]
    written = mkdocs_hooks.generated(page.read_text(), "page.md")
    assert "| old | table |" not in written and written.endswith("<!-- /dptune: knobs -->\n\nAfter.\n")
    assert all(f"| `{name}` |" in written for name in KNOBS)
    page.write_text(written)
    assert mkdocs_hooks.stale_pages(tmp_path) == []
    with pytest.raises(ValueError, match="has no closing <!-- /dptune: knobs -->"):
        mkdocs_hooks.generated("<!-- dptune: knobs -->\n", "page.md")
    with pytest.raises(ValueError, match="unknown generated table 'nope'"):
        mkdocs_hooks.generated("<!-- dptune: nope -->\n<!-- /dptune: nope -->\n", "page.md")
