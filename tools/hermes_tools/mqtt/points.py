"""`driver: mqtt` points: their topics, their values to and from MQTT payloads, and the board
of the last state each showed (which a write watches to see its value confirmed).

A state payload is untrusted text from another client: it is size-limited, decoded strictly for
the point's type (a bool takes its `payload_on`/`payload_off`, or the usual on/off words), and a
payload that does not fit raises ValueError, so it never reaches the cache as a fake value.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import math
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from hermesd.core import strict_json
from hermesd.core.errors import ProtocolError
from hermesd.core.settings.mqtt import MqttDeviceSettings, MqttPointSettings

MAX_STATE_BYTES = 1024
MAX_JSON_STATE_BYTES = 16384  # a JSON state holds several values (Zigbee2MQTT, Tasmota)
_TRUE = {"on", "true", "1", "yes", "open", "high"}
_FALSE = {"off", "false", "0", "no", "closed", "close", "low"}
#: a number as devices write it: ASCII digits, a sign, a point, an exponent; not what else
#: Python's float() takes ("1_0", Arabic-Indic or full-width digits, "infinity")
_NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?", re.ASCII)
_INTEGER = re.compile(r"[+-]?[0-9]+", re.ASCII)
#: no device value is an integer past 64 bits (int64 and uint64 together, as strict_json takes)
INT_MIN, INT_MAX = strict_json.INT_MIN, strict_json.INT_MAX


@dataclass(frozen=True, slots=True)
class MqttDevice:
    id: str
    timeout: float  # seconds a write waits for its state to confirm
    settings: MqttDeviceSettings

    @classmethod
    def from_slice(cls, dev: dict[str, Any]) -> MqttDevice:
        return cls(id=dev["id"], timeout=float(dev["timeout"]),
                   settings=MqttDeviceSettings.from_dict(dev, f"devices.{dev['id']}"))

    @property
    def availability_topic(self) -> str | None:
        return self.settings.availability_topic

    @property
    def payload_available(self) -> str:
        return self.settings.payload_available

    @property
    def payload_not_available(self) -> str:
        return self.settings.payload_not_available


@dataclass(frozen=True, slots=True)
class MqttPoint:
    id: str
    device: str
    kind: str  # bool | int | float | string
    state_topic: str | None
    command_topic: str | None
    payload_on: str = MqttPointSettings.payload_on
    payload_off: str = MqttPointSettings.payload_off
    qos: int = MqttPointSettings.qos
    retain: bool = MqttPointSettings.retain
    confirm: bool = True  # a write waits for the state topic to show the value
    #: the keys to the value in a JSON object state ("ENERGY.Power" -> ("ENERGY", "Power"))
    path: tuple[str, ...] = ()
    command_key: str | None = None  # a write publishes {command_key: value}

    @classmethod
    def from_slice(cls, device: str, point: dict[str, Any]) -> MqttPoint:
        s = MqttPointSettings.from_dict(point, f"devices.{device}.points.{point['id']}")
        return cls(id=point["id"], device=device, kind=point["kind"] if "type" not in point
                   else s.type, state_topic=s.state_topic, command_topic=s.command_topic,
                   payload_on=s.payload_on, payload_off=s.payload_off, qos=s.qos,
                   retain=s.retain, confirm=s.confirm and s.state_topic is not None,
                   path=tuple(s.value_key.split(".")) if s.value_key else (),
                   command_key=s.command_key)


class StateBoard:
    """The last state each point showed, and the writes and reads waiting for the next one."""

    def __init__(self) -> None:
        self.last: dict[str, tuple[Any, float]] = {}  # point -> (value, ts) as received
        self._watchers: dict[str, list[asyncio.Queue[Any]]] = {}

    def record(self, point: str, value: Any, ts: float) -> None:
        self.last[point] = (value, ts)
        for queue in self._watchers.get(point, ()):
            queue.put_nowait(value)

    def keep_only(self, points: set[str]) -> None:
        for gone in [p for p in self.last if p not in points]:
            del self.last[gone]

    @contextlib.contextmanager
    def watch(self, point: str) -> Iterator[asyncio.Queue[Any]]:
        """The states that arrive for `point` while inside (register before acting)."""
        queue: asyncio.Queue[Any] = asyncio.Queue()
        watchers = self._watchers.setdefault(point, [])
        watchers.append(queue)
        try:
            yield queue
        finally:
            watchers.remove(queue)
            if not watchers:
                self._watchers.pop(point, None)

    async def first(self, point: str, timeout: float) -> None:
        """Wait (up to `timeout`) for a point that has shown no state yet to show one."""
        if point in self.last:
            return
        with self.watch(point) as queue, contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                await queue.get()

    @staticmethod
    async def confirmation(point: MqttPoint, queue: asyncio.Queue[Any], value: Any,
                           timeout: float) -> tuple[bool, list[Any]]:
        """Whether a state showing `value` arrives in time, and the other states seen."""
        others: list[Any] = []
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            try:
                async with asyncio.timeout(left):
                    got = await queue.get()
            except TimeoutError:
                break
            if same(point, got, value):
                return True, others
            others.append(got)
        return False, others


class NotInState(Exception):
    """A JSON state that does not hold the point's key: it says nothing about the point (a
    device that sends several kinds of state on one topic, or only what changed)."""


def decode(point: MqttPoint, payload: bytes) -> Any:
    """The value a state payload carries, as the point's type; ValueError if it carries none,
    NotInState if the point's value is taken from a JSON object that does not hold its key."""
    return _decode(point, payload, point.path)


def decode_command(point: MqttPoint, payload: bytes) -> Any:
    """The value a command payload asks for (what a device makes of what `encode` sends)."""
    return _decode(point, payload, (point.command_key,) if point.command_key else ())


def state_payload(point: MqttPoint, value: Any) -> str:
    """A state that shows `value` as the device would publish it (the plant simulator's); a
    text is sent as it is, whatever the point's type (as a device may send anything)."""
    if not point.path:
        return value if isinstance(value, str) else _bare(point, value)
    shown: Any = (point.payload_on if value else point.payload_off) \
        if point.kind == "bool" and not isinstance(value, str) else value
    for key in reversed(point.path):
        shown = {key: shown}
    return strict_json.dumps(shown)


def _decode(point: MqttPoint, payload: bytes, path: tuple[str, ...]) -> Any:
    limit = MAX_JSON_STATE_BYTES if path else MAX_STATE_BYTES
    if len(payload) > limit:
        raise ValueError(f"a state of {len(payload)} bytes is longer than {limit}")
    if path:
        text = _at_path(path, payload).strip()
    else:
        try:
            text = payload.decode("utf-8").strip()
        except UnicodeDecodeError:
            raise ValueError("the state is not UTF-8 text") from None
    if not text:
        raise ValueError("the state is empty")
    if point.kind == "bool":
        if text == point.payload_on:
            return True
        if text == point.payload_off:
            return False
        low = text.lower()
        if low in _TRUE or low == point.payload_on.lower():
            return True
        if low in _FALSE or low == point.payload_off.lower():
            return False
        raise ValueError(f"{_show(text)} is neither {point.payload_on!r} nor {point.payload_off!r}")
    if point.kind in ("int", "float"):
        return _number(point, text)
    if any(ord(ch) < 32 and ch not in "\t\n\r" for ch in text):
        raise ValueError("the state contains control characters")
    return text


def _number(point: MqttPoint, text: str) -> int | float:
    if point.kind == "int" and _INTEGER.fullmatch(text):
        # exactly: through a float, 2**64 - 1 would read 2**64 and 2**53 + 1 would read 2**53
        whole = int(text) if len(text) <= 21 else INT_MAX + 1
    else:
        if text.lower().lstrip("+-") in ("nan", "inf", "infinity"):
            raise ValueError(f"{_show(text)} is not a finite number")
        if not _NUMBER.fullmatch(text):
            raise ValueError(f"{_show(text)} is not a number")
        number = float(text)
        if not math.isfinite(number):
            raise ValueError(f"{_show(text)} is not a finite number")
        if point.kind == "float":
            return number
        if not number.is_integer():
            raise ValueError(f"{_show(text)} is not a whole number")
        whole = int(number)
    if not INT_MIN <= whole <= INT_MAX:
        raise ValueError(f"{_show(text)} is a whole number past 64 bits, which no device holds")
    return whole


@functools.lru_cache(maxsize=1)
def _json_object(payload: bytes) -> tuple[dict[str, Any] | None, str]:
    """The JSON object a state holds, or None and why not. The last one is kept: every point
    on a topic decodes the same state, which is parsed once, not once per point (800 points
    on one 16 KiB state cost over a second a message). Callers only read what it returns."""
    try:
        raw = payload.decode("utf-8")
    except UnicodeDecodeError:
        return None, "the state is not UTF-8 text"
    try:
        value = strict_json.loads(raw)
    except ProtocolError as exc:
        return None, f"the state is not JSON ({exc})"
    if not isinstance(value, dict):
        return None, f"the state is JSON but not an object: {_show(raw.strip())}"
    return value, ""


def _at_path(path: tuple[str, ...], payload: bytes) -> str:
    """The text of the scalar at `path` in a JSON object state."""
    obj, problem = _json_object(bytes(payload))
    if obj is None:
        raise ValueError(problem)
    here: Any = obj
    for i, key in enumerate(path):
        if isinstance(here, dict) and key in here:
            here = here[key]
        elif isinstance(here, list) and key.isdigit() and key.isascii() and int(key) < len(here):
            here = here[int(key)]
        elif i == 0 or isinstance(here, dict | list):
            raise NotInState(".".join(path[:i + 1]))
        else:
            raise ValueError(f"{'.'.join(path[:i])} is {_show(repr(here))}, "
                             f"which holds no {key!r}")
    if isinstance(here, bool):
        return "true" if here else "false"
    if isinstance(here, int | float):
        return repr(here)
    if isinstance(here, str):
        return here
    raise ValueError(f"{'.'.join(path)} holds {_show(strict_json.dumps(here))}, "
                     "not a value")


def encode(point: MqttPoint, value: Any) -> str:
    """The command payload that asks the device for `value`."""
    if point.command_key is not None:
        shown: Any = (point.payload_on if value else point.payload_off) \
            if point.kind == "bool" else value
        return strict_json.dumps({point.command_key: shown})
    return _bare(point, value)


def _bare(point: MqttPoint, value: Any) -> str:
    if point.kind == "bool":
        return point.payload_on if value else point.payload_off
    if point.kind == "int":
        return str(int(value))
    if point.kind == "float":
        return repr(float(value))
    return str(value)


def same(point: MqttPoint, a: Any, b: Any) -> bool:
    """Whether a state shows the value written (numbers to a relative millionth)."""
    if point.kind == "float" and isinstance(a, int | float) and isinstance(b, int | float):
        return math.isclose(float(a), float(b), rel_tol=1e-6, abs_tol=1e-9)
    return bool(a == b)


def _show(text: str) -> str:
    shown = repr(text)
    return shown if len(shown) <= 40 else shown[:37] + "..."
