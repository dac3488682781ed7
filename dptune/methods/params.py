"""Typed, validated method parameters shared by the CLI (``--param NAME=VALUE``) and sweep specs.

A value may come as a string from the command line or as a YAML scalar/list; ``Param.convert`` turns
either into the typed value or raises an ``InputError`` naming ``param.NAME`` and what is valid.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from dptune.base.errors import InputError
from dptune.methods.filters import DrawnFilter


def _as_float(value: Any) -> float:
    if isinstance(value, bool):
        raise ValueError
    return float(value)


def _as_int(value: Any) -> int:
    if isinstance(value, bool):
        raise ValueError
    if isinstance(value, str):
        return int(value.strip())
    if isinstance(value, float) and not value.is_integer():
        raise ValueError
    return int(value)


def _as_float_list(value: Any) -> tuple[float, ...]:
    if isinstance(value, str):
        parts = [p for p in value.replace(" ", "").split(",") if p != ""]
        return tuple(float(p) for p in parts)
    if isinstance(value, list | tuple):
        return tuple(_as_float(v) for v in value)
    return (_as_float(value),)


def _as_str(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError
    return value


def _as_filter(value: Any) -> DrawnFilter | str:
    """A filter drawn (and validated) by a search, or a preset name."""
    return value if isinstance(value, DrawnFilter) else _as_str(value)


KINDS: dict[str, tuple[Callable[[Any], Any], str]] = {
    "float": (_as_float, "a number"),
    "int": (_as_int, "an integer"),
    "floats": (_as_float_list, "a comma-separated list of numbers"),
    "str": (_as_str, "a name"),
    "filter": (_as_filter, "a preset name"),
}


@dataclass(frozen=True)
class Param:
    """One method parameter.

    Attributes:
        name: the CLI/spec name.
        kind: ``float``, ``int``, ``floats``, ``str`` or ``filter``.
        default: used when the parameter is not given (``None``: no default, optional).
        check: a predicate on the typed value.
        valid: human description of valid values, used in errors.
        help: one line for ``--help`` and docs.
        changes_noise: whether its value can change the ledger a run is calibrated to (the σ schedule
            (z_t, q) of the whole run), and so the worst plan a sweep's bound counts. Checked for every
            method by ``tests/test_noise_knobs.py`` against the ledger a run actually gets.
        searchable: whether a sweep spec may search it as a knob (filters are searched by family).
    """

    name: str
    kind: str
    default: Any
    check: Callable[[Any], bool]
    valid: str
    help: str
    changes_noise: bool = False
    searchable: bool = True

    def convert(self, value: Any, prefix: str = "param") -> Any:
        """The typed value, errors naming ``PREFIX.NAME`` (a YAML path or ``param.NAME``)."""
        return self.checked(value, f"{prefix}.{self.name}")

    def checked(self, value: Any, field: str) -> Any:
        """The typed value of ``value``, or an ``InputError`` naming ``field`` and what is valid."""
        parse, what = KINDS[self.kind]
        try:
            typed = parse(value)
        except (TypeError, ValueError):
            raise InputError(field, f"must be {what} ({self.valid}), got {value!r}") from None
        if not self.check(typed):
            raise InputError(field, f"must be {self.valid}, got {value!r}")
        return typed


def resolve_params(
    params: tuple[Param, ...], given: Mapping[str, Any], method: str, prefix: str = "param"
) -> dict[str, Any]:
    """Typed values of every parameter: the given ones converted, the rest defaulted.

    Raises ``InputError`` for an unknown name (listing the valid ones) or an invalid value.
    """
    known = {p.name: p for p in params}
    for name in given:
        if name not in known:
            valid = ", ".join(known) or "none"
            raise InputError(f"{prefix}.{name}", f"not a parameter of {method}; valid parameters: {valid}")
    return {p.name: p.convert(given[p.name], prefix) if p.name in given else p.default for p in params}


def parse_assignments(items: list[str] | None, flag: str = "--param") -> dict[str, str]:
    """``["k=2", "beta=0.1"]`` -> ``{"k": "2", "beta": "0.1"}`` (``flag`` names the option in errors)."""
    result: dict[str, str] = {}
    for item in items or []:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise InputError(flag, f"expected NAME=VALUE, got {item!r}")
        result[name.strip()] = value.strip()
    return result
