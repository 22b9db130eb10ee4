"""How hermesd and its tools run their asyncio loop: uvloop when it is installed.

uvloop halves the cost of each socket hop on the request path (control socket -> daemon ->
tool -> back). It is optional: without it (or with HERMESD_UVLOOP=0) the standard loop runs,
and everything behaves the same, only slower. A few seconds after start the loop hands back the
memory start-up freed (`heap.release`); the process settles its garbage collector once start-up
is over (`heap.settle`).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from hermesd.core import heap

T = TypeVar("T")


def loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    if os.environ.get("HERMESD_UVLOOP", "1") == "0":
        return None
    try:
        import uvloop
    except ImportError:
        return None
    factory: Callable[[], asyncio.AbstractEventLoop] = uvloop.new_event_loop
    return factory


def run(main: Coroutine[Any, Any, T]) -> T:
    heap.own_process()  # the daemon's or a tool's main: `heap.settle` may tune the gc
    with asyncio.Runner(loop_factory=loop_factory()) as runner:
        loop = runner.get_loop()
        for delay in heap.AFTER_START:  # timers, not tasks: nothing to cancel at the end
            loop.call_later(delay, heap.release)
        return runner.run(main)
