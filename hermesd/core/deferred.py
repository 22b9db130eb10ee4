"""Modules a library imports at its top but uses only on a path that may never run.

`defer_import("urllib.request")` puts a stand-in for the module in `sys.modules`: an `import`
of it finds the stand-in and runs nothing, and the first attribute asked of it imports the real
module, which takes its place in `sys.modules` and in its package, so what is reached through
the package (`urllib.request.getproxies`, as paho does) is the real module from then on.
Nothing is dropped or stubbed: every attribute is the real module's, only loaded later.
(`importlib.util.LazyLoader` cannot do this on Python 3.11: an `import` statement of a module
in `sys.modules` reads its `__spec__`, which loads a lazy module at once.)
A module already imported stays as it is.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types
from typing import Any


class _Deferred(types.ModuleType):
    """Stands in for a module not imported yet; `__getattr__` is asked only for what the
    stand-in lacks (everything but its name, spec and doc)."""

    def __getattr__(self, attr: str) -> Any:
        name = self.__name__
        if sys.modules.get(name) is self:
            del sys.modules[name]
        return getattr(importlib.import_module(name), attr)


def defer_import(name: str) -> None:
    """Import module `name` (not its package, which is imported now) at its first use."""
    if name in sys.modules:
        return
    spec = importlib.util.find_spec(name)
    if spec is None:
        raise ModuleNotFoundError(f"no module named {name!r}", name=name)
    stand_in = _Deferred(name)
    stand_in.__spec__ = spec
    sys.modules[name] = stand_in
    parent, _, child = name.rpartition(".")
    if parent:  # as an import would do: `import urllib.request` then `urllib.request.x`
        setattr(sys.modules[parent], child, stand_in)
