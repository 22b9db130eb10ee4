"""`hermesctl scan`'s words: unit lists and register ranges parsed strictly, a scan shown as a
person reads it. No socket, no daemon."""

from __future__ import annotations

import pytest

from hermesd import ctl, ctl_scan


def test_unit_lists() -> None:
    assert ctl_scan.parse_units("1-3,7, 9-10") == [1, 2, 3, 7, 9, 10]
    assert ctl_scan.parse_units("5,5,4-6") == [5, 4, 6]  # each once, in the order given
    for bad, said in (("1-", "is not a unit id"), ("a", "is not a unit id"),
                      ("7-3", "within 0..255"), ("1-256", "within 0..255")):
        with pytest.raises(ValueError, match=said):
            ctl_scan.parse_units(bad)


def test_register_ranges() -> None:
    assert ctl_scan.parse_range("holding:0-99") == {"table": "holding", "address": 0,
                                                    "count": 100}
    assert ctl_scan.parse_range("input:30+10") == {"table": "input", "address": 30, "count": 10}
    assert ctl_scan.parse_range("coil:5") == {"table": "coil", "address": 5, "count": 1}
    for bad in ("holdng:1", "holding:9-3", "holding:65535+2", "holding", "input:1-2-3"):
        with pytest.raises(ValueError, match="--registers"):
            ctl_scan.parse_range(bad)


def test_the_request_a_scan_command_line_makes() -> None:
    args = ctl.build_parser().parse_args(
        ["--role", "engineer", "scan", "gw", "--units", "1-3", "--registers", "input:0+4",
         "--probe", "holding:7", "--probe-timeout", "0.25", "--time-limit", "12"])
    req = ctl.make_request(args)
    assert req == {"op": "call", "role": "engineer", "timeout": 17.0, "tool": "modbus",
                   "action": "scan", "args": {
                       "device": "gw", "time_limit_s": 12.0, "max_requests": 500, "block": 16,
                       "units": [1, 2, 3], "ranges": [{"table": "input", "address": 0,
                                                       "count": 4}],
                       "probe": {"table": "holding", "address": 7}, "timeout_ms": 250}}
    args = ctl.build_parser().parse_args(["scan", "gw", "--probe", "holding:1-2"])
    with pytest.raises(ctl.Usage, match="--probe: one register"):
        ctl.make_request(args)


def test_a_scan_in_words() -> None:
    value = {"link": "10.0.0.4:4001 (rtu_over_tcp)", "requests": 6, "elapsed_s": 1.2,
             "probe": {"table": "holding", "address": 0}, "complete": False,
             "stopped": "request limit of 6 reached", "next_unit": 5, "silent": [2, 3],
             "found": [{"unit": 1, "device": "m1", "answer": "exception", "exception": 2,
                        "detail": "illegal data address", "latency_ms": 3.0},
                       {"unit": 4, "answer": "bad_reply", "detail": "2 registers in reply to "
                                                                    "a read of 1",
                        "latency_ms": 9.5,
                        "ranges": [{"table": "coil", "address": 0, "count": 2,
                                    "bits": [True, False]},
                                   {"table": "coil", "address": 2, "count": 1,
                                    "error": "no answer within 0.3 s"}]}]}
    text = ctl_scan.format_scan(value, {"units": [1, 2, 3, 4, 5, 6, 7]})
    assert text.splitlines() == [
        "link 10.0.0.4:4001 (rtu_over_tcp): 2 of 4 unit ids answered (6 requests, 1.2 s)",
        "unit 1  m1: exception 2 (illegal data address), 3.0 ms",
        "unit 4: a reply that does not fit (2 registers in reply to a read of 1), 9.5 ms",
        "    coil 0..1: on off",
        "    coil 2: no answer within 0.3 s",
        "silent: 2-3",
        "stopped: request limit of 6 reached; go on with --units 5-7"]
