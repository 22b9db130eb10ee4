"""Waiting for a condition that another process, thread or task makes true, never for a time.

`until(condition)` on a test's event loop and `until_sync(condition)` elsewhere poll `condition()`
every `every` seconds until it returns something truthy, and return that; at `timeout` they
raise TimeoutError naming `what`. On the loop, `condition` may also be a coroutine function
(a question asked over a socket: hermesd's status). `gone()` (optional), asked each round, says why waiting is
pointless (a daemon that died will not make anything true): what it returns ends the wait at
once with RuntimeError. The benchmarks and the soak wait with these too.
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Callable
from typing import Any

EVERY = 0.02  # seconds between looks: quick to notice, cheap on a 2-core machine


def _check(value: Any, deadline: float, timeout: float, what: str,
           gone: Callable[[], str | None] | None) -> Any:
    if value:
        return value
    if gone is not None and (why := gone()):
        raise RuntimeError(f"gave up waiting for {what}: {why}")
    if time.monotonic() > deadline:
        raise TimeoutError(f"timed out after {timeout:g} s waiting for {what}")
    return None


async def until(condition: Callable[[], Any], timeout: float = 10.0, what: str = "it", *,
                every: float = EVERY, gone: Callable[[], str | None] | None = None) -> Any:
    """Poll `condition` on the running loop until it holds; its value."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if inspect.isawaitable(value):
            value = await value
        if _check(value, deadline, timeout, what, gone):
            return value
        # another process's condition: there is no event to await, only its effect to see
        await asyncio.sleep(every)


def until_sync(condition: Callable[[], Any], timeout: float = 10.0, what: str = "it", *,
               every: float = EVERY, gone: Callable[[], str | None] | None = None) -> Any:
    """Poll `condition` in this thread until it holds; its value."""
    deadline = time.monotonic() + timeout
    while not (value := _check(condition(), deadline, timeout, what, gone)):
        time.sleep(every)
    return value
