"""The import graph: hermesd's modules import each other without a cycle, however long or lazy;
tools reach hermesd only through its shared core, which imports nothing else of hermesd."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tests.support.import_graph import cycles, graph, imports, modules

ROOT = Path(__file__).resolve().parent.parent


def test_hermesd_has_no_import_cycle() -> None:
    found = cycles(graph(ROOT, "hermesd"))
    assert not found, "import cycles in hermesd/:\n" + "\n".join(" -> ".join(c) for c in found)


def test_a_cycle_is_found_and_named(tmp_path: Path) -> None:
    """The check itself: a lazy import inside a function and a relative one close a cycle."""
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from pkg.sub import b\n")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "b.py").write_text("def f():\n    from . import c\n")
    (pkg / "sub" / "c.py").write_text("from typing import TYPE_CHECKING\n"
                                      "if TYPE_CHECKING:\n    import pkg.a\n")
    (pkg / "d.py").write_text("import pkg.a\n")
    assert cycles(graph(tmp_path, "pkg")) == [["pkg.a", "pkg.sub.b", "pkg.sub.c", "pkg.a"]]


def _outside(path_root: Path, package: str, allowed: Callable[[str, Path], bool]) -> list[str]:
    """Every import of hermesd in `path_root/package` that `allowed` refuses, as file:line."""
    known = modules(path_root, package)
    return [f"{path.relative_to(ROOT)}:{i.line}: {i.target}"
            for name, path in known.items() for i in imports(name, path)
            if (i.target == "hermesd" or i.target.startswith("hermesd."))
            and not allowed(i.target, path)]


def test_tools_import_hermesd_only_through_its_core() -> None:
    """Tools may use the shared core (hermesd/core) and the version; the plant simulator, a
    development tool the daemon never runs, may also read a plant's config."""
    sim = ROOT / "tools" / "hermes_tools" / "sim"

    def allowed(target: str, path: Path) -> bool:
        return target.startswith("hermesd.core.") or target == "hermesd.__version__" or (
            path.is_relative_to(sim) and target.startswith("hermesd.config."))

    outside = _outside(ROOT / "tools", "hermes_tools", allowed)
    assert not outside, "tools reaching into hermesd past its core:\n" + "\n".join(outside)


def test_the_core_imports_nothing_else_of_hermesd() -> None:
    outside = _outside(ROOT, "hermesd", lambda target, path: not path.is_relative_to(
        ROOT / "hermesd" / "core") or target.startswith("hermesd.core."))
    assert not outside, "hermesd/core importing the rest of hermesd:\n" + "\n".join(outside)
