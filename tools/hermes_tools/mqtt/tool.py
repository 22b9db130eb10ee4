"""The MQTT tool process: MQTT points, the broker link for the daemon, and its outbox.

Actions: `read`/`write` of `driver: mqtt` points, `publish` (a batch of messages from the daemon:
discovery, states, answers; raw access, so a direct call needs `raw_write`), `status`.
Messages that arrive are routed by topic: commands and write requests become events after
`inbound` has checked them, device states become `values`, availability topics `device` events.
A duplicate delivery (QoS 1 DUP flag) of a request already seen is dropped here; requests that
carry an id or correlation data are also deduplicated by the daemon. A write is never queued
for later: with the broker away it fails at once with DEVICE_OFFLINE.

Requests act only on live messages. A message on a request topic (command, set, push-to-talk)
that arrives with the retain flag is the broker's stored copy, sent again at every subscribe,
so acting on it would repeat an old request at every reconnect (and undo later writes): it is
ignored, logged once per topic, counted, and reported to the daemon as a `retained` event.
hermesd does not clear it: it is another client's data, and the broker may well refuse us the
write; the log line says how to clear it. A live message without payload and without MQTT 5
request properties is the clearing of such a message, not a request: ignored too. Junk on the
topics we only watch is logged once per topic until that topic carries good data again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from pathlib import Path
from typing import Any

from hermes_tools.mqtt import inbound, points
from hermes_tools.mqtt.connection import Connection, Settings, Subscription
from hermes_tools.mqtt.inbound import Incoming, Redeliveries, ReplyRules
from hermes_tools.mqtt.outbox import Message, Outbox
from hermes_tools.mqtt.points import MqttDevice, MqttPoint, StateBoard
from hermes_tools.runtime import READ_SPEC, WRITE_SPEC, Tool
from hermesd import __version__
from hermesd.core.errors import BadRequest, ErrorCode, ToolError, UnknownPoint
from hermesd.core.protocol import ActionSpec
from hermesd.core.settings.mqtt import BrokerSettings
from hermesd.core.topics import ToolTopics

log = logging.getLogger(__name__)

MAX_BATCH = 5000  # messages in one publish call
SAVE_DELAY_CONNECTED = 1.0  # an answer is usually acknowledged before the outbox needs a save
OUTBOX_FILE = "mqtt-outbox.json"
START_RETRY = 5.0  # seconds between attempts to use password/TLS files that failed
NOTED_TOPICS = 1024  # topics remembered for log-once; past that, one line says logging stopped

_MESSAGE = {
    "type": "object", "additionalProperties": False,
    "required": ["topic", "payload"],
    "properties": {
        "topic": {"type": "string", "minLength": 1, "maxLength": 1024},
        "payload": {"type": "string", "maxLength": 262144},
        "qos": {"enum": [0, 1]},
        "retain": {"type": "boolean"},
        "durable": {"type": "boolean"},  # keep in the outbox until the broker has it
        "correlation": {"type": "string", "pattern": "^([0-9a-f]{2}){0,256}$"},
        "content_type": {"type": "string", "maxLength": 128},
        "expiry": {"type": "integer", "minimum": 1, "maximum": 4294967295},
    },
}
PUBLISH_SPEC = ActionSpec(
    name="publish",
    description="Publish MQTT messages (durable ones survive a broker outage in the outbox).",
    input_schema={"type": "object", "additionalProperties": False, "required": ["messages"],
                  "properties": {"messages": {"type": "array", "items": _MESSAGE,
                                              "maxItems": MAX_BATCH}}},
    output_schema={"type": "object", "required": ["sent", "queued", "dropped", "connected"],
                   "properties": {"sent": {"type": "integer"}, "queued": {"type": "integer"},
                                  "dropped": {"type": "integer"},
                                  "connected": {"type": "boolean"},
                                  "outbox": {"type": "integer"}}},
    effect="write")
STATUS_SPEC = ActionSpec(
    name="status", description="The broker connection, subscriptions and outbox.",
    input_schema={"type": "object", "additionalProperties": False, "properties": {}},
    output_schema={"type": "object", "required": ["connected"]}, effect="none")


class Noted:
    """Keys already logged about, so a state is logged once, not once per message (bounded)."""

    def __init__(self, what: str, limit: int = NOTED_TOPICS) -> None:
        self.what = what
        self.limit = limit
        self._keys: set[str] = set()
        self._full = False

    def first(self, key: str) -> bool:
        """True the first time `key` is seen (until `forget`)."""
        if key in self._keys:
            return False
        if len(self._keys) >= self.limit:
            if not self._full:
                self._full = True
                log.warning("more than %d topics with %s: not logged one by one any more",
                            self.limit, self.what)
            return False
        self._keys.add(key)
        return True

    def forget(self, key: str) -> bool:
        """Forget `key`; whether it was noted."""
        if key in self._keys:
            self._keys.discard(key)
            return True
        return False


class MqttTool(Tool):
    name = "mqtt"
    version = __version__

    def __init__(self) -> None:
        super().__init__()
        self.action(READ_SPEC, self.read)
        self.action(WRITE_SPEC, self.write)
        self.action(PUBLISH_SPEC, self.publish)
        self.action(STATUS_SPEC, self.status)
        self.conn: Connection | None = None
        self.topics: ToolTopics | None = None
        self.rules: ReplyRules | None = None
        self.points: dict[str, MqttPoint] = {}
        self.devices: dict[str, MqttDevice] = {}
        self.by_state: dict[str, list[str]] = {}  # state topic -> point ids
        self.by_availability: dict[str, list[str]] = {}  # availability topic -> device ids
        self.board = StateBoard()  # the last state of each point, and who waits for one
        #: points whose last state was the broker's stored (retained) copy: of unknown age, so
        #: told to the daemon as `retained` (stale until a live state) and never as fresh
        self.retained_state: set[str] = set()
        self.online: dict[str, bool] = {}  # device -> what we last told the daemon
        self.bad_state: set[str] = set()  # points whose last state payload was unusable
        self.keyless: set[str] = set()  # points told once that a JSON state lacked their key
        #: the message last logged about as a state, and how: the points that share a topic
        #: turn bad (or good) together, and one line says so, not one per point
        self._state_said: tuple[Incoming, str] | None = None
        self.start_error: str | None = None  # why the connection could not even start
        self.outbox = Outbox(None, 0)
        self._outbox_changed = asyncio.Event()
        self._save_problem: str | None = None  # why the outbox cannot be saved, while it cannot
        self._acks: dict[int, asyncio.Future[None]] = {}
        self.redeliveries = Redeliveries()
        self.counters = {"received": 0, "published": 0, "dropped": 0, "duplicates": 0,
                         "refused": 0, "retained": 0, "cleared": 0, "ignored": 0,
                         "bad_states": 0, "states_without_key": 0}
        self.retained_seen = Noted("retained requests")
        self.refusals_seen = Noted("refused requests")
        self.junk_seen = Noted("unusable messages")

    # -- configuration ---------------------------------------------------------------------------

    async def configure(self, config: dict[str, Any]) -> dict[str, Any]:
        mqtt = config.get("mqtt")
        if not isinstance(mqtt, dict):
            raise BadRequest("the mqtt tool needs the `mqtt` section (the broker)")
        broker = BrokerSettings.from_dict(mqtt)
        topics = broker.topics
        settings = Settings.of(broker)
        devices: dict[str, MqttDevice] = {}
        mqtt_points: dict[str, MqttPoint] = {}
        for dev_id, dev in config.get("devices", {}).items():
            devices[dev_id] = MqttDevice.from_slice(dev)
            for pid, p in dev["points"].items():
                mqtt_points[pid] = MqttPoint.from_slice(dev_id, p)
        state_dir = config.get("state_dir")
        path = Path(state_dir) / OUTBOX_FILE if state_dir else None
        if self.outbox.path != path:
            self.outbox = Outbox(path, broker.outbox_limit)
            restored = self.outbox.load()
            if restored:
                log.info("%d unsent message(s) taken back from %s", restored, path)
        self.outbox.limit = broker.outbox_limit

        self.topics = topics
        self.rules = ReplyRules(default=topics.names.response, protected=topics.protected,
                                allowed=topics.allowed)
        # a key corrected (or changed) in the config is said again if states still lack it
        self.keyless = {p for p in self.keyless if p in mqtt_points and p in self.points
                        and mqtt_points[p].path == self.points[p].path}
        self.devices, self.points = devices, mqtt_points
        self.by_state, self.by_availability = {}, {}
        for point in mqtt_points.values():
            if point.state_topic:
                self.by_state.setdefault(point.state_topic, []).append(point.id)
        for device in devices.values():
            if device.availability_topic:
                self.by_availability.setdefault(device.availability_topic, []).append(device.id)
        self.board.keep_only(set(mqtt_points))
        self.retained_state &= set(mqtt_points)
        for gone in [d for d in self.online if d not in devices]:
            del self.online[gone]

        wanted = self._subscriptions()
        if self.conn is None or self.conn.settings != settings:
            if self.conn is not None:
                log.info("broker settings changed: reconnecting to %s", settings.broker)
                await self.conn.stop()
                self.outbox.forget_client()
            self.conn = Connection(settings, on_message=self._on_message,
                                   on_state=self._on_state, on_published=self._on_published)
            self._start()
        elif self.start_error is not None:
            self._start()  # a reload is the moment to try the files again
        else:
            self.conn.subscriptions(wanted)
            if self.conn.ready:
                self._announce_devices()
        return {"broker": settings.broker, "points": len(mqtt_points),
                "subscriptions": len(wanted), "outbox": len(self.outbox)}

    def _start(self) -> None:
        """Start the connection; a password or TLS file that cannot be used is reported (and
        tried again later), not fatal: the tool keeps serving, hermesd keeps starting."""
        assert self.conn is not None
        try:
            self.conn.start(self._subscriptions())
        except ToolError as exc:
            if exc.message != self.start_error:
                log.error("cannot connect to the MQTT broker: %s", exc.message)
            self.start_error = self.conn.reason = exc.message
            self.emit("connection", {"connected": False, "reason": exc.message,
                                     "outbox": len(self.outbox)})
        else:
            if self.start_error is not None:
                log.info("the MQTT broker settings are usable again")
            self.start_error = None

    def _subscriptions(self) -> dict[str, Subscription]:
        """Requests live only; states, availabilities and HA's status with their retained copy."""
        assert self.topics is not None
        wanted: dict[str, Subscription] = {}

        def want(topic: str, qos: int, live_only: bool = False) -> None:
            had = wanted.get(topic)
            if had is not None:  # a topic that is also a state topic still needs its copy
                qos, live_only = max(qos, had.qos), live_only and had.live_only
            wanted[topic] = Subscription(qos, live_only)

        names = self.topics.names
        for request_topic in (names.command, names.set_filter, self.topics.talk):
            if request_topic:
                want(request_topic, 1, live_only=True)
        want(self.topics.names.ha_status, 1)
        for point in self.points.values():
            if point.state_topic:
                want(point.state_topic, point.qos)
        for topic in self.by_availability:
            want(topic, 1)
        return wanted

    # -- background work ---------------------------------------------------------------------------

    async def run(self) -> None:
        async with asyncio.TaskGroup() as tg:
            tg.create_task(self._save_loop(), name="outbox-save")
            tg.create_task(self._retry_start(), name="start-retry")

    async def _retry_start(self) -> None:
        while True:
            await asyncio.sleep(START_RETRY)
            if self.start_error is not None and self.conn is not None:
                self._start()

    async def _save_loop(self) -> None:
        """Save the outbox when it changed: at once while the broker is away, else lazily."""
        while True:
            await self._outbox_changed.wait()
            self._outbox_changed.clear()
            connected = self.conn is not None and self.conn.ready
            await asyncio.sleep(SAVE_DELAY_CONNECTED if connected else 0)
            await self._save_outbox()

    async def _save_outbox(self) -> None:
        data = self.outbox.snapshot()
        try:
            await asyncio.to_thread(self.outbox.save, data)
        except OSError as exc:
            problem = exc.strerror or str(exc)
            if problem != self._save_problem:  # once per cause, not at every change
                log.error("cannot save the MQTT outbox to %s: %s", self.outbox.path, exc)
                self._save_problem = problem
            return
        if self._save_problem is not None:
            log.info("the MQTT outbox is saved to %s again", self.outbox.path)
            self._save_problem = None

    async def close(self) -> None:
        with contextlib.suppress(OSError):
            self.outbox.save(self.outbox.snapshot())
        if self.conn is not None:
            # a clean stop: nothing is available any more, not only the node (its last will
            # covers a crash only: MQTT has one will per connection)
            await self.conn.stop(also_offline=self.topics.devices if self.topics else ())

    # -- the connection's reports --------------------------------------------------------------------

    def _on_state(self, ready: bool, reason: str) -> None:
        assert self.conn is not None
        if ready:
            log.info("connected to the MQTT broker at %s", self.conn.settings.broker)
            self._flush_outbox()
            self._announce_devices()
        else:
            log.warning("MQTT broker %s: %s", self.conn.settings.broker, reason)
            for device in self.devices:
                self._device(device, False, f"not connected to the MQTT broker: {reason}")
        self.emit("connection", {"connected": ready, "reason": reason,
                                 "outbox": len(self.outbox)})

    def _announce_devices(self) -> None:
        for device in self.devices.values():
            if device.availability_topic is None:
                self._device(device.id, True, "")

    def _device(self, device: str, online: bool, reason: str) -> None:
        if self.online.get(device) != online:
            self.online[device] = online
            self.device_state(device, online, reason)

    def _on_published(self, mid: int) -> None:
        if self.outbox.acked(mid):
            self._outbox_changed.set()
        fut = self._acks.pop(mid, None)
        if fut is not None and not fut.done():
            fut.set_result(None)

    def _on_message(self, msg: Incoming) -> None:
        self.counters["received"] += 1
        try:
            self._route(msg)
        except Exception:
            log.exception("handling a message on %s failed", msg.topic)

    def _route(self, msg: Incoming) -> None:
        topics, rules = self.topics, self.rules
        assert topics is not None and rules is not None
        if msg.topic == topics.names.command:
            if self._live("command", msg) and not self._duplicate(msg):
                self._request("command", inbound.command_event(msg, rules))
        elif msg.topic == topics.names.ha_status:
            online = inbound.ha_status(msg)
            if msg.retain:
                pass  # a retained birth comes with every connect, which announces anyway
            elif online is None:
                self._junk(msg, "Home Assistant says online or offline")
            else:
                self._good(msg.topic)
                self.emit("ha_status", {"online": online})
        elif topics.talk and msg.topic == topics.talk:
            if not self._live("talk", msg):
                pass
            elif msg.payload.strip() == b"PRESS":
                self._good(msg.topic)
                self.emit("talk", {"ts": time.time()})
            else:
                self._junk(msg, "a press is PRESS")
        else:
            point = inbound.point_of_set_topic(msg.topic, topics.names.set_filter)
            if point is not None and self._live("set", msg) and not self._duplicate(msg):
                self._request("set", inbound.set_event(msg, point, rules))
        for pid in self.by_state.get(msg.topic, ()):
            self._state(self.points[pid], msg)
        for device in self.by_availability.get(msg.topic, ()):
            self._availability(self.devices[device], msg)

    def _live(self, kind: str, msg: Incoming) -> bool:
        """Whether a message on a request topic is a live request to act on."""
        if msg.retain:
            self.counters["retained"] += 1
            if self.retained_seen.first(msg.topic):
                log.warning("ignored a retained %s on %s: requests act only on live messages, "
                            "never on the broker's stored copy (the broker keeps sending it at "
                            "every subscribe; its owner can clear it with an empty retained "
                            "message, e.g. mosquitto_pub -r -n -t TOPIC)", kind,
                            inbound.show(msg.topic))
            self.emit("retained", {"kind": kind, "topic": msg.topic[:inbound.MAX_TOPIC_BYTES]})
            return False
        if not msg.payload and msg.response_topic is None and msg.correlation is None:
            self.counters["cleared"] += 1  # how a retained message is deleted: not a request
            if self.retained_seen.forget(msg.topic):
                log.info("the retained %s on %s was cleared", kind, inbound.show(msg.topic))
            return False
        return True

    def _request(self, kind: str, event: dict[str, Any]) -> None:
        if event["error"] is not None:
            self.counters["refused"] += 1
            # answered and counted; logged once per topic until a request on it is taken again
            # (a flood of bad requests must not flood the log)
            level = logging.INFO if self.refusals_seen.first(event["topic"]) else logging.DEBUG
            log.log(level, "refused a %s on %s: %s", kind, inbound.show(event["topic"]),
                    event["error"]["message"])
        else:
            self.refusals_seen.forget(event["topic"])
        self.emit(kind, event)

    def _junk(self, msg: Incoming, expected: str) -> None:
        self.counters["ignored"] += 1
        if self.junk_seen.first(msg.topic):
            log.warning("ignored %r on %s: %s (logged once until it carries good data)",
                        msg.payload[:40], inbound.show(msg.topic), expected)

    def _good(self, topic: str) -> None:
        if self.junk_seen.forget(topic):
            log.info("%s carries good data again", inbound.show(topic))

    def _duplicate(self, msg: Incoming) -> bool:
        if self.redeliveries.seen_again(msg):
            self.counters["duplicates"] += 1
            log.info("dropped a redelivered request on %s", msg.topic)
            return True
        return False

    def _state(self, point: MqttPoint, msg: Incoming) -> None:
        try:
            value = points.decode(point, msg.payload)
        except points.NotInState as missing:
            # says nothing about this point (another kind of state on the topic, or only what
            # changed): no value, no error; said once per point, in case the key is misspelt
            self.counters["states_without_key"] += 1
            if point.id not in self.keyless:
                self.keyless.add(point.id)
                log.info("a state on %s holds no %r for %s (ignored; said once per point)",
                         inbound.show(msg.topic), str(missing), point.id)
            return
        except ValueError as exc:
            self.counters["bad_states"] += 1
            if point.id not in self.bad_state:  # a state change: logged once
                self.bad_state.add(point.id)
                if self._first_said(msg, str(exc)):
                    log.warning("ignored a state of %s on %s: %s", point.id,
                                inbound.show(msg.topic), exc)
            return
        if point.id in self.bad_state:
            self.bad_state.discard(point.id)
            if self._first_said(msg, ""):
                log.info("%s sends usable states again", point.id)
        ts = time.time()  # when it arrived: for a retained copy, not when it was true
        self.board.record(point.id, value, ts)
        if msg.retain:
            self.retained_state.add(point.id)
            self.values([{"point": point.id, "value": value, "ts": ts, "retained": True}])
        else:
            self.retained_state.discard(point.id)
            self.values([{"point": point.id, "value": value, "ts": ts}])

    def _first_said(self, msg: Incoming, what: str) -> bool:
        """Whether `what` (a problem, or "" for usable again) is news for this message: a
        junk state on a topic of 800 points is one line, not 800 (flipped with good states,
        once a message)."""
        said = self._state_said
        if said is not None and said[0] is msg and said[1] == what:
            return False
        self._state_said = (msg, what)
        return True

    def _availability(self, device: MqttDevice, msg: Incoming) -> None:
        text = msg.payload[:256].decode("utf-8", "replace").strip()
        if text == device.payload_available:
            self._good(msg.topic)
            self._device(device.id, True, "")
        elif text == device.payload_not_available:
            self._good(msg.topic)
            self._device(device.id, False, f"its availability topic says {text!r}")
        else:
            self._junk(msg, f"expected {device.payload_available!r} or "
                            f"{device.payload_not_available!r}")

    def _flush_outbox(self) -> None:
        assert self.conn is not None
        for seq, message in self.outbox.unsent():
            mid = self.conn.publish(message.topic, message.payload, qos=message.qos,
                                    retain=message.retain, correlation=message.correlation,
                                    content_type=message.content_type, expiry=message.expiry)
            if mid is None:
                return  # lost the connection again; the next connect goes on
            self.outbox.handed(seq, mid)

    # -- actions -----------------------------------------------------------------------------------

    def _point(self, pid: str) -> MqttPoint:
        point = self.points.get(pid)
        if point is None:
            raise UnknownPoint(pid, f"the mqtt tool serves no point {pid!r}")
        return point

    def _require_online(self, point: MqttPoint) -> Connection:
        conn = self.conn
        if conn is None or not conn.ready:
            reason = conn.reason if conn is not None else "not configured"
            raise ToolError(ErrorCode.DEVICE_OFFLINE,
                            f"{point.device} is unreachable: not connected to the MQTT broker "
                            f"({reason})")
        if self.online.get(point.device) is False:
            raise ToolError(ErrorCode.DEVICE_OFFLINE,
                            f"device {point.device} is offline (its availability topic says so)")
        return conn

    async def read(self, args: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
        point = self._point(args["point"])
        if point.state_topic is None:
            raise BadRequest(f"{point.id} is write-only: it has no state_topic to read")
        connected = self.conn is not None and self.conn.ready
        if connected:  # a retained state arrives right after subscribing: give it a moment
            await self.board.first(point.id, self.devices[point.device].timeout)
        last = self.board.last.get(point.id)
        if last is None:
            code = ErrorCode.TIMEOUT if connected else ErrorCode.DEVICE_OFFLINE
            raise ToolError(code, f"no state of {point.id} has arrived on {point.state_topic} yet")
        if point.id in self.retained_state:
            return {"point": point.id, "value": last[0], "ts": last[1], "retained": True}
        return {"point": point.id, "value": last[0], "ts": last[1]}

    async def write(self, args: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
        point = self._point(args["point"])
        if point.command_topic is None:
            raise ToolError(ErrorCode.NOT_WRITABLE, f"{point.id} has no command_topic")
        conn = self._require_online(point)
        value = args["value"]
        timeout = self.devices[point.device].timeout
        with self.board.watch(point.id) as states:  # watching before sending: no state missed
            mid = conn.publish(point.command_topic, points.encode(point, value), qos=point.qos,
                               retain=point.retain)
            if mid is None:  # the connection was lost, or the broker takes nothing any more
                raise ToolError(ErrorCode.DEVICE_OFFLINE, f"{point.device} is unreachable: "
                                f"{conn.not_sent or 'the MQTT broker connection was lost'}")
            sent = time.time()
            if not point.confirm:  # nothing to watch: the broker's acknowledgement is all
                if point.qos > 0:
                    await self._puback(mid, timeout)
                return {"point": point.id, "value": value, "ts": sent}  # it cannot say more
            confirmed, others = await self.board.confirmation(point, states, value, timeout)
        if confirmed:
            return {"point": point.id, "value": value, "ts": time.time(), "confirmed": True}
        if others:
            raise ToolError(ErrorCode.NOT_CONFIRMED,
                            f"{point.device} reports {point.id} = {others[-1]!r} after the write "
                            f"of {value!r}")
        return {"point": point.id, "value": value, "ts": sent, "confirmed": False}

    async def _puback(self, mid: int, timeout: float) -> None:
        fut = asyncio.get_running_loop().create_future()
        self._acks[mid] = fut
        try:
            async with asyncio.timeout(timeout):
                await fut
        except TimeoutError:
            raise ToolError(ErrorCode.TIMEOUT, "the broker did not acknowledge the command "
                                               f"within {timeout:g} s") from None
        finally:
            self._acks.pop(mid, None)

    async def publish(self, args: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
        """Send now what can be sent; keep durable messages while the broker is away."""
        conn = self.conn
        sent = queued = dropped = 0
        for m in args["messages"]:
            topic = m["topic"]
            if "+" in topic or "#" in topic or "\x00" in topic:
                raise BadRequest(f"cannot publish to {topic!r}: wildcards are for subscribing")
            correlation = bytes.fromhex(m["correlation"]) if m.get("correlation") else None
            qos = m.get("qos", 1)
            if m.get("durable") and self.outbox.limit > 0 and qos > 0:
                # (a message is made only for the outbox: a state, most of what comes here,
                # goes to paho as it is)
                message = Message(topic=topic, payload=m["payload"].encode(), qos=qos,
                                  retain=m.get("retain", False), correlation=correlation,
                                  content_type=m.get("content_type"), expiry=m.get("expiry"))
                lost = self.outbox.add(message)
                if lost is not None:
                    dropped += 1
                    log.warning("the MQTT outbox is full (%d): dropped the oldest message, to %s",
                                self.outbox.limit, lost.topic)
                self._outbox_changed.set()
                queued += 1
                continue
            mid = conn.publish(topic, m["payload"].encode(), qos=qos,
                               retain=m.get("retain", False), correlation=correlation,
                               content_type=m.get("content_type"),
                               expiry=m.get("expiry")) if conn is not None else None
            if mid is None:
                dropped += 1
            else:
                sent += 1
        if queued and conn is not None and conn.ready:
            self._flush_outbox()
        self.counters["published"] += sent
        self.counters["dropped"] += dropped
        return {"sent": sent, "queued": queued, "dropped": dropped,
                "connected": bool(conn is not None and conn.ready), "outbox": len(self.outbox)}

    async def status(self, args: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
        conn = self.conn
        return {"connected": bool(conn is not None and conn.ready),
                "reason": conn.reason if conn is not None else "not configured",
                "broker": conn.settings.broker if conn is not None else None,
                "connects": conn.connects if conn is not None else 0,
                "outbox": len(self.outbox), "outbox_dropped": self.outbox.dropped,
                "subscriptions": sorted(self._subscriptions()) if self.topics else [],
                "counters": dict(self.counters)}
