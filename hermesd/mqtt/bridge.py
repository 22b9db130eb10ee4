"""The MQTT bridge: hermesd as Home Assistant and other MQTT clients see it.

A daemon component. Whenever the mqtt tool reports a (re)connect, Home Assistant says `online`,
or the config is reloaded, it announces everything: discovery configs (and empty retained
configs for entities whose points are gone), each device's availability, each point's value.
HA's `online` is paced (`births`): the first at once, a burst of them (anyone may publish one)
coalesced into at most one announcement per interval, and logged once, not once per message.
Between announcements it publishes values as they change (retained) — a point with a
`deadband` only when it has moved further than that from the value last published: smaller
changes wait for the re-send —, re-sends an unchanged (or held back) fresh value only every
`mqtt.republish` (or before a shorter HA `expire_after` runs out), and
keeps each device's availability `offline` while the device is offline, its tool is down, or
(for a polled device) all its values have gone stale; when a device is available again its
fresh values are sent at once (HA may have expired them during a long outage).

Requests from MQTT (the tool's `command` and `set` events) go through `Engine.ask` and
`Engine.write` with the role `mqtt.command_role` — the same policy, audit and answers as
`hermesctl`; each is answered on its MQTT 5 response topic, else `B/N/response`, in strict JSON
(an answer that could not be written as such is replaced by an INTERNAL error, never sent
loosely). Retained copies of requests are never run: the tool ignores them and reports each as a
`retained` event, which is only counted here.
Push-to-talk presses arrive as `talk` events from the mqtt tool: the voice loop registers
the `talk` event of the event table (and must check the tool is "mqtt"); the bridge only announces
the button when `voice.enabled`.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from typing import TYPE_CHECKING, Any, TypeGuard

from hermesd.answer import Answer, refusal
from hermesd.cache import Reading
from hermesd.config.model import Config, Point
from hermesd.context import RequestContext
from hermesd.core import strict_json
from hermesd.core.errors import Busy, ProtocolError
from hermesd.mqtt.alarm_entities import (
    alarm_announcements,
    alarm_state_topics,
    event_messages,
    state_messages,
)
from hermesd.mqtt.births import Births
from hermesd.mqtt.discovery import (
    announcements,
    attributes_payload,
    component_of,
    republish_after,
    state_payload,
    writable_over_mqtt,
)
from hermesd.mqtt.outgoing import Outgoing, Sender
from hermesd.mqtt.requests import (
    PENDING,
    Kind,
    MqttRequest,
    RecentRequests,
    answer_payload,
    malformed_value,
    payload_refusal,
    unwritable_answer,
)
from hermesd.mqtt.retained import RetainedTopics
from hermesd.mqtt.topics import Topics, topics_of
from hermesd.registry import tool_of

if TYPE_CHECKING:
    from hermesd.history.alarms import AlarmEvent
    from hermesd.services import Services

log = logging.getLogger(__name__)

TOOL = "mqtt"
TICK = 1.0  # seconds between availability checks and state refreshes
ASK_TIMEOUT = 30.0
WRITE_TIMEOUT = 5.0
PUBLISH_TIMEOUT = 10.0
MAX_INFLIGHT = 64  # MQTT requests being worked on; more are answered BUSY at once
ANSWER_EXPIRY = 600  # seconds an answer waits at the broker for an offline requester (MQTT 5)
ONLINE, OFFLINE = "online", "offline"
PEER = "mqtt"  # who every MQTT request is, to the audit log (one peer, one budget)


class MqttBridge:
    name = "mqtt"

    def __init__(self, services: Services) -> None:
        self.config = services.config
        self.engine = services.engine
        self.cache = services.cache
        self.supervisor = services.supervisor
        self.metrics = services.metrics
        self.topics: Topics | None = topics_of(self.config) if self.config.mqtt else None
        self.sender = Sender(self._publish, self._sent)
        self.retained = RetainedTopics(self.config.paths.state_dir / "mqtt-retained.json")
        self.recent = RecentRequests()
        self.births = Births()
        self.connected = False
        self.reason = "the mqtt tool has not connected yet"
        self.since = time.time()
        self.outbox = 0
        self.announcements = 0
        self.entities = 0
        self.inflight = 0
        self.counts = {"answered": 0, "refused": 0, "duplicates": 0, "busy": 0, "retained": 0}
        self._available: dict[str, bool] = {}  # device -> what was last published
        self._state_sent: dict[str, float] = {}  # point -> monotonic time of its last state
        self._published: dict[str, Any] = {}  # point -> the value of its last state
        #: point -> the quality (and stale reason) its attributes last said
        self._quality_sent: dict[str, tuple[str, str | None]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._running = False
        #: point -> seconds between re-sends of an unchanged value, and the config it is of
        self._resend_after: dict[str, float] = {}
        self._resend_for: Config | None = None
        #: monotonic time before which no point is due to be sent again (`_refresh_states`)
        self._resend_due = 0.0
        #: alarms raised, cleared, acknowledged (by the history component, when it is on)
        self.alarms = services.alarms
        self.alarms.subscribe(self._on_alarm)
        events = services.events
        events.register("connection", self._on_connection)
        events.register("command", lambda tool, data: self._on_request("command", tool, data))
        events.register("set", lambda tool, data: self._on_request("set", tool, data))
        events.register("ha_status", self._on_ha_status)
        events.register("retained", self._on_retained)
        self.cache.subscribe(self._on_reading)
        self.cache.subscribe_devices(lambda device, state: self._check_availability())

    # -- the component -----------------------------------------------------------------------------

    async def run(self) -> None:
        self.retained.load()
        self._running = True
        try:
            async with asyncio.TaskGroup() as tg:
                tg.create_task(self.sender.run(), name="mqtt-sender")
                tg.create_task(self._ticker(), name="mqtt-ticker")
        finally:
            self._running = False
            tasks = list(self._tasks)
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    async def reconfigure(self, config: Config) -> None:
        self.config = config
        self.topics = topics_of(config) if config.mqtt else None
        self._available = {d: up for d, up in self._available.items() if d in config.devices}
        self._state_sent = {p: t for p, t in self._state_sent.items() if p in config.points}
        self._published = {p: v for p, v in self._published.items() if p in config.points}
        self._quality_sent = {p: q for p, q in self._quality_sent.items() if p in config.points}
        self.announce("the config was reloaded")

    def status(self) -> dict[str, Any]:
        mqtt = self.config.mqtt
        return {
            "broker": f"{mqtt.host}:{mqtt.port}" if mqtt else None,
            "connected": self.connected, "reason": None if self.connected else self.reason,
            "since": self.since, "entities": self.entities,
            "announcements": self.announcements, "published": self.sender.sent,
            "waiting": self.sender.pending, "outbox": self.outbox,
            "requests": dict(self.counts, inflight=self.inflight),
        }

    # -- announcing ----------------------------------------------------------------------------------

    def announce(self, why: str, level: int = logging.INFO) -> None:
        """Publish everything afresh: discovery (and removals), availabilities, values."""
        topics, config = self.topics, self.config
        if topics is None or config.mqtt is None or not self.connected:
            return
        self.announcements += 1
        log.log(level, "announcing %d points to MQTT: %s", len(config.points), why)
        configs = announcements(config)
        configs.update(alarm_announcements(config))
        self.entities = len(configs)
        owned = set(configs)
        owned.update(alarm_state_topics(config, topics))
        owned.update(topics.state(p) for p in config.points)
        owned.update(topics.attributes(p) for p in config.points)
        owned.update(topics.device_availability(d) for d in config.devices)
        self.sender.discard_retained()
        # removed entities first (HA drops them), and of each its discovery config before its
        # state: HA must not take a cleared state for a last value of a live entity
        discovery = f"{config.mqtt.discovery_prefix}/"
        for topic in sorted(self.retained.plan(owned),
                            key=lambda t: (not t.startswith(discovery), t)):
            self.sender.put(Outgoing(topic, "", retain=True, durable=True))
        for topic, payload in configs.items():
            self.sender.put(Outgoing(topic, payload, retain=True))
        self._available.clear()
        self._quality_sent.clear()
        self._check_availability()
        now = time.time()
        for reading in self.cache.readings():
            judged = self.cache.judge(reading.point, now)
            if judged is not None and not judged.stale:
                self._put_state(reading)
        self._check_qualities(now)
        for message in state_messages(topics, self.alarms.states()):
            self.sender.put(message)

    def _on_alarm(self, event: AlarmEvent) -> None:
        """An alarm raised, cleared or acknowledged: its retained state and its event."""
        if self.topics is not None and self.connected:
            for message in event_messages(self.topics, event):
                self.sender.put(message)

    def _sent(self, batch: list[Outgoing]) -> None:
        cleared = [m.topic for m in batch if m.retain and not m.payload]
        if cleared:
            self.retained.cleared(cleared)

    async def _publish(self, messages: list[dict[str, Any]]) -> Any:
        ctx = RequestContext.make("internal", "internal", timeout=PUBLISH_TIMEOUT,
                                  peer="mqtt bridge")
        result = await self.engine.dispatcher.call(ctx, TOOL, "publish", {"messages": messages})
        if isinstance(result, dict):
            if isinstance(result.get("outbox"), int):
                self.outbox = result["outbox"]
            if result.get("connected") is False and self.connected:
                self._set_connected(False, "the mqtt tool lost the broker")
        return result

    # -- values and availability ---------------------------------------------------------------------

    def _on_reading(self, reading: Reading) -> None:
        point = self.config.points.get(reading.point)
        if self.connected and point is not None and not self._held_back(point, reading.value):
            self._put_state(reading, attributes=False)

    def _held_back(self, point: Point, value: Any) -> bool:
        """Whether a change stays within the point's deadband of the value last published (it
        goes out with the next re-send instead)."""
        band, last = point.deadband, self._published.get(point.id)
        if band is None or not _number(last) or not _number(value):
            return False
        return not band.exceeded(float(last), float(value))

    def _put_state(self, reading: Reading, *, attributes: bool = True) -> None:
        """A point's state; and its attributes when asked (an announcement, a periodic
        re-send, a device back) or when its quality was not good: a value that only changed
        costs one message, not two."""
        assert self.topics is not None
        point = self.config.points.get(reading.point)
        if point is None:
            return
        self.sender.put(Outgoing(self.topics.state(point.id), state_payload(point, reading.value),
                                 retain=True))
        self._state_sent[point.id] = time.monotonic()
        self._published[point.id] = reading.value
        if attributes or self._quality_sent.get(point.id) != ("good", None):
            age = max(0.0, time.time() - reading.ts)
            self._put_attributes(point.id, "good", None, age, reading.ts)

    def _put_attributes(self, pid: str, quality: str, reason: str | None, age: float | None,
                        ts: float | None) -> None:
        assert self.topics is not None
        self.sender.put(Outgoing(self.topics.attributes(pid),
                                 attributes_payload(quality, age, ts, reason), retain=True))
        self._quality_sent[pid] = (quality, reason)

    def _check_qualities(self, now: float) -> None:
        """Say in a point's attributes when its value went stale (and why), or has none: the
        value itself stays as it was, so HA shows both the last value and that it is old."""
        if self.topics is None:
            return
        cache = self.cache
        # (a good value's attributes go with its state)
        for pid in cache.not_fresh(self.config.points, now):
            judged = cache.judge(pid, now)
            if judged is None:
                wanted: tuple[str, str | None] = ("none", "no value read yet")
            elif judged.stale:
                wanted = ("stale", judged.why or None)
            else:
                continue  # (as `fresh` said: the same judgement at the same `now`)
            if self._quality_sent.get(pid) != wanted:
                self._put_attributes(pid, wanted[0], wanted[1],
                                     None if judged is None else judged.age,
                                     None if judged is None else judged.reading.ts)

    def _device_available(self, device_id: str, now: float) -> bool:
        device = self.config.devices[device_id]
        tool = self.supervisor.tools.get(tool_of(device))
        if tool is None or tool.state != "running":
            return False
        state = self.cache.device(device_id)
        if state is not None and not state.online:
            return False
        if device.poll_interval is None:
            return True  # event-fed points age one by one: HA's expire_after shows each
        # a polled device whose every value has gone stale has gone quiet (the first fresh one
        # answers: this runs every tick, for every device)
        max_ages, seen = self.engine.registry.max_ages, False
        for p in device.points:
            if max_ages.get(p) is None:
                continue
            judged = self.cache.judge(p, now)
            if judged is not None:
                if not judged.stale:
                    return True
                seen = True
        return not seen

    def _check_availability(self) -> None:
        if not self.connected or self.topics is None:
            return
        now = time.time()
        for device_id in self.config.devices:
            up = self._device_available(device_id, now)
            was = self._available.get(device_id)
            if was != up:
                self._available[device_id] = up
                self.sender.put(Outgoing(self.topics.device_availability(device_id),
                                         ONLINE if up else OFFLINE, retain=True))
                if up and was is False:
                    self._put_device_states(device_id, now)

    def _put_device_states(self, device_id: str, now: float) -> None:
        """Send a device's fresh values again: back from an outage, its HA entities may have
        expired (a value equal to the last one would not be sent as a change)."""
        for pid in self.config.devices[device_id].points:
            judged = self.cache.judge(pid, now)
            if judged is not None and not judged.stale:
                self._put_state(judged.reading)

    def _refresh_states(self) -> None:
        """Re-send unchanged fresh values every `republish`, and before HA's expire_after
        would make them unavailable; a point with a deadband every `republish` in any case
        (a change it held back goes out then)."""
        mqtt = self.config.mqtt
        if mqtt is None:
            return
        mono, now = time.monotonic(), time.time()
        if self._resend_for is not self.config:  # the config's, worked out once, not per tick
            self._resend_after = self._resend_plan()
            self._resend_for = self.config
            self._resend_due = 0.0
        if mono < self._resend_due:
            return  # none is due yet: no pass over every point on every tick
        sent_at = self._state_sent
        due = math.inf
        for pid, after in self._resend_after.items():
            if mono - sent_at.get(pid, 0.0) >= after:
                judged = self.cache.judge(pid, now)
                if judged is not None and not judged.stale:
                    self._put_state(judged.reading)
            # a state sent moves its point's next re-send later, never sooner: this is the
            # earliest any can be due (a hair early, never late, whatever the rounding)
            due = min(due, sent_at.get(pid, 0.0) + after - 1e-6)
        self._resend_due = due

    def _resend_plan(self) -> dict[str, float]:
        """Point -> seconds after which its unchanged value is sent again (the points that are
        never re-sent are left out)."""
        mqtt = self.config.mqtt
        assert mqtt is not None
        plan: dict[str, float] = {}
        for point in self.config.points.values():
            after: float | None = None
            if component_of(point, writable_over_mqtt(self.config, point)) \
                    in ("sensor", "binary_sensor"):  # the only entities that take expire_after
                after = republish_after(point, self.config.devices[point.device],
                                        mqtt.republish)
            if point.deadband is not None:
                after = min(after or mqtt.republish, mqtt.republish)
            if after is not None:
                plan[point.id] = after
        return plan

    async def _ticker(self) -> None:
        while True:
            await asyncio.sleep(TICK)
            try:
                tool = self.supervisor.tools.get(TOOL)
                if self.connected and (tool is None or tool.state != "running"):
                    self._set_connected(False, "the mqtt tool is not running")
                if self.connected:
                    self._check_availability()
                    self._refresh_states()
                    self._check_qualities(time.time())
                self._pace_births()
            except Exception:  # a bug here must not take the daemon down with it
                log.exception("the MQTT bridge's periodic check failed")

    # -- events from the mqtt tool ---------------------------------------------------------------

    def _set_connected(self, connected: bool, reason: str) -> None:
        if connected != self.connected:
            self.since = time.time()
        self.connected = connected
        self.reason = reason

    def _on_connection(self, tool: str, data: dict[str, Any]) -> None:
        _from_mqtt_tool(tool, "connection")
        connected = data.get("connected")
        if not isinstance(connected, bool):
            raise ProtocolError("connection event: connected must be true or false")
        outbox = data.get("outbox")
        self.outbox = outbox if isinstance(outbox, int) and not isinstance(outbox, bool) else 0
        self._set_connected(connected, str(data.get("reason") or "")[:200])
        if connected:
            self.announce("connected to the broker")

    def _on_ha_status(self, tool: str, data: dict[str, Any]) -> None:
        _from_mqtt_tool(tool, "ha_status")
        if data.get("online") is not True or not self.connected:
            return  # (a connect announces everything anyway)
        bursting = self.births.bursting
        if self.births.birth(time.monotonic()):
            self.announce("Home Assistant came online")
        elif not bursting:
            assert self.topics is not None
            log.info("Home Assistant came online again within %g s (or someone says so on %s): "
                     "announcing at most once every %g s until it stops", self.births.interval,
                     self.topics.ha_status, self.births.interval)

    def _pace_births(self) -> None:
        """Announce the births that waited for their interval; log the end of a burst."""
        now = time.monotonic()
        waited = self.births.due(now)
        if waited:
            self.announce(f"Home Assistant came online {waited} more time(s)", logging.DEBUG)
        over = self.births.over(now)
        if over is not None:
            log.info("Home Assistant came online %d times in %.0f s; announced %d times",
                     over.births, over.seconds, over.announcements)

    def _on_retained(self, tool: str, data: dict[str, Any]) -> None:
        """A retained request the tool ignored (and logged): counted, never run."""
        _from_mqtt_tool(tool, "retained")
        self.counts["retained"] += 1
        self.metrics.count("mqtt_retained_ignored")

    def _on_request(self, kind: Kind, tool: str, data: dict[str, Any]) -> None:
        _from_mqtt_tool(tool, kind)
        request = MqttRequest.from_event(kind, data)
        key = request.key()
        if key is not None:
            before = self.recent.get(key)
            if before is PENDING:
                self.counts["duplicates"] += 1
                log.info("MQTT request %r is already being worked on: not run twice", request.id)
                return
            if before is not None:
                self.counts["duplicates"] += 1
                log.info("MQTT request %r was answered before: answering again, not running it",
                         request.id)
                self._respond(request, {**before, "duplicate": True})
                return
        if not self._running or self.inflight >= MAX_INFLIGHT:
            self.counts["busy"] += 1
            exc = Busy("hermesd is busy with other MQTT requests; try again in a moment")
            answer = refusal(exc)
            self._respond(request, answer_payload(answer, request))
            return
        if key is not None:
            self.recent.begin(key)
        self.inflight += 1
        task = asyncio.get_running_loop().create_task(self._serve(request, key),
                                                      name=f"mqtt-{kind}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _serve(self, request: MqttRequest, key: tuple[Any, ...] | None) -> None:
        try:
            answer = await self._answer(request)
        except Exception:  # a bug: the requester still gets an answer, the daemon goes on
            log.exception("an MQTT %s failed", request.kind)
            answer = payload_refusal({"code": "INTERNAL", "message": "the request failed; see "
                                                             "hermesd's log"})
        finally:
            self.inflight -= 1
        payload = self._sendable(request, answer_payload(answer, request))
        if key is not None:
            self.recent.finish(key, payload)
        self._respond(request, payload)

    async def _answer(self, request: MqttRequest) -> Answer:
        mqtt = self.config.mqtt
        error = request.error
        if error is None and mqtt is None:
            error = {"code": "TOOL_UNAVAILABLE", "message": "MQTT is no longer configured"}
        if error is None and request.kind == "set":
            assert request.point is not None
            point = self.config.points.get(request.point)
            problem = malformed_value(point, request.value) if point is not None else None
            if problem is not None:  # the payload is bad before any policy is asked
                error = {"code": "BAD_REQUEST", "message": problem}
        if error is not None:
            self.counts["refused"] += 1
            self.metrics.count("mqtt_refused")
            return payload_refusal(error)
        assert mqtt is not None
        self.counts["answered"] += 1
        # one peer for all of MQTT: the audit log budgets records per peer, and a topic (any
        # B/N/<anything>/set) is the sender's free choice, so it must not make a new peer;
        # MQTT 5 gives no client identity we could trust either. The topic goes in `origin`.
        if request.kind == "command":
            assert request.text is not None
            ctx = RequestContext.make("mqtt", mqtt.command_role, timeout=ASK_TIMEOUT,
                                      dry_run=request.dry_run, peer=PEER, origin=request.topic)
            return await self.engine.ask(ctx, request.text)
        assert request.point is not None
        ctx = RequestContext.make("mqtt", mqtt.command_role, timeout=WRITE_TIMEOUT,
                                  dry_run=request.dry_run, peer=PEER, origin=request.topic)
        return await self.engine.write(ctx, request.point, request.value)

    @staticmethod
    def _sendable(request: MqttRequest, payload: dict[str, Any]) -> dict[str, Any]:
        """`payload` if it can be written as strict JSON, else an INTERNAL error in its place."""
        try:
            strict_json.dumps(payload)
        except ProtocolError as exc:  # a bug somewhere: say so, never send loose JSON
            log.error("an answer to an MQTT %s could not be written as JSON: %s", request.kind,
                      exc)
            return unwritable_answer(request)
        return payload

    def _respond(self, request: MqttRequest, payload: dict[str, Any]) -> None:
        if self.topics is None:
            return
        text = strict_json.dumps(self._sendable(request, payload))
        self.sender.put(Outgoing(
            request.reply_to or self.topics.response, text,
            durable=True, correlation=request.correlation, content_type="application/json",
            expiry=ANSWER_EXPIRY))


def _number(value: Any) -> TypeGuard[int | float]:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _from_mqtt_tool(tool: str, kind: str) -> None:
    """Requests are taken only from the mqtt tool, never from another tool's events."""
    if tool != TOOL:
        raise ProtocolError(f"{kind} events come only from the mqtt tool, not from {tool}")

