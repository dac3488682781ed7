"""The DP methods by name: every module of ``dptune.methods.catalog`` contributes its ``DEFINITION``.

Each method is one module there, a short composition of stages with its parameters and defaults
(``dpsgd``, ``lp-dpsgd``, ``dp-adambc``, …; docs/methods.md describes them all). ``METHODS``
lists them by name in alphabetical order; every other list of method names (CLI choices, spec
validation, trainables, table-driven tests) is read from it.

σ is always the paper's noise multiplier: noise std / C of the paper's privatized sum. For fo-dp-sgd that
privatized sum is β·s_t + (1−β)·u + N(0, σ²C²), so the accountant sees σ/β (see ``fractional``).
"""

from __future__ import annotations

import importlib
import pkgutil

from dptune.base.errors import InputError
from dptune.methods import catalog
from dptune.methods.definition import MethodDefinition


def _collect() -> dict[str, MethodDefinition]:
    """Every catalog module's ``DEFINITION``, by method name (a module without one, or two modules
    defining the same name, is a programming error)."""
    found: dict[str, MethodDefinition] = {}
    for info in pkgutil.iter_modules(catalog.__path__):
        module = importlib.import_module(f"{catalog.__name__}.{info.name}")
        definition = getattr(module, "DEFINITION", None)
        if not isinstance(definition, MethodDefinition):
            raise TypeError(f"{module.__name__} must define DEFINITION, a MethodDefinition")
        if definition.name in found:
            raise TypeError(f"{module.__name__}: method {definition.name!r} is defined twice")
        found[definition.name] = definition
    return dict(sorted(found.items()))


METHODS: dict[str, MethodDefinition] = _collect()


def get_method(name: str, field: str = "method") -> MethodDefinition:
    """The named method's definition; ``InputError`` listing the valid names otherwise."""
    if name not in METHODS:
        raise InputError(field, f"unknown method {name!r}; valid: {', '.join(METHODS)}")
    return METHODS[name]
