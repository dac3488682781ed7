"""Measure how dptune's imports follow its layers: cycles, imports against the layers, the Ray/Optuna/
MLflow boundary and the largest module.

The layers are the ``layers`` contract in ``pyproject.toml`` (``[tool.importlinter]``, enforced by
``lint-imports`` in ``make test``); this script counts what that contract only passes or fails, so a
refactoring can quote before and after. The import graph is grimp's (the library behind import-linter),
imports inside functions included.

    python bench/layers.py            # this checkout
    python bench/layers.py --root DIR # another checkout (e.g. a git worktree of an older commit)
"""

from __future__ import annotations

import argparse
import json
import sys
import tomllib
from pathlib import Path
from typing import Any

import grimp

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("dptune", "trainables")
SWEEP_LIBRARIES = ("ray", "optuna", "mlflow")


def layer_contract(root: Path) -> list[tuple[list[str], bool]]:
    """The layers, top first: (sibling modules, whether they are independent: ``a | b``, not ``a : b``)."""
    config = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["importlinter"]
    (contract,) = [c for c in config["contracts"] if c["type"] == "layers"]
    return [
        ([name.strip() for name in layer.replace(":", "|").split("|")], ":" not in layer)
        for layer in contract["layers"]
    ]


def strongly_connected(nodes: set[str], edges: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components with more than one node: the import cycles."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in edges.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(10_000)
    for node in sorted(nodes):
        if node not in index:
            visit(node)
    return found


def package_of(module: str) -> str:
    """``dptune.methods.registry`` -> ``dptune.methods``; ``dptune.training.train`` -> ``dptune.training``."""
    return ".".join(module.split(".")[:2])


def measure(root: Path) -> dict[str, Any]:
    sys.path.insert(0, str(root))
    graph = grimp.build_graph(*PACKAGES, include_external_packages=True, cache_dir=None)
    ours = {m for m in graph.modules if m.split(".")[0] in PACKAGES}
    edges = {m: {t for t in graph.find_modules_directly_imported_by(m) if t in ours} for m in ours}
    package_edges: dict[str, set[str]] = {}
    for source, targets in edges.items():
        for target in targets:
            if package_of(source) != package_of(target):
                package_edges.setdefault(package_of(source), set()).add(package_of(target))

    layers = layer_contract(root)

    def layer(module: str) -> tuple[int, str] | None:
        for depth, (siblings, _) in enumerate(layers):
            for name in siblings:
                if module == name or module.startswith(name + "."):
                    return depth, name
        return None

    against = []
    for source, targets in sorted(edges.items()):
        for target in sorted(targets):
            here, there = layer(source), layer(target)
            if here is None or there is None or here[1] == there[1]:
                continue
            if there[0] < here[0] or (there[0] == here[0] and layers[here[0]][1]):
                against.append(f"{source} -> {target}")  # upwards, or between independent siblings
    libraries = {
        library: sorted(m for m in ours if library in graph.find_modules_directly_imported_by(m))
        for library in SWEEP_LIBRARIES
    }
    sizes = {
        m: len((root / (m.replace(".", "/") + ".py")).read_text().splitlines())
        for m in ours
        if (root / (m.replace(".", "/") + ".py")).is_file()
    }
    largest = max(sizes, key=sizes.__getitem__)
    return {
        "modules": len(ours),
        "module_cycles": strongly_connected(ours, edges),
        "package_cycles": strongly_connected(set(map(package_of, ours)), package_edges),
        "imports_against_layers": against,
        "unplaced_modules": sorted(m for m in ours if layer(m) is None),
        "sweep_library_imports": libraries,
        "largest_module": {"module": largest, "lines": sizes[largest]},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="checkout to measure (default: this one)")
    args = parser.parse_args()
    result = measure(args.root.resolve())
    print(json.dumps(result, indent=1))
    print(
        f"{len(result['module_cycles'])} module cycles, {len(result['package_cycles'])} package cycles, "
        f"{len(result['imports_against_layers'])} imports against the layers, largest module "
        f"{result['largest_module']['module']} ({result['largest_module']['lines']} lines)",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
