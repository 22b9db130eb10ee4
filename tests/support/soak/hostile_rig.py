"""What the hostile mix talks through, and what it records: the `hostile_inputs` process (inputs
on demand), `peer` processes (other local users), an MQTT client of its own; `HostileSent`, one
hostile input and what became of it; and `parse_answer`, the contract every answer is held to.

An answer keeps the contract when it is strict JSON with a documented status, a documented code
on every refusal and error, and no INTERNAL but the documented "writes are refused" (a state
disk that cannot take a write's audit record). Nothing here judges writes (writes.py does).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import hermes_tools.mqtt.connection  # noqa: F401  (its U+FEFF-tolerant reader: our clients too)
import paho.mqtt.client as paho
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from hermesd.core import strict_json
from hermesd.core.errors import ProtocolError
from tests.support.mosquitto import MqttClient, Received
from tests.support.soak.load import CODES, REFUSALS, STATUSES
from tests.support.soak.plant import PYTHON, Child, spawn

log = logging.getLogger("soak")

LIVE_WINDOW = 10.0  # a retained request's first answer this soon after publishing: the live run
LINE_LIMIT = 64 << 20  # a line from a helper process: a burst's answers, in hex, are long


@dataclass
class HostileSent:
    """One hostile input and what became of it."""

    n: int
    kind: str
    who: str
    sent: float  # monotonic
    sent_wall: float
    summary: str
    requests: int = 1  # requests in it (frames in a batch, reads in a burst, connections)
    answered: int = 0  # requests that got their own answer
    closed: int = 0  # requests never read: the connection was closed after a bad frame
    expects_answer: bool = True
    breaches: list[str] = field(default_factory=list)
    traces: list[str] = field(default_factory=list)
    says: tuple[str, Any] | None = None  # the one write its words or payload state
    live_trace: str | None = None  # retained: the trace id of the live run
    replays: int = 0  # retained: runs after the live one
    outcome: str | None = None  # stranger: absent/denied/refused/answered; words: the action
    answered_at: float | None = None
    detail: dict[str, Any] = field(default_factory=dict)

    @property
    def unanswered(self) -> int:
        return max(0, self.requests - self.answered - self.closed) if self.expects_answer else 0


def parse_answer(raw: bytes) -> tuple[dict[str, Any] | None, str | None]:
    """An answer line, and how it breaks the contract (None: it keeps it)."""
    try:
        obj = strict_json.loads(raw)
    except ProtocolError as exc:
        return None, f"an answer that is not strict JSON ({exc}): {raw[:80]!r}"
    if not isinstance(obj, dict):
        return None, f"an answer that is not an object: {raw[:80]!r}"
    status, error = obj.get("status"), obj.get("error")
    code = error.get("code") if isinstance(error, dict) else None
    message = str(error.get("message", "")) if isinstance(error, dict) else ""
    if status not in STATUSES:
        return obj, f"status {status!r} is not documented"
    if status in REFUSALS and code is None:
        return obj, f"a {status} answer without an error code"
    if code is not None and code not in CODES:
        return obj, f"error code {code!r} is not documented"
    if code == "INTERNAL" and not message.startswith("writes are refused"):
        return obj, f"INTERNAL for a hostile request: {message[:120]}"
    return obj, None


def action_of(answer: dict[str, Any]) -> tuple[str | None, dict[str, Any]]:
    """An answer's (or a record's) action name and args, whatever their types."""
    action = answer.get("action")
    if not isinstance(action, dict):
        return None, {}
    args = action.get("args")
    name = action.get("name")
    return (name if isinstance(name, str) else None), (args if isinstance(args, dict) else {})


# -- the processes it talks to -------------------------------------------------------------------


class Inputs:
    """The `hostile_inputs` process: one generated input of a kind, on demand."""

    def __init__(self, workdir: Path, config_path: Path, seed: int) -> None:
        self.workdir, self.config_path, self.seed = workdir, config_path, seed
        self.child: Child | None = None
        self.kinds: list[str] = []
        self._lock = asyncio.Lock()
        self._asked = itertools.count(1)

    async def start(self) -> None:
        self.child = await spawn("hostile-inputs", [
            PYTHON, "-m", "tests.support.soak.hostile_inputs", "--config", str(self.config_path),
            "--seed", str(self.seed)], self.workdir / "hostile-inputs.log",
            stdin=asyncio.subprocess.PIPE, stdout_pipe=True, line_limit=LINE_LIMIT)
        self.kinds = list((await self._line(60.0))["kinds"])

    async def _line(self, timeout: float) -> dict[str, Any]:
        assert self.child is not None and self.child.proc.stdout is not None
        async with asyncio.timeout(timeout):
            line = await self.child.proc.stdout.readline()
        if not line:
            raise RuntimeError("the hostile input generator exited (see hostile-inputs.log)")
        return dict(json.loads(line))

    async def next(self, kind: str) -> dict[str, Any]:
        """The next input of `kind`. Each answer names its question: one left unread by a
        request given up (a cancelled task) is skipped, never taken for another's."""
        assert self.child is not None and self.child.proc.stdin is not None
        asked = next(self._asked)
        async with self._lock:
            self.child.proc.stdin.write(f"{kind} {asked}\n".encode())
            await self.child.proc.stdin.drain()
            while True:
                line = await self._line(120.0)
                if line.get("asked") == asked:
                    return line

    async def stop(self) -> None:
        if self.child is not None:
            if self.child.proc.stdin is not None:
                self.child.proc.stdin.close()
            await self.child.stop(grace=5.0)


class Peer:
    """A `peer` process: jobs done as another local user, each answered by its id."""

    def __init__(self, workdir: Path, uid: int, control: Path) -> None:
        self.workdir, self.uid, self.control = workdir, uid, control
        self.child: Child | None = None
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._reader: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self.child = await spawn(f"peer-{self.uid}", [
            PYTHON, "-m", "tests.support.soak.peer", "--uid", str(self.uid),
            "--socket", str(self.control)], self.workdir / f"peer-{self.uid}.log",
            stdin=asyncio.subprocess.PIPE, stdout_pipe=True, line_limit=LINE_LIMIT)
        assert self.child.proc.stdout is not None
        async with asyncio.timeout(30):
            hello = json.loads(await self.child.proc.stdout.readline() or b"{}")
        if hello.get("uid") != self.uid:
            raise RuntimeError(f"peer for uid {self.uid} did not start: {hello}")
        self._reader = asyncio.create_task(self._read(), name=f"soak-peer-{self.uid}")

    async def _read(self) -> None:
        assert self.child is not None and self.child.proc.stdout is not None
        try:
            while line := await self.child.proc.stdout.readline():
                result = json.loads(line)
                fut = self._waiting.pop(int(result.pop("id")), None)
                if fut is not None and not fut.done():
                    fut.set_result(result)
        except (ValueError, KeyError) as exc:  # an unreadable result: the peer is no use now
            log.error("soak: peer %d said something unreadable: %s", self.uid, exc)
        finally:
            for fut in self._waiting.values():
                if not fut.done():
                    fut.set_result({"job_error": f"peer {self.uid} exited"})

    async def job(self, op: str, wait: float, **args: Any) -> dict[str, Any]:
        """Have the peer do `op` with `args`; its result, or `job_error` after `wait` seconds."""
        assert self.child is not None and self.child.proc.stdin is not None
        jid = next(self._ids)
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[jid] = fut
        self.child.proc.stdin.write(json.dumps({"id": jid, "op": op, **args}).encode() + b"\n")
        try:
            await self.child.proc.stdin.drain()
            async with asyncio.timeout(wait):
                return await fut
        except TimeoutError:
            return {"job_error": f"no word from the peer within {wait:g} s"}
        except ConnectionError as exc:
            return {"job_error": f"peer {self.uid}: {exc}"}
        finally:
            self._waiting.pop(jid, None)

    async def stop(self) -> None:
        if self.child is None:
            return
        if self.child.proc.stdin is not None:
            self.child.proc.stdin.close()
        await self.child.stop(grace=5.0)
        if self._reader is not None:
            self._reader.cancel()
            await asyncio.gather(self._reader, return_exceptions=True)


class Attacker:
    """An MQTT client publishing generated messages; answers matched by correlation data."""

    def __init__(self, port: int, base: str) -> None:
        self.base = base
        self.client = MqttClient(port, client_id=f"soak-hostile-{os.getpid()}",
                                 subscribe=("soak-hostile/#", f"{base}/response"))
        self.client.handlers.append(self._on_message)
        self.waiting: dict[bytes, HostileSent] = {}  # by correlation data
        self.by_topic: dict[str, HostileSent] = {}  # retained ones without: by response topic
        self._loop: asyncio.AbstractEventLoop | None = None

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        await asyncio.to_thread(self.client.start)

    async def stop(self) -> None:
        await asyncio.to_thread(self.client.stop)

    def _on_message(self, client: MqttClient, msg: Received) -> None:  # paho's thread
        assert self._loop is not None
        self._loop.call_soon_threadsafe(self._answer, msg)
        client.clear()  # what arrived is judged here; keep no copies

    def _answer(self, msg: Received) -> None:
        rec = self.waiting.get(msg.correlation) if msg.correlation else \
            self.by_topic.get(msg.topic)
        if rec is None:
            return
        answer, breach = parse_answer(msg.payload)
        if breach:
            rec.breaches.append(breach)
        trace = answer.get("trace_id") if answer else None
        first = rec.answered_at is None
        now = time.monotonic()
        rec.answered_at = rec.answered_at or now
        rec.answered = 1
        if isinstance(trace, str):
            rec.traces.append(trace)
        if rec.kind == "retained":
            if first and now - rec.sent <= LIVE_WINDOW:
                rec.live_trace = trace if isinstance(trace, str) else None
            elif trace != rec.live_trace:  # the same trace id again: a duplicate, not a run
                rec.replays += 1
                rec.breaches.append("a retained request ran again "
                                    f"{now - rec.sent:.0f} s after it was published")
        if answer is not None:
            name, _ = action_of(answer)
            rec.outcome = f"{answer.get('status')} {name or '-'}"

    def publish(self, rec: HostileSent, item: dict[str, Any], *, correlate: bool = True) -> None:
        """Publish with correlation data `h<n>`; or, if not `correlate`, with a response topic of
        its own instead (then hermesd cannot tell a re-delivery from a new request: it must not
        be sent one)."""
        props = Properties(PacketTypes.PUBLISH)  # type: ignore[no-untyped-call]
        response_topic = item.get("response_topic")
        if correlate:
            correlation = f"h{rec.n}".encode()
            props.CorrelationData = correlation
            self.waiting[correlation] = rec
        else:
            response_topic = f"{response_topic or 'soak-hostile'}/{rec.n}"
            self.by_topic[response_topic] = rec
        if response_topic is not None:
            props.ResponseTopic = response_topic
        if item.get("user_properties"):
            props.UserProperty = [tuple(p) for p in item["user_properties"]]
        info = self.client.client.publish(item["topic"], bytes.fromhex(item["payload"]),
                                          qos=item["qos"], retain=bool(item.get("retain")),
                                          properties=props)
        if info.rc != paho.MQTT_ERR_SUCCESS:
            rec.expects_answer = False
            rec.detail["not_sent"] = paho.error_string(info.rc)


def is_request_topic(topic: str, base: str) -> bool:
    """The topics hermesd answers on: its command topic and `B/N/<one level>/set`."""
    if topic == f"{base}/command":
        return True
    rest = topic.removeprefix(f"{base}/")
    return rest != topic and rest.endswith("/set") and rest.count("/") == 1 and rest != "/set"
