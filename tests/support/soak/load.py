"""The soak's load: a steady open-loop mix of requests, each recorded with what answered it.

Requests go where users send them: the control socket (a few long-lived connections, and now
and then a fresh one per request as `hermesctl` makes), the real `hermesctl --json` at a low
rate, and MQTT commands on `B/N/command` answered on an MQTT 5 response topic. An MQTT requester
that hears nothing re-sends the same request (same id) while it is connected, as the bridge
expects of an at-least-once requester; hermesd runs it once and answers again. A request is
*lost* only when no answer arrives by its deadline. Every answer is checked against the
contract: a documented status, and a documented error code on every refusal or error.
The load never waits for an answer before sending the next request (open loop), so a slow
daemon shows up as latency and lost requests, not as a lower offered rate.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import random
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from hermesd.control.async_client import AsyncClient
from hermesd.control.client import BadAnswer, Unreachable
from hermesd.core.errors import ErrorCode
from tests.support.mosquitto import MqttClient, Received
from tests.support.soak.plant import PYTHON

STATUSES = frozenset({"ok", "stale", "error", "forbidden", "rejected", "dry_run", "busy"})
REFUSALS = frozenset({"error", "forbidden", "rejected", "busy"})  # these must carry a code
CODES = frozenset(c.value for c in ErrorCode)
CTL_EXIT = {"ok": 0, "stale": 0, "dry_run": 10, "error": 1, "rejected": 65, "busy": 75,
            "forbidden": 77}  # hermesctl's documented exit codes (README)
CTL_UNREACHABLE = 69  # hermesctl could not reach hermesd: no answer from it at all
TIMEOUT = {"read": 5.0, "write": 5.0, "ask": 30.0, "call": 10.0}
GRACE = 15.0  # seconds past the request's own timeout before the soak calls it lost
MQTT_DEADLINE = 60.0  # an MQTT requester gives up after this long (retries included)
MQTT_RETRY = 5.0  # seconds an MQTT requester waits before sending the same request again
POOL = 4
CONNECT_WAIT = 10.0  # seconds to wait out a full connection queue (a flood) when connecting


class Lost(Exception):
    """No answer came, and why."""


class Breach(Lost):
    """What came back is not an answer (not strict JSON, or no documented status), and how: to
    a status poll as good as none; the load records it as a breach, not a loss."""


# -- one request and its answer ----------------------------------------------------------------

@dataclass
class Sent:
    n: int
    kind: str  # read | write | ask | mqtt | llm | hermesctl | probe | fault
    target: str  # the point or text
    sent: float  # monotonic
    sent_wall: float
    answered: float | None = None
    status: str | None = None
    route: str | None = None
    code: str | None = None
    point: str | None = None  # the point the answer acted on
    action: str | None = None
    result_ts: float | None = None  # wall time of the value in the answer
    lost: str | None = None  # why no answer arrived
    breach: str | None = None  # how the answer breaks the contract
    retries: int = 0
    trace_id: str | None = None  # hermesd's, from the answer: how the audit trail names it
    #: the one write it asks for, as (point, value), or a tool call as ("tool.action", None)
    intends: tuple[str, Any] | None = None

    @property
    def latency(self) -> float | None:
        return None if self.answered is None else self.answered - self.sent


def _wall(text: Any) -> float | None:
    if not isinstance(text, str):
        return None
    try:
        return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC).timestamp()
    except ValueError:
        return None


def _obj(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def judge(rec: Sent, answer: dict[str, Any]) -> None:
    """Record an answer and whether it keeps the contract."""
    rec.answered = time.monotonic()
    rec.status = answer.get("status") if isinstance(answer.get("status"), str) else None
    rec.route = answer.get("route") if isinstance(answer.get("route"), str) else None
    error = _obj(answer.get("error"))
    rec.code = error.get("code") if isinstance(error.get("code"), str) else None
    action = _obj(answer.get("action"))
    rec.action = action.get("name")
    args = _obj(action.get("args"))
    if isinstance(args.get("point"), str):
        rec.point = args["point"]
    result = _obj(answer.get("result"))
    rec.result_ts = _wall(result.get("timestamp"))
    if isinstance(answer.get("trace_id"), str):
        rec.trace_id = answer["trace_id"]
    if rec.status not in STATUSES:
        rec.breach = f"status {answer.get('status')!r} is not a documented status"
    elif rec.status in REFUSALS and rec.code is None:
        rec.breach = f"a {rec.status} answer without an error code"
    elif rec.code is not None and rec.code not in CODES:
        rec.breach = f"error code {rec.code!r} is not documented"


# -- the control socket ------------------------------------------------------------------------

class ControlClient:
    """Requests over the control socket on a few long-lived connections (the package's
    client, each pipelined and matched by id), or on a fresh one per request as hermesctl makes."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._pool = [AsyncClient(path, timeout=CONNECT_WAIT) for _ in range(POOL)]
        self._next = itertools.cycle(self._pool)
        self._ids = itertools.count(1)

    async def request(self, obj: dict[str, Any], wait: float, *, fresh: bool = False) -> dict[str, Any]:
        """The answer; Lost if none came, Breach if what came is not an answer."""
        obj = {**obj, "id": f"s{next(self._ids)}"}
        try:
            if fresh:
                async with AsyncClient(self.path, timeout=CONNECT_WAIT) as client:
                    return await client.request(obj, wait)
            return await next(self._next).request(obj, wait)
        except Unreachable as exc:
            raise Lost(str(exc)) from None
        except BadAnswer as exc:
            raise Breach(str(exc)) from None

    async def close(self) -> None:
        for client in self._pool:
            await client.close()


async def hermesctl(socket_path: Path, args: list[str], wait: float) -> dict[str, Any]:
    """The real hermesctl, as an operator types it; its exit code is checked against its answer."""
    proc = await asyncio.create_subprocess_exec(
        PYTHON, "-m", "hermesd.ctl", "--socket", str(socket_path), "--json", *args,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        stdin=asyncio.subprocess.DEVNULL)
    try:
        async with asyncio.timeout(wait):
            out, err = await proc.communicate()
    except TimeoutError:
        proc.kill()
        await proc.wait()
        raise Lost(f"hermesctl gave no answer within {wait:g} s") from None
    lines = out.decode(errors="replace").strip().splitlines()
    if len(lines) != 1:
        raise Lost(f"hermesctl printed {len(lines)} lines (exit {proc.returncode}): "
                   f"{err.decode(errors='replace')[-300:]}")
    answer = dict(json.loads(lines[0]))
    if proc.returncode == CTL_UNREACHABLE:  # its own answer saying hermesd gave none
        error = _obj(answer.get("error"))
        raise Lost(f"hermesctl could not reach hermesd: {error.get('message')}")
    expected = CTL_EXIT.get(str(answer.get("status")))
    if expected is not None and proc.returncode != expected:
        answer["_breach"] = (f"hermesctl exited {proc.returncode} for a {answer.get('status')} "
                             f"answer (documented: {expected})")
    return answer


# -- MQTT ----------------------------------------------------------------------------------------

def _no_delay(client: Any, userdata: Any, sock: Any) -> None:
    """A requester sends small messages and waits for answers: Nagle would only delay them."""
    with contextlib.suppress(OSError, AttributeError):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class MqttRequester:
    """Commands on `B/N/command`, answered on our MQTT 5 response topic, matched by id."""

    def __init__(self, port: int, command_topic: str) -> None:
        self.command_topic = command_topic
        self.reply_topic = f"soak/{os.getpid()}/answers"
        self.client = MqttClient(port, client_id=f"soak-requester-{os.getpid()}",
                                 subscribe=(self.reply_topic,))
        self.client.handlers.append(self._on_message)
        self.client.client.on_socket_open = _no_delay
        self._waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._ids = itertools.count(1)

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        await asyncio.to_thread(self.client.start)

    async def stop(self) -> None:
        await asyncio.to_thread(self.client.stop)

    @property
    def connected(self) -> bool:
        return self.client.connected.is_set()

    def _on_message(self, client: MqttClient, msg: Received) -> None:  # paho's thread
        try:
            body = json.loads(msg.payload)
        except ValueError:
            body = {"status": None, "_breach": f"an answer that is not JSON: {msg.payload[:80]!r}"}
        rid = str(body.get("id")) if isinstance(body, dict) else ""
        assert self._loop is not None
        self._loop.call_soon_threadsafe(self._resolve, rid, body)

    def _resolve(self, rid: str, body: dict[str, Any]) -> None:
        fut = self._waiting.get(rid)
        if fut is not None and not fut.done():
            fut.set_result(body)

    def _publish(self, text: str, rid: str) -> None:
        self.client.publish(self.command_topic, json.dumps({"text": text, "id": rid}),
                            response_topic=self.reply_topic, correlation=rid.encode(), wait=False)

    async def request(self, text: str, rec: Sent | None = None,
                      deadline: float = MQTT_DEADLINE) -> dict[str, Any]:
        rid = f"m{os.getpid()}-{next(self._ids)}"
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[rid] = fut
        end = time.monotonic() + deadline
        try:
            self._publish(text, rid)
            while True:
                left = end - time.monotonic()
                if left <= 0:
                    raise Lost(f"no MQTT answer within {deadline:g} s "
                               f"({rec.retries if rec else 0} retries)")
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(min(MQTT_RETRY, left)):
                        return await asyncio.shield(fut)
                if self.connected and time.monotonic() < end:
                    self._publish(text, rid)  # the same request again: hermesd runs it once
                    if rec is not None:
                        rec.retries += 1
        finally:
            self._waiting.pop(rid, None)


# -- the mix -------------------------------------------------------------------------------------

READ_ASKS = [
    "what is the temperature of boiler 3", "how full is the feed water tank", "is pump 1 running?",
    "what does the packing scale show", "what's the outdoor temperature", "is the yard beacon on?",
    "packaging counter", "what is the boiler 3 setpoint", "show me the pressure in boiler three",
    "is there an alarm in the boiler house", "3号锅炉的温度是多少", "hello, who are you?", "thanks!",
    "what's the temperature of boiler 7",
]
#: asks meant to be beyond the rules; the soak keeps those that hermesd does send to the model
LLM_ASKS = [
    "I wonder whether the second boiler is hot at the moment", "is it chilly in the yard right now",
    "how is the number two boiler doing", "could you tell me whether the yard light is flashing",
    "is the steam valve on the second line letting steam through",
]


def _write_asks(rng: random.Random) -> tuple[str, tuple[str, Any]]:
    """A command that writes, and the one write it asks for."""
    speed, conveyor = rng.randrange(0, 1501, 10), rng.randrange(0, 61)
    return rng.choice([
        (f"set feed pump 1 to {speed} rpm", ("pump1_speed", speed)),
        (f"set the line A conveyor to {conveyor} m/min", ("conveyor_speed", conveyor)),
        ("open steam valve 2", ("valve2_open", True)), ("close valve 2", ("valve2_open", False)),
        ("turn on the warning beacon in the yard", ("warning_beacon", True)),
        ("switch the beacon off", ("warning_beacon", False)),
    ])


@dataclass(frozen=True)
class Planned:
    kind: str
    target: str  # a point, or the text of an ask or MQTT command
    payload: dict[str, Any] = field(default_factory=dict)  # a control request; none: MQTT
    intends: tuple[str, Any] | None = None  # the one write (or tool call) it asks for


class Mix:
    """What to send next: reads of every point, operator writes within range, asks, MQTT, LLM."""

    def __init__(self, config: dict[str, Any], rng: random.Random) -> None:
        self.rng = rng
        self.llm_asks: list[str] = []  # set once the model is known to answer them
        self.points = [p for dev in config["devices"].values() for p in dev.get("points", {})]
        self.writes: dict[str, Callable[[], Any]] = {
            "pump1_speed": lambda: rng.randrange(0, 1501),
            "conveyor_speed": lambda: round(rng.uniform(0, 60), 1),
            "valve2_open": lambda: rng.random() < 0.5,
            "warning_beacon": lambda: rng.random() < 0.5,
        }
        weights = {"read": 40, "write": 12, "ask": 20, "mqtt": 20, "fresh": 4}
        self.kinds = [k for k, w in weights.items() if w]
        self.weights = [weights[k] for k in self.kinds]

    def next(self) -> Planned:
        kind = self.rng.choices(self.kinds, self.weights)[0]
        if kind in ("read", "fresh"):
            point = self.rng.choice(self.points)
            return Planned(kind, point, {"op": "read", "point": point, "timeout": TIMEOUT["read"]})
        if kind == "write":
            point = self.rng.choice(list(self.writes))
            value = self.writes[point]()
            return Planned(kind, point, {"op": "write", "point": point, "value": value,
                                         "role": "operator", "timeout": TIMEOUT["write"]},
                           intends=(point, value))
        if kind == "ask":
            text, intends = self._ask(0.75)
            return Planned(kind, text, {"op": "ask", "text": text, "role": "operator"},
                           intends=intends)
        text, intends = self._ask(0.7)
        return Planned(kind, text, intends=intends)  # mqtt

    def _ask(self, reads: float) -> tuple[str, tuple[str, Any] | None]:
        if self.rng.random() < reads:
            return self.rng.choice(READ_ASKS), None
        return _write_asks(self.rng)

    def llm(self) -> Planned:
        text = self.rng.choice(self.llm_asks)
        return Planned("llm", text, {"op": "ask", "text": text, "role": "operator"})

    def ctl_args(self) -> tuple[str, list[str]]:
        point = self.rng.choice(self.points)
        if self.rng.random() < 0.5:
            return point, ["read", point]
        text = self.rng.choice(READ_ASKS)
        return text, ["ask", text]


# -- the load itself -----------------------------------------------------------------------------

class Load:
    CTL_EVERY = 5.0  # seconds between requests through the real hermesctl
    #: seconds between LLM asks: a generation takes ~0.5 s of both cores here, so the model gets
    #: a steady trickle whatever the rate (more would only measure its queue answering BUSY)
    LLM_EVERY = 4.0

    def __init__(self, control: ControlClient, mqtt: MqttRequester, mix: Mix, rate: float,
                 socket_path: Path) -> None:
        self.control = control
        self.mqtt = mqtt
        self.mix = mix
        self.rate = rate
        self.socket_path = socket_path
        self.records: list[Sent] = []
        self._counter = itertools.count(1)
        self._tasks: set[asyncio.Task[None]] = set()
        self.started: float | None = None
        self.stopped: float | None = None

    def _record(self, kind: str, target: str,
                intends: tuple[str, Any] | None = None) -> Sent:
        rec = Sent(next(self._counter), kind, target, time.monotonic(), time.time(),
                   intends=intends)
        self.records.append(rec)
        return rec

    async def send(self, planned: Planned) -> Sent:
        """Send one request and wait for its answer (or its loss); returns its record."""
        rec = self._record(planned.kind, planned.target, planned.intends)
        try:
            if not planned.payload:  # an MQTT command
                answer = await self.mqtt.request(planned.target, rec)
            else:
                op = planned.payload["op"]
                wait = float(planned.payload.get("timeout", TIMEOUT[op])) + GRACE
                answer = await self.control.request(planned.payload, wait,
                                                    fresh=planned.kind == "fresh")
        except Breach as exc:
            rec.answered = time.monotonic()
            rec.breach = str(exc)
            return rec
        except Lost as exc:
            rec.lost = str(exc)
            return rec
        judge(rec, answer)
        return rec

    async def send_ctl(self) -> None:
        target, args = self.mix.ctl_args()
        rec = self._record("hermesctl", target)
        try:
            answer = await hermesctl(self.socket_path, args, TIMEOUT["ask"] + GRACE)
        except Lost as exc:
            rec.lost = str(exc)
            return
        judge(rec, answer)
        if "_breach" in answer and rec.breach is None:
            rec.breach = str(answer["_breach"])

    def _spawn(self, coro: Any) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def run(self) -> None:
        """Send at `rate` per second until cancelled (open loop: never waits for answers)."""
        loop = asyncio.get_running_loop()
        self.started = loop.time()
        interval = 1.0 / self.rate
        next_at = loop.time()
        next_ctl = loop.time() + self.CTL_EVERY
        next_llm = loop.time() + self.LLM_EVERY
        try:
            while True:
                now = loop.time()
                if now >= next_ctl:
                    next_ctl += self.CTL_EVERY
                    self._spawn(self.send_ctl())
                if now >= next_llm:
                    next_llm += self.LLM_EVERY
                    if self.mix.llm_asks:
                        self._spawn(self.send(self.mix.llm()))
                self._spawn(self.send(self.mix.next()))
                next_at += interval
                await asyncio.sleep(max(0.0, next_at - loop.time()))
        finally:
            self.stopped = loop.time()

    @property
    def outstanding(self) -> int:
        return len(self._tasks)

    async def drain(self, timeout: float) -> None:
        """Wait for every request in flight to be answered or lost (each has its own deadline)."""
        if self._tasks:
            await asyncio.wait(set(self._tasks), timeout=timeout)
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
