"""`python -m tests.support.soak.hostile_inputs --config HERMESD.yaml --seed N`: hostile inputs for the
soak, drawn from the generators of tests/hostile: asked `<kind> <number>` on stdin, it answers
one JSON line (with that number as `asked`).

It runs as a process of its own so that drawing (a few milliseconds an input) never holds the
soak's event loop, whose clients measure hermesd's latency. Each input says, by construction,
what hermesd must do with it: the ids of the requests that must be answered, whether a frame
must be refused and the connection closed, and which write, if any, its words or payload state
(`says`: `[point, value]`). Bytes travel as hex. Draws are reproducible from the seed (kind,
batch and seed make the Hypothesis seed of each batch of draws); nothing is ever shrunk.
It reads the plant from the soak's config and never touches anything.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import yaml
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

from hermesd.config import load_config
from hermesd.control.bounds import MAX_REQUEST
from hermesd.core.protocol import Call, Configure, encode
from hermesd.toolspecs import tool_specs
from tests.hostile import mqtt_messages as M
from tests.hostile.strategies import (
    batch_bytes,
    batches,
    cut,
    odd_point_ids,
    oversize_frames,
    stranger_payloads,
    surrogate_texts,
)
from tests.hostile.value_words import hostile, said, values

BATCH = 20  # draws per Hypothesis run (each run has a fixed cost of its own)
READS_PER_BURST = 200  # reads of odd point ids, pipelined on one connection
#: the point a stranger at the Modbus tool's socket tries to write, and its value; nobody else
#: ever writes it (the operator may not, and the soak's load does not): the device must keep
#: the value it started with
SENTINEL_POINT, SENTINEL_VALUE = "boiler3_setpoint", 21.5
TOOL_ACTIONS = ["read", "write", "read_registers", "write_registers", "status", "grow"]

#: how the dev plant's numeric points are named in commands, in English and in Chinese
WORDS = {
    "pump1_speed": (["set feed pump 1 to {v} rpm", "set feed pump 1 speed to {v}",
                     "change the speed of feed pump 1 to {v} rpm", "feed pump 1 to {v} rpm please"],
                    ["把1号泵转速设为{v}", "1号泵转速调到{v}"]),
    "conveyor_speed": (["set the line A conveyor to {v} m/min", "set line A conveyor speed to {v}",
                        "change the speed of the line A conveyor to {v} m/min"],
                       ["把输送带速度设为{v}", "输送带速度调到{v}"]),
    "boiler3_setpoint": (["set the boiler 3 setpoint to {v}",
                          "set the boiler 3 temperature setpoint to {v} °C"],
                         ["把3号锅炉温度设定值设为{v}", "3号锅炉设定温度调到{v}"]),
}
RELATIVE = ["increase feed pump 1 speed by {v}", "lower the line A conveyor speed by {v}",
            "raise the speed of feed pump 1 by {v}", "把1号泵转速提高{v}"]


def _hex(data: bytes) -> str:
    return data.hex()


def _lone(text: str) -> bool:
    """Whether `text`, sent as JSON escapes, holds a surrogate that is not half of a pair."""
    decoded = json.loads(json.dumps(text))  # a high and a low surrogate become one character
    return any(0xD800 <= ord(ch) <= 0xDFFF for ch in decoded)


class Plant:
    """What the generators need to know of the soak's plant."""

    def __init__(self, config_path: Path) -> None:
        raw = yaml.safe_load(config_path.read_text(encoding="utf-8"))
        config = load_config(config_path)
        self.points = sorted(config.points)
        self.switches = {p: config.points[p].kind == "bool" for p in self.points}
        role = config.access.roles[config.mqtt.command_role] if config.mqtt else None
        may = set() if role is None or role.write is False else \
            set(self.points) if role.write is True else set(role.write)
        self.command_writes = {
            p: (self.switches[p], float(config.points[p].min or 0), float(config.points[p].max or 1))
            for p in sorted(may) if config.points[p].writable}
        node = raw["node"]["id"]
        self.base = f"{raw['mqtt']['base_topic']}/{node}" if raw.get("mqtt") else None
        slice_ = tool_specs(config)["modbus"].config if "modbus" in tool_specs(config) else {}
        self.stranger_frames = encode(Configure(1, slice_)) + encode(Call(
            2, "write", {"point": SENTINEL_POINT, "value": SENTINEL_VALUE}, {"source": "control"},
            2000))


# -- the kinds -----------------------------------------------------------------------------------


def frames(plant: Plant, dry_run: bool) -> st.SearchStrategy[dict[str, Any]]:
    """A batch of control frames, cut anywhere; what must be answered, and what refused."""
    def build(batch: dict[str, Any]) -> dict[str, Any]:
        items = batch["items"]
        first_bad = next((i for i, (kind, _) in enumerate(items) if kind == "bad"), len(items))
        whole = [item for kind, item in items[:first_bad]]
        stream = batch_bytes(items, dry_run=dry_run)
        return {"chunks": [_hex(c) for c in cut(stream, batch["cuts"])] if stream else [],
                "requests": len(items),
                "ids": sorted(str(obj["id"]) for obj, _ in whole if isinstance(obj["id"], str)),
                "without_id": sum(1 for obj, _ in whole if not isinstance(obj["id"], str)),
                "bad": first_bad < len(items), "dry_run": dry_run,
                "ops": sorted({str(obj.get("op"))[:20] for obj, _ in whole})}
    return batches(plant.points, "modbus", TOOL_ACTIONS).map(build)


def oversize() -> st.SearchStrategy[dict[str, Any]]:
    return oversize_frames(MAX_REQUEST).map(lambda f: {
        "chunks": [_hex(f + b"\n")], "requests": 1, "ids": [], "without_id": 0, "bad": True,
        "dry_run": False, "ops": ["oversize"], "size": len(f)})


def reads() -> st.SearchStrategy[dict[str, Any]]:
    """A burst of reads of odd point ids on one connection, and a few lone surrogates, each on
    a connection of its own (a frame refused closes its connection)."""
    def build(drawn: tuple[list[str], list[str]]) -> dict[str, Any]:
        ids, bad = drawn
        burst = [json.dumps({"op": "read", "point": ids[i % len(ids)], "id": f"r{i}"}).encode()
                 + b"\n" for i in range(READS_PER_BURST)]
        # raw, a surrogate is never UTF-8; escaped, a high and a low one are one character
        alone = [(b'{"op": "read", "point": "' + s.encode("utf-8", "surrogatepass") + b'"}\n',
                  True) for s in bad]
        alone += [(json.dumps({"op": "read", "point": s}).encode() + b"\n", _lone(s))
                  for s in bad]
        return {"burst": [_hex(f) for f in burst],
                "alone": [{"frame": _hex(f), "bad": refused} for f, refused in alone],
                "longest_id": max(len(i) for i in ids)}
    return st.tuples(st.lists(odd_point_ids, min_size=1, max_size=40),
                     st.lists(surrogate_texts, min_size=1, max_size=2)).map(build)


@st.composite
def words(draw: st.DrawFn) -> dict[str, Any]:
    """A command an operator types: one value said some way (it may write exactly that), a
    hostile way to say one (it must write nothing), or a change by an amount (nothing)."""
    point = draw(st.sampled_from(sorted(WORDS)))
    english, chinese = WORDS[point]
    kind = draw(st.sampled_from(["one value", "one value", "hostile", "hostile", "relative"]))
    if kind == "relative":
        _, text = draw(values())
        return {"text": draw(st.sampled_from(RELATIVE)).format(v=text), "says": None,
                "form": "relative"}
    if kind == "hostile":
        shown, named, problem = draw(hostile())
        template = draw(st.sampled_from(english + chinese[:1]))
        return {"text": template.format(v=shown), "says": None, "form": f"hostile: {problem}",
                "named": named}
    value, text = draw(values())
    zh = draw(st.booleans())
    shown = draw(said(value, text, zh))
    template = draw(st.sampled_from(chinese if zh else english))
    return {"text": template.format(v=shown), "says": [point, value], "form": "one value"}


def mqtt(plant: Plant) -> st.SearchStrategy[dict[str, Any]]:
    assert plant.base is not None
    return M.messages(plant.base, plant.switches, "soak-hostile").map(_message)


def retained(plant: Plant) -> st.SearchStrategy[dict[str, Any]]:
    assert plant.base is not None
    return M.retained_requests(plant.base, plant.command_writes, "soak-hostile").map(_message)


def _message(m: M.Message) -> dict[str, Any]:
    return {"topic": m.topic, "payload": _hex(m.payload), "qos": m.qos,
            "response_topic": m.response_topic, "user_properties": [list(p) for p in
                                                                    m.user_properties],
            "retain": m.retain, "says": list(m.says) if m.says else None}


def stranger(plant: Plant) -> st.SearchStrategy[dict[str, Any]]:
    return stranger_payloads(plant.stranger_frames).map(lambda p: {"payload": _hex(p)})


# -- drawing -------------------------------------------------------------------------------------


def draws(strategy: st.SearchStrategy[Any], count: int, at: int) -> list[Any]:
    """`count` draws (fewer if the strategy has fewer to give) with Hypothesis seed `at`."""
    out: list[Any] = []

    @settings(max_examples=count, database=None, phases=[Phase.generate], deadline=None,
              suppress_health_check=list(HealthCheck))
    @seed(at)
    @given(strategy)
    def collect(value: Any) -> None:
        out.append(value)

    collect()
    return out


def stream(strategy: st.SearchStrategy[Any], rng: random.Random) -> Iterator[Any]:
    while True:
        yield from draws(strategy, BATCH, rng.getrandbits(64))


def kinds(plant: Plant) -> dict[str, Callable[[], st.SearchStrategy[Any]]]:
    out: dict[str, Callable[[], st.SearchStrategy[Any]]] = {
        "frames": lambda: frames(plant, dry_run=False),
        "frames_dry_run": lambda: frames(plant, dry_run=True),
        "oversize": oversize, "reads": reads, "words": words,
        "stranger": lambda: stranger(plant)}
    if plant.base is not None:
        out["mqtt"] = lambda: mqtt(plant)
        out["retained"] = lambda: retained(plant)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.support.soak.hostile_inputs")
    parser.add_argument("--config", type=Path, required=True)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    plant = Plant(args.config)
    makers = kinds(plant)
    streams: dict[str, Iterator[Any]] = {}
    print(json.dumps({"kinds": sorted(makers)}), flush=True)
    for line in sys.stdin:  # "<kind> <number>": the answer carries the number as `asked`
        kind, _, asked = line.strip().partition(" ")
        if kind not in makers:
            print(json.dumps({"error": f"no such kind {kind!r}", "asked": int(asked or 0)}),
                  flush=True)
            continue
        if kind not in streams:
            rng = random.Random(f"{args.seed}/{kind}")
            streams[kind] = stream(makers[kind](), rng)
        print(json.dumps({"kind": kind, "asked": int(asked or 0), **next(streams[kind])}),
              flush=True)


if __name__ == "__main__":
    main()
