"""Keys of `driver: modbus` devices (TCP, UDP, RTU, ASCII, RTU framing over TCP or UDP) and their
register points."""

from __future__ import annotations

import contextlib
import difflib
import functools
import ipaddress
import os
import socket
import stat
import time
from collections.abc import Mapping
from typing import Any

from hermesd.config.drivers import (
    DeviceKeys,
    PointKeys,
    PollGroup,
    read_deadband,
    read_poll_interval,
    scaled_kind,
)
from hermesd.config.model import Point, ValueKind
from hermesd.config.reader import Section
from hermesd.core.registers import (
    BYTE_MASK,
    INTEGER_TYPES,
    ORDERS,
    TABLES,
    TYPE_RANGE,
    TYPES,
    WORDS,
)
from hermesd.core.settings.modbus import (
    NETWORK,
    SERIAL,
    TRANSPORTS,
    ModbusDeviceSettings,
    ModbusPointSettings,
    link_key,
)

#: transports that carry RTU or ASCII frames: no transaction id, 0 is the broadcast address
SERIAL_FRAMED = ("rtu", "ascii", "rtu_over_tcp", "rtu_over_udp")


def link_of(params: Mapping[str, object]) -> tuple[object, ...]:
    """The link a device's (checked, maybe partial) params put it on."""
    return link_key(params.get("transport"), params.get("host"), params.get("port"))


def read_device(s: Section) -> DeviceKeys:
    """Connection keys. Devices with the same TCP (or UDP) host and port, or the same serial port,
    share one link (a gateway, an RS-485 bus): one request at a time, each unit backed off on its
    own."""
    transport = s.choice("transport", TRANSPORTS, "tcp")
    d = ModbusDeviceSettings  # its fields' defaults are the keys' defaults
    params: dict[str, Any] = {"transport": transport}
    if transport in NETWORK:
        params["host"] = s.text("host", required=True)
        params["port"] = s.integer("port", 502, min=1, max=65535)
        if transport in SERIAL_FRAMED:
            # RTU frames behind a serial gateway: the unit is a device on its RS-485 side
            params["unit"] = s.integer("unit", d.unit, min=1, max=247)
        else:
            params["unit"] = s.integer("unit", d.unit, min=0, max=255)  # 0 and 255 are common on TCP
    else:
        params["port"] = s.text("port", required=True)  # a serial device path
        if isinstance(params["port"], str) and "://" in params["port"]:
            # (pyserial's URLs, socket:// and rfc2217://, are no device the tool opens: a
            # serial-to-Ethernet gateway is `transport: rtu_over_tcp` with its host and port)
            s.problem("port", f"{params['port']!r} is a URL, not a serial device path; for a "
                              "serial line behind a TCP gateway use transport: rtu_over_tcp "
                              "with its host and port")
        # 0 is the broadcast address: no device answers it, so it cannot be polled
        params["unit"] = s.integer("unit", d.unit, min=1, max=247)
        params["baudrate"] = s.integer("baudrate", d.baudrate, min=300, max=4_000_000)
        # Modbus ASCII's default character is 7 data bits, even parity (spec 2.5.2.1)
        ascii_ = transport == "ascii"
        params["parity"] = s.choice("parity", ("N", "E", "O"), "E" if ascii_ else d.parity)
        params["stopbits"] = s.choice("stopbits", (1, 2), d.stopbits)
        params["bytesize"] = s.choice("bytesize", (7, 8), 7 if ascii_ else d.bytesize)
        # silence between frames; default 3.5 characters at the baud rate (1.75 ms above 19200)
        params["frame_gap"] = s.duration("frame_gap", None, min=0.0, max=1.0)
        if ascii_ and params["frame_gap"] is not None:
            s.problem("frame_gap", "ASCII frames end with CR LF, not with silence: only rtu "
                                   "takes frame_gap")
    for key in ("baudrate", "parity", "stopbits", "bytesize", "frame_gap") \
            if transport in NETWORK else ():
        if s.has(key):
            s.problem(key, f"is for a serial port (rtu, ascii); a {transport} device reaches its "
                           "line through a gateway, where the line's settings are made")
    if transport not in NETWORK and s.has("host"):
        s.problem("host", f"a {transport} device is on a serial `port`; host is for "
                          f"{', '.join(NETWORK)}")
    params["word_order"] = s.choice("word_order", ORDERS, d.word_order)  # default for its points
    params["byte_order"] = s.choice("byte_order", ORDERS, d.byte_order)
    params["max_block"] = s.integer("max_block", d.max_block, min=1, max=125)  # registers per request
    params["max_gap"] = s.integer("max_gap", d.max_gap, min=0, max=100)  # unused registers a block spans
    # extra attempts after a garbled reply or a dropped connection; a silent device is never
    # retried at once, so it holds a shared bus for at most one timeout per backoff step
    params["retries"] = s.integer("retries", d.retries, min=0, max=5)
    # false: write one register or coil with function 16/15 (devices that lack 6/5)
    params["single_write"] = s.flag("single_write", d.single_write)
    poll = read_poll_interval(s, "poll_interval", 5.0)  # of points without their own
    timeout = s.duration("timeout", 1.0, min=0.01, max=60)
    # the longest wait between tries of a device that stopped answering
    params["backoff_max"] = s.duration("backoff_max", max(d.backoff_max, poll or 0.0), min=0.05)
    if isinstance(params["backoff_max"], float) and poll and params["backoff_max"] < poll:
        s.problem("backoff_max", f"must be at least the poll_interval ({poll:g} s)")
    settings = ModbusDeviceSettings(**params)  # what its tool reads back (from_dict)
    return DeviceKeys(settings.to_dict(), poll, timeout, read_groups(s))


def read_groups(s: Section) -> dict[str, PollGroup]:
    """`groups: {fast: {poll_interval: 100ms, deadband: 0.5}}`: poll groups its points may
    join with `group: fast`. Each group is polled at its own interval, in its own coalesced
    blocks; its `deadband` applies to its numeric points that set none of their own."""
    groups: dict[str, PollGroup] = {}
    sec = s.section("groups")
    for name, raw in sec.mapping_items():
        sec.known.add(name)
        g = Section(sec.problems, sec.at(name), raw)
        if not g.ok:
            continue
        interval = read_poll_interval(g, "poll_interval")
        if not g.has("poll_interval"):
            g.problem("poll_interval", "is required: how often the group's points are read")
        deadband = read_deadband(g)
        g.finish()
        groups[name] = PollGroup(interval, deadband)
    return groups


SERIAL_KEYS = ("baudrate", "parity", "stopbits", "bytesize")


def check_devices(entries: list[tuple[str, DeviceKeys]]) -> list[tuple[str, str]]:
    """Devices on one link must not share a unit id and must frame their requests alike (one
    gateway speaks MBAP or RTU, one bus RTU or ASCII); units on one serial port share its
    settings. One link is one place however it is spelled: `localhost` and `127.0.0.1`, a
    by-id link and the ttyUSB it names."""
    problems: list[tuple[str, str]] = []
    units: list[tuple[str, Mapping[str, Any]]] = []
    framing: dict[tuple[object, ...], tuple[str, object]] = {}
    serial: dict[object, tuple[str, dict[str, object]]] = {}
    for path, keys in entries:
        p = keys.params
        link = link_of(p)
        first = framing.setdefault(link, (path, p.get("transport")))
        if first[0] != path and first[1] != p.get("transport") and None not in link:
            where = f"{link[1]}:{link[2]}" if link[0] != "serial" else f"serial port {link[1]}"
            problems.append((f"{path}.transport",
                             f"{p.get('transport')} differs from {first[1]} of "
                             f"{first[0].rpartition('.')[2]} on the same link ({where}): one "
                             "link carries one kind of frame"))
        if None not in (*link, p.get("unit")):
            other = next((o for o, q in units if q.get("unit") == p.get("unit")
                          and one_link(p, q)), None)
            if other is not None:
                aliased = "" if link_of(dict(units)[other]) == link else \
                    f" ({_where(dict(units)[other])} is the same place as {_where(p)})"
                problems.append((f"{path}.unit", f"unit {p.get('unit')} on the same link is "
                                                 f"already {other.rpartition('.')[2]}{aliased}"))
            units.append((path, p))
        if p.get("transport") in SERIAL and p.get("port"):
            settings = {k: p.get(k) for k in SERIAL_KEYS}
            first_serial = serial.setdefault(p["port"], (path, settings))
            if first_serial[0] != path:
                other = first_serial[0].rpartition(".")[2]
                problems.extend((f"{path}.{key}", f"{settings[key]} differs from "
                                 f"{first_serial[1][key]} of {other} on the same serial port "
                                 f"{p['port']}")
                                for key in SERIAL_KEYS if settings[key] != first_serial[1][key])
    return problems


def _where(params: Mapping[str, Any]) -> str:
    link = link_of(params)
    return f"{link[1]}:{link[2]}" if link[0] != "serial" else str(link[1])


#: units a Modbus/TCP device that ignores the unit id is often configured with: either may
#: reach the same registers as the device's other entries at its address
ANY_UNIT = (0, 255)


def one_unit(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """Whether two devices' requests may reach the same registers: the same link (however
    spelled) and the same unit; on MBAP (tcp, udp), unit 0 or 255 beside any other."""
    if not one_link(a, b):
        return False
    if a.get("unit") == b.get("unit"):
        return True
    return a.get("transport") in ("tcp", "udp") and \
        (a.get("unit") in ANY_UNIT or b.get("unit") in ANY_UNIT)


def one_link(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """Whether two devices' links are one place: the same kind and port, and the same host
    (every loopback address, 0.0.0.0 and `localhost` are this machine), or one serial device."""
    la, lb = link_of(a), link_of(b)
    if la == lb:
        return True
    if (la[0] == "serial") != (lb[0] == "serial"):
        return False
    if la[0] == "serial":
        return _device_file(str(la[1])) == _device_file(str(lb[1])) or \
            _one_device_node(str(la[1]), str(lb[1]))
    # TCP or UDP alike: a PLC may serve both on one port (atk24s)
    return la[2] == lb[2] and bool(_addresses(str(la[1])) & _addresses(str(lb[1])))


def _device_file(port: str) -> str:
    return os.path.realpath(port)


def _one_device_node(a: str, b: str) -> bool:
    """Two device files of one serial line: a hard link, or a second node made with its
    numbers (atk25s)."""
    try:
        sa, sb = os.stat(a), os.stat(b)
    except (OSError, ValueError):
        return False
    return stat.S_ISCHR(sa.st_mode) and stat.S_ISCHR(sb.st_mode) and sa.st_rdev == sb.st_rdev


def _addresses(host: str) -> frozenset[str]:
    """Where a host name points, without asking DNS (a config is checked on a gateway that may
    have none, and a reload must not wait on it): an address as itself, every loopback
    address, `localhost` and this machine's own name as this machine, any other name as its
    own spelling."""
    try:  # as the socket library spells it before it connects: ｌｏｃａｌｈｏｓｔ, 127。0。0。1 and a
        # soft hyphen inside "localhost" are localhost (atk25s)
        host = host.encode("idna").decode("ascii")
    except UnicodeError:
        pass
    try:
        return frozenset({_place(ipaddress.ip_address(host.strip("[]")))})
    except ValueError:
        pass
    try:  # the spellings the C library takes for an IPv4 address: 127.1, 2130706433,
        # 0x7f000001, 0 (atk24s: each reached the PLC past the check)
        return frozenset({_place(ipaddress.IPv4Address(socket.inet_aton(host)))})
    except (OSError, ValueError):
        pass
    # a trailing dot is the same name made absolute (`localhost.`); on an address the C
    # library takes it for no address at all (inet_aton and getaddrinfo refuse `127.0.0.1.`)
    name = host.casefold().rstrip(".")
    listed = _hosts_file().get(name)  # /etc/hosts: read as the resolver would, no DNS, and
    if listed:  # first, as it is: a `plc.localhost` it gives another address is there (atk28)
        return frozenset({name, *(_place(ip) for ip in listed)})
    if name in _THIS_MACHINE or name.endswith(".localhost") or \
            name == socket.gethostname().casefold():
        # every name under .localhost is loopback (RFC 6761; systemd's resolver and
        # nss-myhostname answer `plc.localhost` with 127.0.0.1 and ::1)
        return frozenset({"this machine", name})
    return frozenset({name})


#: the names distributions give this machine in their /etc/hosts (Debian, RHEL, Alpine)
_THIS_MACHINE = frozenset({"localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback",
                           "localhost4", "localhost4.localdomain4", "localhost6",
                           "localhost6.localdomain6"})


def _hosts_file() -> dict[str, list[ipaddress.IPv4Address | ipaddress.IPv6Address]]:
    """The names /etc/hosts gives addresses, by name (casefolded)."""
    try:
        st = os.stat(HOSTS_FILE)
    except OSError:
        return {}
    return _read_hosts(HOSTS_FILE, st.st_mtime_ns, st.st_size)


HOSTS_FILE = "/etc/hosts"


@functools.lru_cache(maxsize=2)
def _read_hosts(path: str, _mtime: int, _size: int
                ) -> dict[str, list[ipaddress.IPv4Address | ipaddress.IPv6Address]]:
    names: dict[str, list[ipaddress.IPv4Address | ipaddress.IPv6Address]] = {}
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read(1024 * 1024).splitlines()
    except OSError:
        return names
    for line in lines:
        fields = line.split("#", 1)[0].split()
        if len(fields) < 2:
            continue
        try:
            ip = ipaddress.ip_address(fields[0].split("%", 1)[0])
        except ValueError:
            continue
        for name in fields[1:]:
            names.setdefault(name.casefold().rstrip("."), []).append(ip)
    return names


def _place(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> str:
    if isinstance(ip, ipaddress.IPv6Address) and ip.scope_id is not None:
        # fe80::1%eth0: the address, whichever way its zone is written (atk27)
        ip = ipaddress.IPv6Address(str(ip).split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if ip.is_loopback or ip.is_unspecified or str(ip) in _own_addresses():
        return "this machine"
    return str(ip)


def _own_addresses() -> frozenset[str]:
    """The addresses of this machine's interfaces, as the kernel lists them (no DNS): a PLC
    simulator or gateway service on this machine is reached by any of them (atk25s)."""
    return _own_addresses_in(int(time.monotonic() // 10))  # read again every 10 s at most


@functools.lru_cache(maxsize=1)
def _own_addresses_in(_period: int) -> frozenset[str]:
    own: set[str] = set()
    with contextlib.suppress(OSError), \
            open("/proc/net/fib_trie", encoding="ascii", errors="replace") as f:
        previous = ""
        for line in f.read(4 * 1024 * 1024).splitlines():
            if "/32 host LOCAL" in line and previous:
                own.add(previous)
            previous = line.strip().removeprefix("|-- ")
    with contextlib.suppress(OSError), \
            open("/proc/net/if_inet6", encoding="ascii", errors="replace") as f:
        for line in f.read(1024 * 1024).splitlines():
            word = line.split()[0] if line.split() else ""
            if len(word) == 32:
                with contextlib.suppress(ValueError):
                    own.add(str(ipaddress.IPv6Address(int(word, 16))))
    return frozenset(own)


def field_mask(params: Mapping[str, object]) -> int | None:
    """The bits of its one register a point holds (a bool's `bit`, a byte, a `mask`); None:
    the whole register(s)."""
    bit, mask, byte = params.get("bit"), params.get("mask"), params.get("byte")
    if isinstance(bit, int):
        return 1 << bit
    if isinstance(mask, int):
        return mask
    if isinstance(byte, str):
        return BYTE_MASK.get(byte)
    return None


def span(params: Mapping[str, object]) -> tuple[int, int, int | None] | None:
    """(first, last, bits) of the registers or bits a point occupies in its table; `bits` the
    mask of the bits it holds of its one register (None: all of them)."""
    address, rtype = params.get("address"), params.get("type")
    if not isinstance(address, int) or not isinstance(rtype, str):
        return None
    if params.get("table") in ("coil", "discrete"):
        return address, address, None
    length = params.get("length")
    words = WORDS.get(rtype) or (length if isinstance(length, int) else 1)
    return address, address + words - 1, field_mask(params)


def check_points(path: str, points: Mapping[str, Point]) -> list[tuple[str, str]]:
    """Two writable points of one device must not share a register (or a bit) of one table:
    a write to one would change the other behind its back (a float32 at 10 and a uint16 at 11
    both write register 11). Reads may overlap; points on different bits of one register (two
    bools, the two bytes, fields with masks that do not meet) do not: each write changes only
    its own bits."""
    by_table: dict[object, list[tuple[int, int, int | None, str]]] = {}
    for pid, point in points.items():
        where = span(point.params) if point.writable else None
        if where is not None:
            by_table.setdefault(point.params.get("table"), []).append((*where, pid))
    problems: list[tuple[str, str]] = []
    for table, spans in by_table.items():
        spans.sort(key=lambda span: (span[0], span[1]))  # a bit may be None: not by it
        active: list[tuple[int, int, int | None, str]] = []
        for first, last, bit, pid in spans:
            active = [a for a in active if a[1] >= first]
            for a_first, a_last, a_bit, other in active:
                if bit is not None and a_bit is not None and not bit & a_bit and a_first \
                        == a_last == first == last:
                    continue  # separate bits of one register
                shown = f"{a_first}" if a_first == a_last else f"{a_first}..{a_last}"
                problems.append((f"{path}.{pid}.address",
                                 f"{table} {first if first == last else f'{first}..{last}'} "
                                 f"overlaps writable point {other} ({table} {shown}): a write "
                                 "to one would change the other; make one read-only or move "
                                 "it"))
                break
            active.append((first, last, bit, pid))
    return problems


def _field(s: Section, rtype: str | None) -> tuple[int | None, int | None]:
    """`mask` (and `shift`) of a multi-bit field in a uint16 register: value =
    (register & mask) >> shift; `shift` defaults to the mask's lowest set bit."""
    mask = s.integer("mask", None, min=1, max=0xFFFF)
    shift = s.integer("shift", None, min=0, max=15)
    if mask is None:
        if shift is not None:
            s.problem("shift", "`shift` goes with a `mask`")
        return None, None
    if rtype != "uint16":
        s.problem("mask", f"a field with a mask is part of one uint16 register, not of a "
                          f"{rtype}")
        return None, None
    low = (mask & -mask).bit_length() - 1
    if mask >> low & ((mask >> low) + 1):
        s.problem("mask", f"0x{mask:04X} is not one run of bits (like 0x0F00): a field is "
                          "contiguous")
        return None, None
    if shift is None:
        shift = low
    elif shift > low:
        s.problem("shift", f"{shift} would drop bits of the mask 0x{mask:04X} (its lowest bit "
                           f"is {low})")
        return None, None
    return mask, shift


def read_point(s: Section, device: DeviceKeys) -> PointKeys:
    table = s.choice("table", TABLES, required=True)
    address = s.integer("address", required=True, min=0, max=65535)
    bit_table = table in ("coil", "discrete")
    rtype = s.choice("type", TYPES, "bool" if bit_table else "uint16")
    if bit_table and rtype not in (None, "bool"):
        s.problem("type", f"{table} points are single bits: type must be bool, not {rtype}")
    bit = s.integer("bit", None, min=0, max=15)  # a bool packed in a register
    if rtype == "bool" and not bit_table and bit is None:
        s.problem("type", f"a bool in a {table} register needs `bit` (0..15)")
    if bit is not None and (bit_table or rtype != "bool"):
        s.problem("bit", "only a bool point in a holding or input register takes `bit`")
    byte = s.choice("byte", ("high", "low"), None)  # which half of its register an 8-bit holds
    if rtype in ("int8", "uint8") and byte is None:
        s.problem("type", f"an {rtype} is half a register: say which with `byte: high` or "
                          "`byte: low`")
    if byte is not None and rtype not in ("int8", "uint8"):
        s.problem("byte", "only int8 and uint8 points take `byte`")
    mask, shift = _field(s, rtype)
    length = s.integer("length", None, min=1, max=125)  # registers of a string point
    if rtype == "string" and length is None:
        s.problem("length", "a string point needs `length` (registers, 2 characters each)")
    if length is not None and rtype != "string":
        s.problem("length", "only string points take `length`")
    p = ModbusPointSettings  # its fields' defaults are the keys' defaults
    scale = s.number("scale", p.scale, nonzero=True)
    offset = s.number("offset", p.offset)
    params = {
        "table": table, "address": address, "type": rtype,
        "word_order": s.choice("word_order", ORDERS, device.params.get("word_order", p.word_order)),
        "byte_order": s.choice("byte_order", ORDERS, device.params.get("byte_order", p.byte_order)),
        "scale": scale, "offset": offset,
    }
    if bit is not None:
        params["bit"] = bit
    if byte is not None:
        params["byte"] = byte
    if mask is not None:
        params["mask"], params["shift"] = mask, shift
    if length is not None:
        params["length"] = length
    if address is not None and rtype in WORDS and address + WORDS[rtype] > 65536:
        s.problem("address", f"a {rtype} at {address} runs past register 65535")
    kind: ValueKind
    if rtype == "bool":
        kind = "bool"
    elif rtype == "string":
        kind = "string"
    elif rtype in ("float32", "float64"):
        kind = "float"
    else:
        kind = scaled_kind("int", scale or 1.0, offset or 0.0)
    keys = PointKeys(kind, params)
    _poll_keys(s, device, keys)
    keys.params = ModbusPointSettings(**keys.params).to_dict()
    if table not in ("holding", "coil"):
        keys.writable_ok = False
        keys.why_not_writable = f"{table} {'inputs' if table == 'discrete' else 'registers'} " \
                                "are read-only in Modbus"
    if rtype in TYPE_RANGE and scale:
        lo, hi = TYPE_RANGE[rtype]
        if mask is not None:
            lo, hi = 0, mask >> (shift or 0)
        ends = sorted((lo * scale + (offset or 0), hi * scale + (offset or 0)))
        keys.lo, keys.hi = ends[0], ends[1]
    if rtype in INTEGER_TYPES and scale:
        keys.step, keys.step_origin = abs(scale), offset or 0.0  # whole raw counts only
    return keys


def _poll_keys(s: Section, device: DeviceKeys, keys: PointKeys) -> None:
    """`poll_interval` and `group` of a point: its own interval wins over its group's, which
    wins over its device's. Points polled at one interval are read together, in blocks."""
    groups = device.groups
    name = s.text("group", None)
    group = PollGroup(None)
    if name is not None:
        if name in groups:
            group = groups[name]
            keys.params["group"] = name
        else:
            near = difflib.get_close_matches(name, list(groups), n=1)
            hint = f" (did you mean {near[0]!r}?)" if near else ""
            known = ", ".join(sorted(groups)) or "none"
            s.problem("group", f"no group {name!r} in the device's groups (groups: {known})"
                               f"{hint}")
    own = read_poll_interval(s, "poll_interval")
    keys.poll_interval = own if own is not None else group.poll_interval
    if group.deadband is not None and keys.kind in ("int", "float"):
        keys.deadband = group.deadband  # a group's deadband passes over its bool and text points
