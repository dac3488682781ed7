"""``python -m dptune.cli``: the ``dptune`` command."""

from dptune.cli import console

console()
