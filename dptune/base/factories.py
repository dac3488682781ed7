"""User code named by an import path, ``package.module:function``: a model or a dataset factory.

A spec's ``model: {factory: "pkg.mod:build", args: {width: 64}}`` (``dptune train --model pkg.mod:build
--model-arg width=64``) calls ``pkg.mod.build(width=64)`` for a ``torch.nn.Module``; a ``dataset``
factory returns the training and held-out data (``dptune.engine.user_data.factory_dataset`` states the
contract). ``load_factory`` imports the function, with a one-line error naming the field;
``local_source`` is the file or folder of the user's code that the workers of a Ray cluster must be sent
(Ray's runtime environment ``py_modules``), or None for code installed in the environment.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import re
import sys
import sysconfig
from collections.abc import Callable
from pathlib import Path
from typing import Any

from dptune.base.errors import InputError

IMPORT_PATH = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*:[A-Za-z_]\w*")
"""``package.module:function``: dotted module names, a colon, a function name."""


def is_import_path(value: object) -> bool:
    return isinstance(value, str) and IMPORT_PATH.fullmatch(value) is not None


def load_factory(path: str, field: str) -> Callable[..., Any]:
    """The function ``path`` names, imported once per process (a run's configuration is checked again
    for every trial's knobs); ``InputError(field, …)`` if it cannot be (not remembered: the user may
    fix it)."""
    if not is_import_path(path):
        raise InputError(field, f"must be an import path package.module:function, got {path!r}")
    try:
        return _imported(path)
    except _FactoryError as exc:
        raise InputError(field, str(exc)) from None


class _FactoryError(Exception):
    """Why an import path names no function (the caller adds the field)."""


@functools.cache
def _imported(path: str) -> Callable[..., Any]:
    module_name, _, name = path.partition(":")
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:  # the user's module may fail to import in any way
        reason = (str(exc).splitlines() or [""])[0]
        raise _FactoryError(
            f"cannot import {module_name} ({type(exc).__name__}: {reason}); run from the folder that "
            "holds it or add that folder to PYTHONPATH"
        ) from None
    function = getattr(module, name, None)
    if not callable(function):
        raise _FactoryError(f"{module_name} has no function {name!r}")
    return function


def call_factory(path: str, args: dict[str, Any], field: str) -> Any:
    """``function(**args)`` of the factory ``path``; a failing call is an ``InputError`` naming it."""
    function = load_factory(path, field)
    try:
        return function(**args)
    except Exception as exc:
        reason = (str(exc).splitlines() or [""])[0]
        raise InputError(field, f"{path}(**{args}) failed ({type(exc).__name__}: {reason})") from None


def _installed(where: Path) -> bool:
    """Whether ``where`` lies in the environment (the standard library or site-packages)."""
    roots = {sysconfig.get_paths()[key] for key in ("stdlib", "platstdlib", "purelib", "platlib")}
    return any(where.is_relative_to(Path(root)) for root in roots) or "site-packages" in where.parts


def local_source(path: str) -> str | None:
    """The file (a module) or folder (a package) of the top-level package of ``path``'s module when it is
    the user's own code, else None (installed, or dptune itself: every worker has those)."""
    top = path.partition(":")[0].split(".")[0]
    if top == "dptune" or top in sys.builtin_module_names:
        return None
    spec = importlib.util.find_spec(top)
    if spec is None:
        return None
    if spec.submodule_search_locations:
        where = Path(next(iter(spec.submodule_search_locations)))
    elif spec.origin is not None and spec.origin.endswith(".py"):
        where = Path(spec.origin)
    else:
        return None
    return None if _installed(where.resolve()) else str(where.resolve())
