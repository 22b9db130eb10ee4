"""Poll groups against the simulator's pymodbus server: each group read at its own rate in its
own coalesced blocks (counted by the requests the server saw), one probe at a time while the
device is offline, and the group keys checked where the config is read."""

from __future__ import annotations

import itertools
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from hermesd.core.errors import ConfigError
from tests.support.ports import free_port
from tests.support.until import until
from tests.tools.modbus.plant import load, running_tool, simulating

CTX: dict[str, Any] = {}


def _u16(address: int, **extra: Any) -> dict[str, Any]:
    return {"table": "input", "address": address, "type": "uint16", **extra}


def _grouped(port: int) -> dict[str, Any]:
    """Two fast points and two slow ones at neighbouring addresses: one block would read them
    all; groups must not share blocks."""
    return {"driver": "modbus", "transport": "tcp", "host": "127.0.0.1", "port": port,
            "poll_interval": "2s", "timeout": "300ms",
            "groups": {"fast": {"poll_interval": "100ms"}},
            "points": {"flow": _u16(0, group="fast"), "level": _u16(1, group="fast"),
                       "ambient": _u16(2), "hours": _u16(3, poll_interval="1s")}}


def _reads(sim: Any) -> Counter[tuple[str, int, int]]:
    return sim.units["plc"][1].reads  # type: ignore[no-any-return]


async def test_fast_and_slow_groups_are_read_at_their_own_rates_in_their_own_blocks(
        tmp_path: Path) -> None:
    config = load({"plc": _grouped(free_port())}, tmp_path)
    assert config.points["flow"].poll_interval == 0.1
    assert config.points["ambient"].poll_interval is None  # the device's 2 s
    assert config.points["hours"].poll_interval == 1.0
    async with simulating(config) as sim, running_tool(config) as t:
        fast, one_s, two_s = ("input", 0, 2), ("input", 3, 1), ("input", 2, 1)
        await until(lambda: _reads(sim)[two_s] >= 2, timeout=15,
                         what="two polls of the 2 s group")
        reads = dict(_reads(sim))
        # every request the server saw is one of the three groups' blocks, never a mix
        assert set(reads) == {fast, one_s, two_s}, reads
        # the 2 s group was read twice (at 0 s and 2 s): the 1 s group two to four times, the
        # 100 ms group about 20 times (a loaded machine may lose some, never gain; in one
        # group all three would be read equally often)
        assert 2 <= reads[one_s] <= 4, reads
        assert 6 <= reads[fast] <= 25, reads
        status = (await t.tool.status({}, CTX))["devices"]["plc"]
        assert [(g["interval_s"], g["points"]) for g in status["poll_groups"]] == \
            [(0.1, 2), (1.0, 1), (2.0, 1)]
        # each poll sends its own group's values, fresh
        assert len(t.values("flow")) >= 4 * len(t.values("ambient"))


async def test_an_offline_device_is_probed_by_one_group_at_a_time(tmp_path: Path) -> None:
    device = _grouped(free_port())
    device["groups"]["also_fast"] = {"poll_interval": "150ms"}
    device["points"]["ambient"]["group"] = "also_fast"
    config = load({"plc": device}, tmp_path)
    async with simulating(config) as sim, running_tool(config) as t:
        await until(lambda: t.states("plc"), what="online")
        await sim.drop("plc")  # silent: every try holds the link for a timeout (300 ms)
        await until(lambda: len(t.states("plc")) == 2, what="offline")
        dev = t.tool.devices["plc"]
        failures = dev.health.failures
        await until(lambda: dev.health.failures >= failures + 6, timeout=15,
                         what="six more tries")
        times = list(sim.units["plc"][1].read_times)[-4:]
        # one try at a time, whichever group makes it: a try takes the timeout (0.3 s), the
        # next is due 0.1 s (jittered +-20 %) after it; three groups trying each would send
        # theirs back to back, 0.3 s apart (a poll already waiting for the link when the
        # device went quiet sends its request once, at the start of the outage)
        gaps = [b - a for a, b in itertools.pairwise(times)]
        assert min(gaps) > 0.3 + 0.8 * 0.1 - 0.005, gaps
        await sim.restore("plc")
        await until(lambda: len(t.states("plc")) == 3, what="online again")


@pytest.mark.parametrize(("change", "message"), [
    ({"groups": {"fast": {"poll_interval": "10ms"}}},
     "devices.plc.groups.fast.poll_interval: 10ms is shorter than the shortest poll interval "
     "(50ms)"),
    ({"groups": {"fast": {"deadband": 1}}},
     "devices.plc.groups.fast.poll_interval: is required: how often the group's points are "
     "read"),
    ({"groups": {"fast": {"poll_interval": "100ms", "every": "1s"}}},
     "devices.plc.groups.fast.every: unknown key"),
    ({"points": {"flow": _u16(0, group="fats")}},
     "devices.plc.points.flow.group: no group 'fats' in the device's groups (groups: fast) "
     "(did you mean 'fast'?)"),
    ({"points": {"flow": _u16(0, poll_interval="20ms")}},
     "devices.plc.points.flow.poll_interval: 20ms is shorter than the shortest poll interval "
     "(50ms)"),
    ({"points": {"on": {"table": "coil", "address": 0, "deadband": 1}}},
     "devices.plc.points.on.deadband: a bool point takes no deadband: every change of it is "
     "published and kept in history"),
    ({"points": {"flow": _u16(0, deadband="2 percent")}},
     "devices.plc.points.flow.deadband: expected a change in the point's unit (e.g. 0.5) or a "
     "percentage of the last published value (e.g. 2%), got the text '2 percent'"),
    ({"points": {"flow": _u16(0, deadband=0)}},
     "devices.plc.points.flow.deadband: 0 must be more than 0"),
    ({"points": {"flow": _u16(0, deadband="101%")}},
     "devices.plc.points.flow.deadband: 101% is more than 100%"),
])
def test_group_and_deadband_mistakes_are_named(tmp_path: Path, change: dict[str, Any],
                                               message: str) -> None:
    device = _grouped(free_port())
    for key, value in change.items():
        device[key] = {**device[key], **value}
    with pytest.raises(ConfigError) as caught:
        load({"plc": device}, tmp_path)
    assert any(line.startswith(f"config error: {message}") for line in caught.value.lines()), \
        caught.value.lines()


def test_a_groups_deadband_is_its_numeric_points_and_a_points_own_wins(tmp_path: Path) -> None:
    device = _grouped(free_port())
    device["groups"]["fast"]["deadband"] = "2%"
    device["points"]["level"]["deadband"] = 0.5
    device["points"]["alarm"] = {"table": "discrete", "address": 0, "group": "fast"}
    config = load({"plc": device}, tmp_path)
    flow, level, alarm = (config.points[p] for p in ("flow", "level", "alarm"))
    assert flow.deadband is not None and flow.deadband.describe() == "2%"
    assert level.deadband is not None and level.deadband.describe() == "0.5"
    assert alarm.deadband is None and alarm.poll_interval == 0.1
