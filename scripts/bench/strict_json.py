"""Benchmark of strict JSON decoding: what refusing repeated keys costs every frame.

    .venv/bin/python scripts/bench/strict_json.py [--rounds 20000]

`hermesd.core.strict_json.loads` decodes every control request, tool frame and MQTT payload. It
refuses an object that names a key twice with an `object_pairs_hook` (one C-level dict build
per object). Printed, per kind of frame, in the same run: plain `json.loads` (the least any
decoder does), the strict decoder without the hook (as it was), and `strict_json.loads` (as it
is), with the ratios. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from typing import Any

from hermesd.core import strict_json

FRAMES = {
    "control request": {"op": "write", "point": "pump1_speed", "value": 1000, "id": 17,
                        "role": "operator"},
    "tool result": {"type": "result", "id": 5, "value": {"point": "boiler3_temp",
                                                         "value": 523.4, "ts": 1764600000.123}},
    "values event (200)": {"type": "event", "kind": "values", "data": {"values": [
        {"point": f"point_{i}", "value": i * 1.5, "ts": 1764600000.1} for i in range(200)]}},
}


def _without_hook() -> Callable[[bytes], Any]:
    """strict_json.loads with the decoders it had before repeated keys were refused."""
    plain = json.JSONDecoder(parse_constant=strict_json._no_constant)
    checked = json.JSONDecoder(parse_constant=strict_json._no_constant,
                               parse_float=strict_json._finite,
                               parse_int=strict_json._bounded)

    def loads(data: bytes) -> Any:
        saved = strict_json._PLAIN, strict_json._CHECKED
        strict_json._PLAIN, strict_json._CHECKED = plain, checked
        try:
            return strict_json.loads(data)
        finally:
            strict_json._PLAIN, strict_json._CHECKED = saved
    return loads


def _per_call(fn: Callable[[bytes], Any], data: bytes, rounds: int) -> float:
    """Median of five runs, microseconds per call."""
    runs = []
    for _ in range(5):
        started = time.perf_counter()
        for _ in range(rounds):
            fn(data)
        runs.append((time.perf_counter() - started) / rounds * 1e6)
    return statistics.median(runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20000)
    args = parser.parse_args()
    before = _without_hook()
    print(f"{'frame':20} {'json.loads':>11} {'no hook':>9} {'strict':>9} {'strict/no hook':>15}")
    for name, obj in FRAMES.items():
        data = json.dumps(obj).encode()
        rounds = max(100, args.rounds // (len(data) // 100 + 1))
        assert strict_json.loads(data) == before(data) == json.loads(data)
        base = _per_call(json.loads, data, rounds)
        old = _per_call(before, data, rounds)
        new = _per_call(strict_json.loads, data, rounds)
        print(f"{name:20} {base:9.2f}us {old:7.2f}us {new:7.2f}us {new / old:14.2f}x")


if __name__ == "__main__":
    main()
