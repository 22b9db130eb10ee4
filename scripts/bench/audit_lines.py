"""Benchmark of the audit trail's long-text check on the lines it judges.

    .venv/bin/python scripts/bench/audit_lines.py

Every audit line is judged by `within_bounds` (does any text in it run past the limit?) before
it is written as it is. Printed per line, in the same run: one `split` of the line at its quotes
(the check it replaced) and `within_bounds`, with the ratio. The worst lines are texts all just
within the limit, for which a search starting at every byte once took limit/2 steps a byte.
Nothing is asserted.
"""

from __future__ import annotations

import timeit
from collections.abc import Callable
from typing import Any

from hermesd.audit_records import encode, within_bounds

HEAD = {"ts": "2026-11-30T09:00:00.000Z", "seq": 1}


def best(fn: Callable[[], Any]) -> float:
    """The best of seven runs, microseconds per call."""
    return min(timeit.repeat(fn, number=20, repeat=7)) / 20 * 1e6


def main() -> None:
    lines = {
        "a read's record": (encode(HEAD, {"op": "read", "point": "boiler3_temp", "peer": "uid 0",
                                          "status": "ok", "value": 523.4})[0], 256),
    }
    for limit in (256, 2048):
        record = {f"k{i}": "x" * limit for i in range(60)}
        lines[f"60 texts at {limit} B"] = (encode(HEAD, record)[0], limit)
    print(f"{'line':24} {'bytes':>7} {'split':>10} {'within_bounds':>14} {'ratio':>7}")
    for name, (line, limit) in lines.items():
        split = best(lambda line=line: max(map(len, line.split(b'"'))))
        judged = best(lambda line=line, limit=limit: within_bounds(line, limit))
        print(f"{name:24} {len(line):7} {split:8.2f}us {judged:12.2f}us {judged / split:6.2f}x")


if __name__ == "__main__":
    main()
