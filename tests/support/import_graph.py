"""The import graph of a source tree, read from the code (ast), not by importing it.

Every `import` counts wherever it is written: at the top, inside a function (a lazy import
still ties the modules together) or under `if TYPE_CHECKING:`.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Import:
    module: str  # the importing module
    target: str  # the dotted name imported (a module, or a name inside one)
    line: int


def modules(root: Path, package: str) -> dict[str, Path]:
    """Dotted module name -> file, for every .py file of `root/package`."""
    out: dict[str, Path] = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def imports(name: str, path: Path) -> Iterator[Import]:
    """Every name `path` (module `name`) imports, relative imports made absolute."""
    is_package = path.name == "__init__.py"
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield Import(name, alias.name, node.lineno)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = name.split(".") if is_package else name.split(".")[:-1]
                parts = parts[:len(parts) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            for alias in node.names:
                yield Import(name, f"{base}.{alias.name}", node.lineno)


def owner(target: str, known: dict[str, Path]) -> str | None:
    """The module of `known` that a dotted name lives in (itself, or its longest prefix)."""
    while target and target not in known:
        target = target.rpartition(".")[0]
    return target or None


def graph(root: Path, package: str) -> dict[str, set[str]]:
    """module -> the modules of the same package it imports."""
    known = modules(root, package)
    out: dict[str, set[str]] = {}
    for name, path in known.items():
        deps = {owner(i.target, known) for i in imports(name, path)}
        out[name] = {d for d in deps if d is not None and d != name}
    return out


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """One cycle (a -> b -> ... -> a) through each strongly connected group of modules."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []

    def visit(v: str) -> None:  # Tarjan's algorithm; the graph is a few hundred nodes
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.add(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(group)

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return [_cycle_in(group, edges) for group in groups]


def _cycle_in(group: set[str], edges: dict[str, set[str]]) -> list[str]:
    """The shortest path from the group's first module back to itself (breadth first)."""
    start = min(group)
    came: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for v in frontier:
            for w in sorted(edges[v] & group):
                if w == start:
                    path = [v]
                    while path[-1] != start:
                        path.append(came[path[-1]])
                    return [start, *reversed(path[:-1]), start]
                if w not in came:
                    came[w] = v
                    following.append(w)
        frontier = following
    raise AssertionError(f"no cycle in the strongly connected group {sorted(group)}")
