"""`hermesctl scan`: its arguments, the `modbus.scan` call they make, and the scan shown in words.

    hermesctl scan DEVICE [--units 1-247] [--registers holding:0-99 ...] [--probe TABLE:ADDR]
                          [--probe-timeout S] [--time-limit S] [--max-requests N] [--block N]

DEVICE is a configured Modbus device: its link (gateway or serial bus) is scanned, nothing else.
Addresses are 0-based, as everywhere in hermesd's raw access. A scan reads only; it needs the
`raw_read` permission and is audited like every `call`. Nothing here talks to a socket.
"""

from __future__ import annotations

import argparse
import re
from typing import Any

TABLES = ("holding", "input", "coil", "discrete")
MAX_TIME_LIMIT = 110.0  # seconds: within the daemon's longest request (120 s), with room to answer
RANGE = re.compile(r"(?P<table>[a-z]+):(?P<first>\d+)(?:(?P<sep>[-+])(?P<second>\d+))?")


def add_parser(sub: Any, common: argparse.ArgumentParser, seconds: Any) -> None:
    p = sub.add_parser("scan", parents=[common],
                       help="probe unit ids and registers on a Modbus device's link (read-only)")
    p.add_argument("device", help="a configured Modbus device: its link is scanned")
    p.add_argument("--units", default=None, metavar="LIST",
                   help="unit ids, e.g. 1-247 or 1,3,10-20 (default: the device's own)")
    p.add_argument("--registers", action="append", default=[], metavar="TABLE:A-B",
                   help="registers to read from each unit that answers, e.g. holding:0-99, "
                        "input:30+10 (0-based; may be given again)")
    p.add_argument("--probe", default=None, metavar="TABLE:ADDR",
                   help="the register asked to find a unit (default: the first of --registers, "
                        "else holding:0)")
    p.add_argument("--probe-timeout", type=seconds(5.0), default=None, metavar="SECONDS",
                   help="how long to wait for each answer (default: the device's timeout, at "
                        "most 0.3)")
    p.add_argument("--time-limit", type=seconds(MAX_TIME_LIMIT), default=30.0,
                   metavar="SECONDS", help=f"stop after this long (default 30, at most "
                                           f"{MAX_TIME_LIMIT:g})")
    p.add_argument("--max-requests", type=_bounded(1, 2000), default=500, metavar="N",
                   help="stop after this many requests (default 500, at most 2000)")
    p.add_argument("--block", type=_bounded(1, 125), default=16, metavar="N",
                   help="registers per request within a range (default 16)")


def _bounded(lo: int, hi: int) -> Any:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"{value} is not in {lo}..{hi}")
        return value
    return parse


def parse_units(text: str) -> list[int]:
    """"1-5,9" -> [1, 2, 3, 4, 5, 9]; ValueError naming the bad part."""
    units: list[int] = []
    for part in (p.strip() for p in text.split(",")):
        match = re.fullmatch(r"(\d+)(?:-(\d+))?", part)
        if not match:
            raise ValueError(f"--units: {part!r} is not a unit id or a range like 1-247")
        first = int(match.group(1))
        last = int(match.group(2) or first)
        if not 0 <= first <= last <= 255:
            raise ValueError(f"--units: {part!r} is not within 0..255 (first to last)")
        units.extend(range(first, last + 1))
    return list(dict.fromkeys(units))


def parse_range(text: str) -> dict[str, Any]:
    """"holding:0-99" (first-last), "input:30+10" (first+count) or "coil:5" (one)."""
    match = RANGE.fullmatch(text.strip())
    if not match or match.group("table") not in TABLES:
        raise ValueError(f"--registers: {text!r} is not TABLE:FIRST-LAST, TABLE:FIRST+COUNT or "
                         f"TABLE:ADDRESS (tables: {', '.join(TABLES)})")
    first = int(match.group("first"))
    second = int(match.group("second") or 0)
    sep = match.group("sep")
    count = second - first + 1 if sep == "-" else second if sep == "+" else 1
    if count < 1 or first + count > 65536:
        raise ValueError(f"--registers: {text!r} is not a range within 0..65535")
    return {"table": match.group("table"), "address": first, "count": count}


def scan_call(args: argparse.Namespace) -> dict[str, Any]:
    """The `call` request fields for `modbus.scan`; ValueError for a bad argument."""
    call: dict[str, Any] = {"device": args.device,
                            "time_limit_s": args.time_limit,
                            "max_requests": args.max_requests, "block": args.block}
    if args.units is not None:
        call["units"] = parse_units(args.units)
    if args.registers:
        ranges = [parse_range(r) for r in args.registers]
        if len(ranges) > 16:
            raise ValueError("--registers: at most 16 ranges in one scan")
        call["ranges"] = ranges
    if args.probe is not None:
        probe = parse_range(args.probe)
        if probe["count"] != 1:
            raise ValueError("--probe: one register, TABLE:ADDRESS")
        call["probe"] = {"table": probe["table"], "address": probe["address"]}
    if args.probe_timeout is not None:
        call["timeout_ms"] = max(10, round(args.probe_timeout * 1000))
    return {"tool": "modbus", "action": "scan", "args": call}


def request_timeout(args: argparse.Namespace) -> float:
    """The request's timeout: the scan's limit and time to answer, unless --timeout says."""
    return float(getattr(args, "timeout", None) or min(120.0, args.time_limit + 5.0))


def _spans(units: list[int]) -> str:
    out: list[str] = []
    for unit in units:
        if out and isinstance(out[-1], str) and _last(out[-1]) == unit - 1:
            out[-1] = f"{out[-1].split('-')[0]}-{unit}"
        else:
            out.append(str(unit))
    return ",".join(out)


def _last(span: str) -> int:
    return int(span.rsplit("-", 1)[-1])


def format_scan(value: dict[str, Any], asked: dict[str, Any]) -> str:
    found, silent = value.get("found", []), value.get("silent", [])
    probed = len(found) + len(silent)
    probe = f"{value['probe']['table']} {value['probe']['address']}"
    lines = [f"link {value.get('link')}: {len(found)} of {probed} unit id"
             f"{'s' if probed != 1 else ''} answered ({value.get('requests')} requests, "
             f"{value.get('elapsed_s', 0):g} s)"]
    for f in found:
        name = f"  {f['device']}" if f.get("device") else ""
        if f["answer"] == "ok":
            said = f"ok, {probe} = {_values([f.get('value')])}"
        elif f["answer"] == "exception":
            said = f"exception {f['exception']} ({f['detail']})"
        else:
            said = f"a reply that does not fit ({f['detail']})"
        lines.append(f"unit {f['unit']}{name}: {said.rstrip()}, {f.get('latency_ms')} ms")
        for rec in f.get("ranges", []):
            last = rec["address"] + rec["count"] - 1
            where = f"{rec['table']} {rec['address']}" + (f"..{last}" if last != rec["address"]
                                                           else "")
            what = rec.get("error") or _values(rec.get("registers", rec.get("bits")))
            lines.append(f"    {where}: {what}")
    if silent:
        lines.append(f"silent: {_spans(silent)}")
    if not value.get("complete", True):
        rest = asked.get("units") or []
        after = rest[rest.index(value["next_unit"]):] if value.get("next_unit") in rest else []
        more = f"; go on with --units {_spans(after)}" if after else ""
        lines.append(f"stopped: {value.get('stopped')}{more}")
    return "\n".join(lines)


def _values(values: Any) -> str:
    if not isinstance(values, list):
        return ""
    shown = ["on" if v is True else "off" if v is False else str(v) for v in values[:32]]
    more = f" … (+{len(values) - 32})" if len(values) > 32 else ""
    return " ".join(shown) + more
