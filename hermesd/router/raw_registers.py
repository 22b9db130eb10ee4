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
everything else on; it never guesses a device or a table it was not told, and a device it
does not have as Modbus ("on plc9") is refused by name, never replaced by another one.
Numbers are read as strictly as the point rules read them (`router.numbers`): an address or
value in hex, with an exponent, in another script's digits, "-0", or two values where one is
wanted, is asked back, never sent.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from hermesd.answer import Action, respond
from hermesd.config.model import Config
from hermesd.replies import printable
from hermesd.router.normalize import tokens
from hermesd.router.numbers import literals
from hermesd.router.rules import Placement, speech_problem

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

#: words that may follow "on", "at", "from"... in a register command and are no device name
NOT_DEVICES = frozenset("""
    on off true false high low to as a an the address addr register registers holding input
    inputs coil coils discrete discretes hr ir di now please again then and it bit bits word
    words value values with start starting once in into device unit plc moment hex decimal
    binary signed unsigned me us this that my our
""".split()) | frozenset(TYPE_WORDS)
_DEVICE_AFTER = re.compile(r"\b(?:on|at|from|via|in|of|device|unit)\s+(?:the\s+)?"
                           r"(?:(?:device|plc|unit)\s+)?(?P<name>[a-z][\w.-]*)", re.ASCII)
_REGISTER_RANGE = re.compile(r"[0-9]+\s*(?:-|\.\.)\s*[0-9]+", re.ASCII)
_NUMBER = re.compile(r"(?<![\w.])-?[0-9]+(?:\.[0-9]+)?(?![\w])", re.ASCII)

_ABOUT = re.compile(r"\b(registers?|coils?|holding|discretes?|hr|ir|di)\b")
_TABLE = re.compile(r"\b(?P<table>" + "|".join(f"(?:{p})" for p, _ in TABLE_WORDS) +
                    r"|registers?)\s+(?:(?:from|at|starting\s+at)\s+)?(?P<addr>address\s+|addr\s+|@\s*)?"
                    r"(?P<first>[0-9]{1,6})"
                    r"(?:\s*(?:-|\.\.)\s*(?P<last>[0-9]{1,6}))?\b(?![.,][0-9])", re.ASCII)
_ODD_ADDRESS = re.compile(r"\b(?:" + "|".join(f"(?:{p})" for p, _ in TABLE_WORDS) +
                          r"|registers?)\s+(?:address\s+|addr\s+|@\s*)?"
                          r"(?P<odd>[0-9]+[.,][0-9][0-9.,]*)", re.ASCII)
_COUNT = re.compile(r"\b(?P<n>[0-9]{1,4})\s+(?:holding\s+|input\s+)?(?:registers|coils|discrete "
                    r"inputs|bits|words)\b", re.ASCII)
_TYPE = re.compile(r"\b(?:as\s+(?:an?\s+)?)?(?P<type>" + "|".join(TYPE_WORDS) + r")\b")
_VALUE_AFTER = re.compile(r"(?:\bto\b|=)\s*(?P<v>-?[0-9]+(?:\.[0-9]+)?|on|off|true|false|high|low)"
                          r"\b(?![.,][0-9])", re.ASCII)
_VALUE_BEFORE = re.compile(r"^\s*(?:write|set|put|force)\s+(?P<v>-?[0-9]+(?:\.[0-9]+)?|on|off|"
                           r"true|false)\s+(?:to|into|in)\b", re.ASCII)


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

    def __init__(self, devices: list[str], others: Mapping[str, str] | None = None) -> None:
        self.devices = devices
        self.others = dict(others or {})  # devices of other drivers: id -> driver

    @classmethod
    def of(cls, config: Config) -> RawRegisterRule | None:
        devices = sorted(d.id for d in config.devices.values() if d.driver == "modbus")
        others = {d.id: d.driver for d in config.devices.values() if d.driver != "modbus"}
        return cls(devices, others) if devices else None

    def __call__(self, text: str) -> Placement | None:
        folded = text.casefold()
        if not _ABOUT.search(folded):
            return None
        unreadable = [lit.raw for lit in literals(unicodedata.normalize("NFC", text))
                      if lit.value is None and not _REGISTER_RANGE.fullmatch(lit.raw)]
        low = unicodedata.normalize("NFKC", folded)
        low = re.sub(r"([0-9]),([0-9]{3})\b", r"\1\2", low)  # "40,011" is 40011
        low = " ".join(low.replace(",", " ").split())
        if not _ABOUT.search(low):
            return None
        if unreadable:
            return _unreadable(unreadable)
        match = _TABLE.search(low)
        if match is None:
            odd = _ODD_ADDRESS.search(low)
            return _unreadable([odd["odd"]]) if odd else None
        stranger = self._stranger(low)
        if stranger is not None:
            return stranger
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
            problem = speech_problem(tokens(text))
            if problem is not None:
                return _ask(f"I heard {', '.join(f'“{w}”' for w in problem.words)}; nothing was "
                            "sent. Say the register and the one value once, e.g. \"set holding "
                            f"register 40011 on {device} to 1200\".", unreadable=problem.words)
            return self._write(low, match, device, where, rtype, counted)
        args: dict[str, Any] = {"device": device, "table": where.table,
                                "address": where.address}
        if count is not None:
            args["count"] = count
        if rtype is not None and where.table in ("holding", "input"):
            args["type"] = rtype
        return Placement(Action("modbus.read_registers", args), 1.0)

    def _stranger(self, low: str) -> Placement | None:
        """A device named that is not one of our Modbus devices: refused by name."""
        ours = {d.casefold() for d in self.devices}
        others = {d.casefold(): driver for d, driver in self.others.items()}
        for d, driver in others.items():
            if re.search(rf"(?<![\w-]){re.escape(d)}(?![\w-])", low):
                return _refuse(d, f"{d} is a {driver} device, not a Modbus one: it has no "
                                  f"registers to reach. Raw registers are on "
                                  f"{', '.join(self.devices)}; nothing was sent.")
        stems = {re.sub(r"[0-9]+$", "", d) for d in ours} - {""}
        named = {m["name"].rstrip(".-") for m in _DEVICE_AFTER.finditer(low)}
        named |= {w for w in re.findall(r"[a-z][\w-]*[0-9]\b", low, re.ASCII)
                  if re.sub(r"[0-9]+$", "", w) in stems}  # "plc9" beside our "plc1"
        for name in sorted(named):
            if name and name not in ours and name not in NOT_DEVICES:
                return _refuse(name, f"There is no Modbus device {name} here; raw registers are "
                                     f"on {', '.join(self.devices)}. Nothing was sent.")
        return None

    def _device(self, low: str) -> str | None:
        named = [d for d in self.devices if re.search(rf"(?<![\w-]){re.escape(d.casefold())}"
                                                      rf"(?![\w-])", low)]
        if len(named) == 1:
            return named[0]
        if not named and len(self.devices) == 1:
            return self.devices[0]
        return None

    @staticmethod
    def _write(low: str, match: re.Match[str], device: str, where: Registers,
               rtype: str | None, counted: re.Match[str] | None) -> Placement:
        after = match.end()
        found = _VALUE_AFTER.search(low) or _VALUE_BEFORE.search(low)
        raw = found["v"] if found else None
        # every number but the registers' own (address, range, count): one value, said once
        known = {match.start("first")} | ({match.start("last")} if match["last"] else set())
        if counted is not None:
            known.add(counted.start("n"))
        values = [m.group(0) for m in _NUMBER.finditer(low)
                  if m.start() not in known and not _in_device(low, m.start(), device)]
        if len(values) > 1:
            return _ask(f"I heard more than one value ({', '.join(values)}); nothing was sent. "
                        "Say the one value once, e.g. \"set holding register 40011 on "
                        f"{device} to 1200\".", unreadable=tuple(values))
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


def _in_device(low: str, at: int, device: str) -> bool:
    """Whether the digits at `at` belong to the device's name ("plc1")."""
    name = device.casefold()
    return any(m.start() <= at < m.end() for m in re.finditer(re.escape(name), low))


def _ask(text: str, *, unreadable: tuple[str, ...] = ()) -> Placement:
    """A question back, not an action: nothing is sent to any device."""
    extra: dict[str, Any] = {"unreadable": [printable(w) for w in unreadable]} \
        if unreadable else {}
    return Placement(respond("intent", text=text, **extra), 1.0)


def _unreadable(words: list[str]) -> Placement:
    shown = ", ".join(f"“{printable(w)}”" for w in words)
    return _ask(f"I could not read {shown}; nothing was sent. Say register numbers and values "
                "in plain digits, e.g. \"read holding register 40011\".", unreadable=tuple(words))


def _refuse(device: str, text: str) -> Placement:
    """A device we do not have as Modbus: refused, naming it; never sent to another one."""
    return Placement(respond("unknown_point", asked=device, device=device, text=text), 1.0)
