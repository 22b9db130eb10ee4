"""hermesd's modules import each other as a tree: no cycle, however long or lazy."""

from __future__ import annotations

from pathlib import Path

from tests.support.import_graph import cycles, graph

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
