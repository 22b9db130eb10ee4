"""Simulated MQTT devices for a hermesd config: other clients on the configured broker.

Every `driver: mqtt` device becomes a client's worth of behaviour on one paho connection to
`mqtt.host:port` (with the config's username, password file and TLS): each point with only a
`state_topic` (a sensor) publishes its value, retained, on connect and every `period` seconds,
wandering inside its range like the Modbus simulator's values; each point with a
`command_topic` takes the commands published there, decoded as the hermesd tool encodes them,
and shows what it took on its `state_topic` (retained), as a relay or a beacon confirms a switch.
A device with an `availability_topic` says `payload_available` there (retained) while it runs.

Faults: `drop` (silent: nothing published, commands ignored, and `payload_not_available` on the
availability topic, as a broker sends a lost client's will), `slow` (commands confirmed late),
`fail` (the state topics show `ERR <code>`, which no point decodes; 0 clears). A broker that is
not there is waited for (paho reconnects), never a reason to stop the other simulators.

paho runs its own network thread; its callbacks only hop into the event loop. This must never
publish outside the topics the config names for its devices.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import os
import random
import ssl
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import paho.mqtt.client as paho
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.reasoncodes import ReasonCode

from hermes_tools.mqtt.points import MqttPoint, NotInState, decode, decode_command, state_payload
from hermes_tools.sim.values import Wander, wander_for
from hermesd.config.model import Config, Device
from hermesd.core import strict_json
from hermesd.core.settings.mqtt import MqttDeviceSettings

log = logging.getLogger(__name__)

PERIOD = 5.0  # seconds between a sensor's publishes
CONNECT_WAIT = 5.0  # seconds `run` waits for the first connect before it calls itself ready
MAX_DELAY = 600.0  # seconds `slow` may make a confirmation late


@dataclass
class TopicPoint:
    point: MqttPoint
    wander: Wander
    writable: bool

    @property
    def value(self) -> Any:
        return self.wander.value


@dataclass
class MqttDevice:
    id: str
    points: dict[str, TopicPoint]
    availability: str | None
    payload_available: str
    payload_not_available: str
    dropped: bool = False
    delay: float = 0.0
    failure: str | None = None
    commands: int = 0  # commands taken
    bad_commands: int = 0  # commands whose payload did not fit the point
    published: int = 0


class MqttSimulator:
    """The `driver: mqtt` devices of one config, on its broker, until cancelled."""

    driver = "mqtt"

    def __init__(self, config: Config, devices: list[Device],
                 values: Mapping[str, Any] | None = None, *, seed: int | None = None,
                 period: float = PERIOD) -> None:
        if config.mqtt is None:
            raise ValueError("driver mqtt devices need the config's `mqtt` section (the broker)")
        self.broker = config.mqtt
        self.client_id = f"hermes-sim-{config.node.id}-{os.getpid()}"
        self.period = period
        self.rng = random.Random(seed)  # noqa: S311 - simulation, not security
        self.ready = asyncio.Event()
        self.connected = False
        self.devices: dict[str, MqttDevice] = {}
        self.points: dict[str, tuple[MqttDevice, TopicPoint]] = {}
        self.by_command: dict[str, list[tuple[MqttDevice, TopicPoint]]] = {}
        #: state topic -> the points shown on it (a JSON device shows all of them in one object)
        self.by_state: dict[str, list[TopicPoint]] = {}
        values = values or {}
        for dev in devices:
            p = MqttDeviceSettings.from_dict(dev.params, f"devices.{dev.id}")
            sim = MqttDevice(dev.id, {}, p.availability_topic, p.payload_available,
                             p.payload_not_available)
            for pid, point in dev.points.items():
                mp = MqttPoint.from_slice(dev.id, {"id": pid, **point.params,
                                                   "kind": point.kind})
                slice_ = {"id": pid, "name": point.name, "kind": point.kind, "unit": point.unit,
                          "writable": point.writable or mp.command_topic is not None,
                          "min": point.min, "max": point.max}
                tp = TopicPoint(mp, wander_for(slice_, values.get(pid)),
                                mp.command_topic is not None)
                sim.points[pid] = tp
                self.points[pid] = (sim, tp)
                if mp.command_topic is not None:
                    self.by_command.setdefault(mp.command_topic, []).append((sim, tp))
                if mp.state_topic is not None:
                    self.by_state.setdefault(mp.state_topic, []).append(tp)
            self.devices[dev.id] = sim
        self._client: paho.Client | None = None
        self._first_attempt = asyncio.Event()  # the first connect succeeded or failed
        self._tasks: set[asyncio.Task[None]] = set()

    # -- the connection -------------------------------------------------------------------------

    def _make_client(self, loop: asyncio.AbstractEventLoop) -> paho.Client:
        b = self.broker
        if b.protocol == "5":
            client = paho.Client(CallbackAPIVersion.VERSION2, client_id=self.client_id,
                                 protocol=paho.MQTTv5)
        else:
            client = paho.Client(CallbackAPIVersion.VERSION2, client_id=self.client_id,
                                 protocol=paho.MQTTv311, clean_session=True)
        if b.username is not None:
            password = None
            if b.password_file is not None:
                lines = Path(b.password_file).read_text(encoding="utf-8").splitlines()
                password = lines[0] if lines else ""
            client.username_pw_set(b.username, password)
        if b.tls is not None:
            client.tls_set(ca_certs=str(b.tls.ca) if b.tls.ca else None,
                           certfile=str(b.tls.cert) if b.tls.cert else None,
                           keyfile=str(b.tls.key) if b.tls.key else None,
                           cert_reqs=ssl.CERT_REQUIRED)
            if b.tls.insecure:
                client.tls_insecure_set(True)
        client.reconnect_delay_set(1, 5)

        # paho's thread: only hop into the loop (an exception here would end that thread)
        def on_connect(c: paho.Client, userdata: Any, flags: Any, reason: ReasonCode,
                       properties: Any) -> None:
            loop.call_soon_threadsafe(self._on_connect, not reason.is_failure, str(reason))

        def on_connect_fail(c: paho.Client, userdata: Any) -> None:
            loop.call_soon_threadsafe(self._on_connect, False, "cannot reach the broker")

        def on_disconnect(c: paho.Client, userdata: Any, flags: Any, reason: ReasonCode,
                          properties: Any) -> None:
            loop.call_soon_threadsafe(self._on_disconnect, str(reason))

        def on_message(c: paho.Client, userdata: Any, msg: paho.MQTTMessage) -> None:
            loop.call_soon_threadsafe(self._on_message, msg.topic, bytes(msg.payload))

        client.on_connect = on_connect
        client.on_connect_fail = on_connect_fail
        client.on_disconnect = on_disconnect
        client.on_message = on_message
        return client

    async def run(self) -> None:
        """Connect (and keep reconnecting), publish the sensors every period, until cancelled."""
        loop = asyncio.get_running_loop()
        client = self._client = self._make_client(loop)
        client.connect_async(self.broker.host, self.broker.port, keepalive=30)
        client.loop_start()
        try:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(CONNECT_WAIT):
                    await self._first_attempt.wait()
            if not self.connected:
                log.warning("cannot reach the MQTT broker at %s:%s yet; the MQTT devices appear "
                            "once it is there", self.broker.host, self.broker.port)
            self.ready.set()
            last = loop.time()
            while True:
                await asyncio.sleep(self.period)
                now = loop.time()
                for dev in self.devices.values():
                    for tp in dev.points.values():
                        if not tp.writable:
                            tp.wander.step(self.rng, now - last)
                    self._publish_states(dev)
                last = now
        finally:
            tasks = list(self._tasks)
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            self._client = None
            client.disconnect()
            await asyncio.to_thread(client.loop_stop)

    def _on_connect(self, ok: bool, reason: str) -> None:
        self._first_attempt.set()
        if not ok:
            self.connected = False
            log.debug("MQTT broker at %s:%s: %s", self.broker.host, self.broker.port, reason)
            return
        self.connected = True
        client = self._client
        if client is None:
            return
        if self.by_command:
            client.subscribe([(topic, 1) for topic in sorted(self.by_command)])
        for dev in self.devices.values():
            self._announce(dev)

    def _on_disconnect(self, reason: str) -> None:
        if self.connected:
            log.info("MQTT broker connection lost (%s); reconnecting", reason)
        self.connected = False

    # -- publishing -----------------------------------------------------------------------------

    def _publish(self, topic: str, payload: str) -> bool:
        """Publish retained, as devices show their state; False when not connected."""
        client = self._client
        if client is None or not self.connected:
            return False
        client.publish(topic, payload, qos=1, retain=True)
        return True

    def _announce(self, dev: MqttDevice) -> None:
        """What a device says when it (re)appears: available, and every state it has."""
        if dev.availability is not None:
            self._publish(dev.availability, dev.payload_not_available if dev.dropped
                          else dev.payload_available)
        self._publish_states(dev, everything=True)

    def _publish_states(self, dev: MqttDevice, *, everything: bool = False) -> None:
        """The sensors' states (and, with `everything`, the switches' too)."""
        if dev.dropped:
            return
        shown: set[str] = set()  # JSON state topics already published, with all their points
        for tp in dev.points.values():
            topic = tp.point.state_topic
            if topic is None or (tp.writable and not everything) or topic in shown:
                continue
            if tp.point.path:
                shown.add(topic)
            payload = f"ERR {dev.failure}" if dev.failure is not None else self._state(tp)
            dev.published += self._publish(topic, payload)

    def _state(self, tp: TopicPoint) -> str:
        """What the device shows on `tp`'s state topic: for a JSON state, the one object that
        holds every point on the topic, as a real device sends it (a one-key object, retained,
        would hide the others from a client that subscribes later)."""
        if not tp.point.path or tp.point.state_topic is None:
            return state_payload(tp.point, tp.value)
        state: dict[str, Any] = {}
        for other in self.by_state[tp.point.state_topic]:
            if other.point.path:
                _merge(state, strict_json.loads(state_payload(other.point, other.value)))
        return strict_json.dumps(state)

    # -- commands -------------------------------------------------------------------------------

    def _on_message(self, topic: str, payload: bytes) -> None:
        for dev, tp in self.by_command.get(topic, ()):
            if dev.dropped or dev.failure is not None:
                continue  # gone, or broken: a command is not taken
            try:
                value = decode_command(tp.point, payload)
            except NotInState:
                continue  # a command for another point on the topic ({"brightness": 30})
            except ValueError as exc:
                dev.bad_commands += 1
                log.warning("%s: ignored a command on %s: %s", tp.point.id, topic, exc)
                continue
            dev.commands += 1
            task = asyncio.get_running_loop().create_task(self._take(dev, tp, value),
                                                          name=f"sim-mqtt-{tp.point.id}")
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _take(self, dev: MqttDevice, tp: TopicPoint, value: Any) -> None:
        if dev.delay:
            await asyncio.sleep(dev.delay)
        if dev.dropped:
            return
        tp.wander.base = tp.wander.value = value
        if tp.point.state_topic is not None:
            dev.published += self._publish(tp.point.state_topic, self._state(tp))

    # -- control (each returns what changed, for the control channel's answer) -----------------

    def _device(self, device: str) -> MqttDevice:
        found = self.devices.get(device)
        if found is None:
            raise KeyError(f"no simulated mqtt device {device!r}")
        return found

    def _point(self, point: str) -> tuple[MqttDevice, TopicPoint]:
        found = self.points.get(point)
        if found is None:
            raise KeyError(f"no simulated mqtt point {point!r}")
        return found

    async def drop(self, device: str, mode: str = "silent") -> dict[str, Any]:
        if mode != "silent":
            raise ValueError(f"drop mode {mode!r}: an MQTT device can only go silent")
        dev = self._device(device)
        dev.dropped = True
        if dev.availability is not None:  # what the broker would send as its will
            self._publish(dev.availability, dev.payload_not_available)
        return {"device": device, "dropped": mode}

    async def restore(self, device: str) -> dict[str, Any]:
        dev = self._device(device)
        dev.dropped, dev.delay, dev.failure = False, 0.0, None
        self._announce(dev)
        return {"device": device, "restored": True}

    async def slow(self, device: str, seconds: float) -> dict[str, Any]:
        if not 0 <= seconds <= MAX_DELAY:
            raise ValueError(f"seconds must be 0..{MAX_DELAY:g}")
        self._device(device).delay = float(seconds)
        return {"device": device, "delay_s": float(seconds)}

    async def fail(self, device: str, code: int | str, table: str | None = None,
                   address: int = 0, count: int = 65536) -> dict[str, Any]:
        """Show `ERR <code>` on the device's state topics (0 or "off" clears); `table`,
        `address` and `count` are Modbus's: an MQTT device fails as a whole."""
        if table is not None:
            raise ValueError("an MQTT device has no register tables; it fails as a whole")
        dev = self._device(device)
        dev.failure = None if code in (0, "0", "off", None) else str(code)
        self._publish_states(dev, everything=True)
        return {"device": device, "fail": dev.failure}

    async def set(self, point: str, value: Any) -> dict[str, Any]:
        dev, tp = self._point(point)
        text = state_payload(tp.point, value if isinstance(value, bool) else str(value))
        try:  # what the point would make of it, had the device published it
            value = decode(tp.point, text.encode())
        except (ValueError, NotInState) as exc:
            raise ValueError(f"{point}: {exc}") from None
        if isinstance(value, float) and not math.isfinite(value):
            raise ValueError(f"{point}: {value!r} is not a value")
        tp.wander.base = tp.wander.value = value
        if tp.point.state_topic is not None and not dev.dropped and dev.failure is None:
            self._publish(tp.point.state_topic, self._state(tp))
        return {"point": point, "value": value}

    async def get(self, point: str) -> dict[str, Any]:
        return {"point": point, "value": self._point(point)[1].value}

    def status(self) -> dict[str, Any]:
        where = f"mqtt {self.broker.host}:{self.broker.port}"
        if not self.connected:
            where += " (not connected)"
        out: dict[str, Any] = {}
        for device, dev in self.devices.items():
            topics = sorted({t for tp in dev.points.values()
                             for t in (tp.point.state_topic, tp.point.command_topic) if t})
            out[device] = {"driver": "mqtt", "endpoint": where, "connected": self.connected,
                           "topics": topics, "requests": {"write": dev.commands},
                           "bad_commands": dev.bad_commands, "published": dev.published,
                           "dropped": dev.dropped, "delay_s": dev.delay, "fail": dev.failure}
        return out


def _merge(into: dict[str, Any], part: dict[str, Any]) -> None:
    """Put the nested object `part` into `into` (two points under one key share its object)."""
    for key, value in part.items():
        if isinstance(value, dict) and isinstance(into.get(key), dict):
            _merge(into[key], value)
        else:
            into[key] = value
