"""The pre-rule for raw register access: "read holding register 40011 on plc1" -> a tool call.

PLC people name registers two ways, and both are understood:
  - Modicon numbers, 1-based, the first digit naming the table: 0xxxx coils, 1xxxx discrete
    inputs, 3xxxx input registers, 4xxxx holding registers (five digits; six, 4xxxxx, above
    register 9999). "register 40011" is holding address 10.
  - a table and a 0-based address: "holding register 10", "coil 3", "input register
    address 7". The word "address" always means 0-based ("holding register address 40011").
A table word with a Modicon number of that table ("holding register 40011") is Modicon; with
any other number it is 0-based. The rule places `modbus.read_registers` or, for "write/set",
`modbus.write_registers`; the engine sends either through the policy of a direct tool call
(`raw_read` / `raw_write` roles). It answers only commands about registers or coils and hands
everything else on; it never guesses a device or a table it was not told.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from hermesd.answer import Action, respond
from hermesd.config.model import Config
from hermesd.router.rules import Placement

MODICON_TABLE = {"0": "coil", "1": "discrete", "3": "input", "4": "holding"}
TABLE_WORDS = [  # (pattern, table); the longest first
    (r"holding\s+registers?|holding|hr", "holding"),
    (r"input\s+registers?|ir", "input"),
    (r"discrete\s+inputs?|discretes?|di", "discrete"),
    (r"coils?", "coil"),
]
TYPE_WORDS = {
    "bool": "bool", "int16": "int16", "int": "int16", "short": "int16", "uint16": "uint16",
    "word": "uint16", "uint": "uint16", "int32": "int32", "dint": "int32", "long": "int32",
    "uint32": "uint32", "udint": "uint32", "dword": "uint32", "float32": "float32",
    "float": "float32", "real": "float32", "float64": "float64", "double": "float64",
    "lreal": "float64", "string": "string",
}
WRITE_VERBS = frozenset("write set put force change turn switch".split())
ON = frozenset("on true 1 high".split())
OFF = frozenset("off false 0 low".split())

_ABOUT = re.compile(r"\b(registers?|coils?|holding|discretes?|hr|ir|di)\b")
_TABLE = re.compile(r"\b(?P<table>" + "|".join(f"(?:{p})" for p, _ in TABLE_WORDS) +
                    r"|registers?)\s+(?:(?:from|at|starting\s+at)\s+)?(?P<addr>address\s+|addr\s+|@\s*)?"
                    r"(?P<first>\d{1,6})"
                    r"(?:\s*(?:-|\.\.)\s*(?P<last>\d{1,6}))?\b")
_COUNT = re.compile(r"\b(?P<n>\d{1,4})\s+(?:holding\s+|input\s+)?(?:registers|coils|discrete "
                    r"inputs|bits|words)\b")
_TYPE = re.compile(r"\b(?:as\s+(?:an?\s+)?)?(?P<type>" + "|".join(TYPE_WORDS) + r")\b")
_VALUE_AFTER = re.compile(r"(?:\bto\b|=)\s*(?P<v>-?\d+(?:\.\d+)?|on|off|true|false|high|low)\b")
_VALUE_BEFORE = re.compile(r"^\s*(?:write|set|put|force)\s+(?P<v>-?\d+(?:\.\d+)?|on|off|true|"
                           r"false)\s+(?:to|into|in)\b")


@dataclass(frozen=True)
class Registers:
    table: str
    address: int
    count: int | None = None


def modicon(digits: str) -> tuple[str, int] | None:
    """(table, 0-based address) of a Modicon number ("40011" -> holding 10), else None."""
    if len(digits) not in (5, 6) or digits[0] not in MODICON_TABLE:
        return None
    number = int(digits[1:])
    if not 1 <= number <= 65536 or (len(digits) == 6 and number <= 9999):
        return None
    return MODICON_TABLE[digits[0]], number - 1


def _table_of(word: str) -> str | None:
    for pattern, table in TABLE_WORDS:
        if re.fullmatch(pattern, word):
            return table
    return None  # the bare word "register": the number says which table


def resolve(word: str, first: str, last: str | None, zero_based: bool) -> Registers | str:
    """The registers a phrase names, or why it names none (in words)."""
    named = _table_of(re.sub(r"\s+", " ", word))
    table = named
    addresses: list[int] = []
    for digits in [first] if last is None else [first, last]:
        found = None if zero_based else modicon(digits)
        if named is None:  # "register N": only a Modicon number says which table
            if found is None:
                return (f"which table is register {digits} in? Say e.g. \"holding register "
                        f"{int(digits)}\" (0-based) or use a Modicon number like "
                        f"4{int(digits) + 1:04d}")
            if table is not None and found[0] != table:
                return f"{first} and {last} are in different tables"
            table = found[0]
            addresses.append(found[1])
        elif found is not None and found[0] == named:
            addresses.append(found[1])
        else:
            addresses.append(int(digits))
    assert table is not None
    if max(addresses) > 65535:
        return f"address {max(addresses)} is beyond 65535"
    count = None
    if len(addresses) == 2:
        if addresses[1] < addresses[0]:
            return f"the range {first}-{last} runs backwards"
        count = addresses[1] - addresses[0] + 1
    return Registers(table, addresses[0], count)


class RawRegisterRule:
    """Places raw register reads and writes on the config's Modbus devices."""

    def __init__(self, devices: list[str]) -> None:
        self.devices = devices

    @classmethod
    def of(cls, config: Config) -> RawRegisterRule | None:
        devices = sorted(d.id for d in config.devices.values() if d.driver == "modbus")
        return cls(devices) if devices else None

    def __call__(self, text: str) -> Placement | None:
        low = re.sub(r"(\d),(\d{3})\b", r"\1\2", text.casefold())  # "40,011" is 40011
        low = " ".join(low.replace(",", " ").split())
        if not _ABOUT.search(low):
            return None
        match = _TABLE.search(low)
        if match is None:
            return None
        device = self._device(low)
        if device is None:
            return _ask(f"Which device? Raw registers are on {', '.join(self.devices)}; say e.g. "
                        f"\"read holding register 40011 on {self.devices[0]}\".")
        where = resolve(match["table"], match["first"], match["last"], bool(match["addr"]))
        if isinstance(where, str):
            return _ask(where[0].upper() + where[1:] + ".")
        count = where.count
        counted = _COUNT.search(low)
        if count is None and counted is not None:
            count = int(counted["n"])
        typed = _TYPE.search(low[match.end():]) or _TYPE.search(low[:match.start()])
        rtype = TYPE_WORDS[typed["type"]] if typed else None
        if set(low[:match.start()].split()) & WRITE_VERBS:  # "set holding register 40011 ..."
            return self._write(low, match.end(), device, where, rtype)
        args: dict[str, Any] = {"device": device, "table": where.table,
                                "address": where.address}
        if count is not None:
            args["count"] = count
        if rtype is not None and where.table in ("holding", "input"):
            args["type"] = rtype
        return Placement(Action("modbus.read_registers", args), 1.0)

    def _device(self, low: str) -> str | None:
        named = [d for d in self.devices if re.search(rf"(?<![\w-]){re.escape(d.casefold())}"
                                                      rf"(?![\w-])", low)]
        if len(named) == 1:
            return named[0]
        if not named and len(self.devices) == 1:
            return self.devices[0]
        return None

    @staticmethod
    def _write(low: str, after: int, device: str, where: Registers,
               rtype: str | None) -> Placement:
        found = _VALUE_AFTER.search(low) or _VALUE_BEFORE.search(low)
        raw = found["v"] if found else None
        if raw is None and where.table == "coil":  # "turn coil 00002 on plc1 on"
            rest = re.sub(rf"\bon\s+{re.escape(device.casefold())}\b", " ", low[after:]).split()
            raw = next((w for w in rest if w in ON | OFF), None)
        if raw is None:
            return _ask("What value? Say e.g. \"set holding register 40011 on "
                        f"{device} to 1200\".")
        args: dict[str, Any] = {"device": device, "table": where.table, "address": where.address}
        if where.table == "coil":
            if raw not in ON | OFF:
                return _ask(f"A coil is on or off, not {raw}.")
            args["values"] = [raw in ON]
        elif where.table != "holding":
            name = "Input registers" if where.table == "input" else "Discrete inputs"
            return _ask(f"{name} are read-only in Modbus; only holding registers and coils can "
                        "be written.")
        elif rtype is not None and rtype != "bool":
            number = float(raw) if raw not in ON | OFF else None
            if number is None:
                return _ask(f"A {rtype} takes a number, not {raw}.")
            args.update(value=int(number) if number.is_integer() and not
                        rtype.startswith("float") else number, type=rtype)
        elif re.fullmatch(r"\d+", raw) and int(raw) <= 0xFFFF:  # a raw word
            args["values"] = [int(raw)]
        else:
            return _ask(f"Say how to store {raw}, e.g. \"... to {raw} as int16\" or \"as "
                        "float32\".")
        return Placement(Action("modbus.write_registers", args), 1.0)


def _ask(text: str) -> Placement:
    """A question back, not an action: nothing is sent to any device."""
    return Placement(respond("intent", text=text), 1.0)
