"""The soak's hostile mix: generated hostile inputs at a steady rate, alongside the normal load.

What it sends, and from whom (the generators are tests/hostile's, drawn by the
`hostile_inputs` process; other users are `peer` processes that dropped to their uid):

- frames (uid 65534, a viewer): batches of control frames — every op, wrong field types, odd
  ids, at most one bad frame (non-UTF-8, lone surrogates, NaN/Infinity, huge numbers, deep
  nesting) — cut anywhere; frames_dry_run (uid 60010, an operator): the same, all dry runs;
  oversize (uid 65534): one frame past the 64 KiB limit.
- reads (uid 65534): 200 pipelined reads of odd and long point ids (the audit flood), and lone
  surrogates, each on a connection of its own.
- words (uid 60010): a command saying one value some way (it may write exactly that), a hostile
  way (two values, a correction, an exponent, hex, ...: nothing), or a change by an amount.
- mqtt (an MQTT client): generated messages on the command and set topics and next to them;
  retained: a request published with the retain flag (it runs live once, and never again).
- stranger (root but not hermesd, or uid 65534): a connection to a tool's socket, sending a
  configure and a write, or junk.
- flood (uid 60011): 1,100 connections at once, a byte a second into each one held.

Meanwhile root probes the control socket with `status` on a fresh connection every half second,
and the devices' writable values (and a sentinel no one may write) are read from hermes-sim
every two seconds. Each answer is judged as it comes (hostile_rig.parse_answer and the batch
rules below); what hermesd wrote is judged at the end (writes.py). The parts played by other
users need root (setuid); without it they are skipped and the report says why.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import os
import random
import socket
import stat
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.support.soak.hostile_inputs import SENTINEL_POINT
from tests.support.soak.hostile_rig import (
    Attacker,
    HostileSent,
    Inputs,
    Peer,
    action_of,
    is_request_topic,
    parse_answer,
)
from tests.support.soak.plant import Simulator

log = logging.getLogger("soak")

NOBODY, OPERATOR_UID, FLOODER_UID = 65534, 60010, 60011
#: `access.users` of the soak's config when the mix runs: the operator peer is an operator
USERS = {str(OPERATOR_UID): "operator"}
WEIGHTS = {"frames": 20, "frames_dry_run": 8, "oversize": 2, "reads": 3, "words": 25,
           "mqtt": 25, "retained": 2, "stranger": 15}
PEER_OF = {"frames": NOBODY, "frames_dry_run": OPERATOR_UID, "oversize": NOBODY,
           "reads": NOBODY, "words": OPERATOR_UID}
ANSWER_WAIT = 60.0  # seconds for a control request's answers (an ask may wait for the model)
MQTT_WAIT = 30.0  # seconds an MQTT request's answer may take before it counts as unanswered
FLOOD, TRICKLE_EVERY, FLOOD_GIVE_UP = 1100, 1.0, 30.0
FLOOD_EVERY = 300.0  # seconds between floods in a timed run
FIRST_FLOOD = {True: 5.0, False: 60.0}  # seconds into the mix, by --short
READ_WINDOW = 32  # reads in flight on the burst's connection
PROBE_EVERY, PROBE_TIMEOUT = 0.5, 10.0
WATCH_EVERY = 2.0


@dataclass(frozen=True)
class Probe:
    """One `status` by root on a fresh connection."""

    t: float  # monotonic, when it was sent
    latency: float | None  # None: no `ok` answer
    error: str | None = None
    backlog_full: bool = False  # its connect found the listen backlog full, and waited


class HostileMix:
    def __init__(self, *, workdir: Path, config: dict[str, Any], config_path: Path,
                 control: Path, rate: float, seed: int, short: bool, broker_port: int,
                 sims: Simulator) -> None:
        self.workdir, self.config, self.control = workdir, config, control
        self.rate, self.short, self.sims = rate, short, sims
        self.rng = random.Random(f"hostile/{seed}")
        self.inputs = Inputs(workdir, config_path, seed)
        self.peers: dict[int, Peer] = {}
        self.attacker: Attacker | None = None
        mqtt = config.get("mqtt")
        self.base = f"{mqtt['base_topic']}/{config['node']['id']}" if mqtt else None
        if mqtt:
            self.attacker = Attacker(broker_port, self.base or "")
        self.records: list[HostileSent] = []
        self.probes: list[Probe] = []
        self.device_samples: list[tuple[float, str, Any]] = []
        self.skipped: dict[str, str] = {}
        self.errors: list[str] = []  # the soak's own failures while sending (none expected)
        self.kinds: dict[str, int] = {}
        self.started: float | None = None
        self.stopped: float | None = None
        self._counter = itertools.count(1)
        self._tasks: set[asyncio.Task[Any]] = set()
        # (tool, from, to) -> a fault the schedule injected acted on that tool then; set by the run
        self.tool_faulted: Callable[[str, float, float], bool] = lambda tool, t0, t1: False

    # -- bringing it up ----------------------------------------------------------------------

    async def start(self) -> None:
        await self.inputs.start()
        weights = {k: w for k, w in WEIGHTS.items() if k in self.inputs.kinds}
        why_not = self._open_control()
        if why_not is None:
            for uid in (NOBODY, OPERATOR_UID, FLOODER_UID):
                self.peers[uid] = Peer(self.workdir, uid, self.control)
                await self.peers[uid].start()
        else:
            for kind in [*PEER_OF, "flood", "stranger as another user"]:
                self.skipped[kind] = why_not
            weights = {k: w for k, w in weights.items() if k not in PEER_OF}
            log.warning("soak: hostile parts played by other users skipped: %s", why_not)
        if self.attacker is not None:
            await self.attacker.start()
        self.kinds = weights

    def _open_control(self) -> str | None:
        """Let other users reach the control socket (as its group would); why not, if not."""
        if os.geteuid() != 0:
            return "playing other local users needs root (setuid)"
        path = self.control
        path.chmod(0o666)
        for parent in path.parents:
            if parent in (Path("/"), Path("/tmp")):
                break
            if not str(parent).startswith("/tmp/"):
                mode = parent.stat().st_mode
                if not mode & stat.S_IXOTH:
                    return f"other users cannot reach {parent} (put --workdir under /tmp)"
                continue
            parent.chmod(stat.S_IMODE(parent.stat().st_mode) | stat.S_IXOTH)
        return None

    # -- the run -----------------------------------------------------------------------------

    async def run(self) -> None:
        """Send at `rate` per second until cancelled (open loop), with floods, probes, watch."""
        loop = asyncio.get_running_loop()
        self.started = loop.time()
        side = [asyncio.create_task(self._probe_loop(), name="soak-root-probe"),
                asyncio.create_task(self._watch_loop(), name="soak-device-watch")]
        if FLOODER_UID in self.peers:
            side.append(asyncio.create_task(self._flood_loop(), name="soak-flood"))
        kinds, weights = list(self.kinds), list(self.kinds.values())
        next_at = loop.time()
        try:
            while True:
                self._spawn(self._one(self.rng.choices(kinds, weights)[0]))
                next_at += 1.0 / self.rate
                await asyncio.sleep(max(0.0, next_at - loop.time()))
        finally:
            self.stopped = loop.time()
            for task in side:
                task.cancel()
            await asyncio.gather(*side, return_exceptions=True)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _record(self, kind: str, who: str, summary: str, **kw: Any) -> HostileSent:
        rec = HostileSent(next(self._counter), kind, who, time.monotonic(), time.time(),
                          summary[:160], **kw)
        self.records.append(rec)
        return rec

    async def _one(self, kind: str) -> None:
        try:
            item = await self.inputs.next(kind)
        except (RuntimeError, TimeoutError, ConnectionError) as exc:
            self.skipped.setdefault(kind, f"no input: {exc}")
            return
        try:
            await self._send(kind, item)
        except Exception as exc:  # the soak's own failure: reported, never taken for hermesd's
            log.exception("soak: hostile %s input failed in the soak itself", kind)
            self.errors.append(f"{kind}: {type(exc).__name__}: {exc}"[:300])

    async def _send(self, kind: str, item: dict[str, Any]) -> None:
        if kind in ("frames", "frames_dry_run", "oversize"):
            await self._frames(kind, item)
        elif kind == "reads":
            await self._reads(item)
        elif kind == "words":
            await self._words(item)
        elif kind in ("mqtt", "retained"):
            self._mqtt(kind, item)
        elif kind == "stranger":
            await self._stranger(item)

    # -- the control socket: batches of frames ------------------------------------------------

    async def _frames(self, kind: str, item: dict[str, Any]) -> None:
        if not item["chunks"]:
            return  # an empty batch: nothing to send
        uid = PEER_OF[kind]
        what = f"{item['requests']} frames ({', '.join(item['ops']) or 'none whole'})" + \
            (", a bad one" if item["bad"] else "")
        rec = self._record(kind, f"uid {uid}", what, requests=item["requests"])
        result = await self.peers[uid].job("send", ANSWER_WAIT + 15, path=str(self.control),
                                           chunks=item["chunks"], timeout=ANSWER_WAIT)
        judge_batch(rec, result, item["ids"], item["without_id"], item["bad"])

    async def _reads(self, item: dict[str, Any]) -> None:
        peer = self.peers[NOBODY]
        burst, alone = item["burst"], item["alone"]
        rec = self._record("reads", f"uid {NOBODY}", f"{len(burst)} reads of odd point ids (up "
                           f"to {item['longest_id']} characters), {len(alone)} surrogates alone",
                           requests=len(burst) + len(alone))
        jobs = [peer.job("send", ANSWER_WAIT + 15, path=str(self.control), chunks=burst,
                         window=READ_WINDOW, timeout=ANSWER_WAIT)]
        jobs += [peer.job("send", ANSWER_WAIT + 15, path=str(self.control),
                          chunks=[one["frame"]], timeout=ANSWER_WAIT) for one in alone]
        results = await asyncio.gather(*jobs)
        judge_batch(rec, results[0], [f"r{i}" for i in range(len(burst))], 0, False, part=True)
        for one, result in zip(alone, results[1:], strict=True):  # no id: answered without one
            judge_batch(rec, result, [], 0 if one["bad"] else 1, one["bad"], part=True)

    async def _words(self, item: dict[str, Any]) -> None:
        rec = self._record("words", f"uid {OPERATOR_UID}", item["text"], says=_says(item))
        rec.detail["form"] = item["form"]
        frame = json.dumps({"op": "ask", "text": item["text"], "id": "w"}).encode() + b"\n"
        result = await self.peers[OPERATOR_UID].job("send", ANSWER_WAIT + 15,
                                                    path=str(self.control), chunks=[frame.hex()],
                                                    timeout=ANSWER_WAIT)
        answers = judge_batch(rec, result, ["w"], 0, False)
        if answers:
            name, args = action_of(answers[0])
            rec.outcome = f"{answers[0].get('status')} {name}"
            if name == "respond":
                rec.detail["reason"] = args.get("reason")
                rec.detail["value_problem"] = args.get("value_problem")

    # -- MQTT ------------------------------------------------------------------------------------

    def _mqtt(self, kind: str, item: dict[str, Any]) -> None:
        assert self.attacker is not None and self.base is not None
        payload = bytes.fromhex(item["payload"])
        rec = self._record(kind, "mqtt", f"{item['topic'][:70]} <- {payload[:50]!r}"
                           + (" (retained)" if item.get("retain") else ""), says=_says(item),
                           expects_answer=is_request_topic(item["topic"], self.base))
        # half the retained ones without correlation data: what a re-delivery must not run
        self.attacker.publish(rec, item, correlate=kind == "mqtt" or rec.n % 2 == 0)

    # -- strangers at tool sockets ---------------------------------------------------------------

    async def _stranger(self, item: dict[str, Any]) -> None:
        sockets = sorted(p for p in self.control.parent.glob("*.sock")
                         if p.name not in ("control.sock", "metrics.sock"))
        if not sockets:
            return
        path = self.rng.choice(sockets)
        as_other = NOBODY in self.peers and self.rng.random() < 0.3
        who = f"uid {NOBODY}" if as_other else "root, not hermesd"
        rec = self._record("stranger", who, f"{path.name} <- {len(item['payload']) // 2} bytes")
        began = time.monotonic()
        if as_other:
            result = await self.peers[NOBODY].job("stranger", 30.0, path=str(path),
                                                  payload=item["payload"])
        else:
            result = await stranger_here(path, bytes.fromhex(item["payload"]))
        rec.outcome = str(result.get("outcome") or result.get("job_error"))
        rec.answered = 1 if rec.outcome in ("absent", "denied", "refused") else 0
        if rec.outcome == "answered":
            rec.breaches.append(f"a stranger at {path.name} got an answer: {result.get('got')}")
        elif rec.outcome == "held" and (_a_tool_is_stopped()
                                        or self.tool_faulted(path.stem, began, time.monotonic())):
            # a tool the fault schedule stopped, killed or made leak while the stranger waited
            # (hermesd may have killed and restarted it since): nothing could answer there
            rec.answered = 1
            rec.outcome = "held by a faulted tool"
        elif rec.outcome == "held":
            rec.breaches.append(f"a stranger at {path.name} was let in and held (no word, "
                                "not closed)")
        elif rec.outcome not in ("absent", "denied", "refused"):
            rec.breaches.append(f"stranger at {path.name}: {rec.outcome}")

    # -- floods, root's probes, the devices --------------------------------------------------------

    async def _flood_loop(self) -> None:
        await asyncio.sleep(FIRST_FLOOD[self.short])
        while True:
            await self._flood()
            if self.short:
                return
            await asyncio.sleep(FLOOD_EVERY)

    async def _flood(self) -> None:
        rec = self._record("flood", f"uid {FLOODER_UID}", f"{FLOOD} connections, a byte every "
                           f"{TRICKLE_EVERY:g} s into each one held", requests=FLOOD)
        log.info("soak: hostile: a connection flood from uid %d", FLOODER_UID)
        result = await self.peers[FLOODER_UID].job(
            "flood", FLOOD_GIVE_UP + 60, path=str(self.control), count=FLOOD,
            every=TRICKLE_EVERY, give_up=FLOOD_GIVE_UP)
        rec.detail = result
        if "job_error" in result:
            rec.breaches.append(f"flood: {result['job_error']}")
        else:
            rec.answered = sum(result["busy"].values()) + len(result["cut_after_s"])
            rec.closed = sum(result["connect_errors"].values())
            if result["others"]:
                rec.breaches.append(f"{result['others']} flood connections ended otherwise: "
                                    f"{result['other'][:2]}")
            if result["still_open"]:
                rec.breaches.append(f"{result['still_open']} flood connections still open "
                                    f"after {FLOOD_GIVE_UP:g} s")
        rec.answered_at = time.monotonic()

    async def _probe_loop(self) -> None:
        while True:
            started = time.monotonic()
            waited = [False]
            try:
                async with asyncio.timeout(PROBE_TIMEOUT):
                    sock = await _connect(self.control, waited)
                    reader, writer = await asyncio.open_unix_connection(sock=sock)
                    try:
                        writer.write(b'{"op": "status", "id": "root-probe"}\n')
                        await writer.drain()
                        line = await reader.readline()
                    finally:
                        writer.close()
                answer = json.loads(line) if line else {}
                ok = answer.get("status") == "ok"
                self.probes.append(Probe(started, time.monotonic() - started if ok else None,
                                         None if ok else f"answered {str(answer)[:120]}",
                                         waited[0]))
            except (OSError, TimeoutError, ValueError) as exc:
                self.probes.append(Probe(started, None, f"{type(exc).__name__}: {exc}",
                                         waited[0]))
            await asyncio.sleep(max(0.0, started + PROBE_EVERY - time.monotonic()))

    def watched(self) -> list[str]:
        points = [p for dev in self.config["devices"].values()
                  for p, spec in dev.get("points", {}).items()
                  if spec.get("writable") and dev.get("driver") != "exec"]
        return sorted({*points, SENTINEL_POINT})

    async def _watch_loop(self) -> None:
        points = self.watched()
        while True:
            for point in points:
                with contextlib.suppress(RuntimeError, OSError):
                    got = await self.sims.request({"op": "get", "point": point})
                    self.device_samples.append((time.monotonic() - (self.started or 0.0),
                                                point, got.get("value")))
            await asyncio.sleep(WATCH_EVERY)

    # -- taking it down ----------------------------------------------------------------------

    @property
    def outstanding(self) -> int:
        return len(self._tasks)

    async def drain(self, timeout: float) -> None:
        """Wait for answers in flight: control jobs to end, MQTT answers to arrive (or not)."""
        deadline = time.monotonic() + timeout
        if self._tasks:
            await asyncio.wait(set(self._tasks), timeout=timeout)
        mqtt_due = [r for r in self.records if r.kind in ("mqtt", "retained")
                    and r.expects_answer and not r.answered]
        while mqtt_due and time.monotonic() < min(deadline, max(r.sent for r in mqtt_due)
                                                  + MQTT_WAIT):
            await asyncio.sleep(0.2)
            mqtt_due = [r for r in mqtt_due if not r.answered]
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def stop(self) -> None:
        for peer in self.peers.values():
            await peer.stop()
        await self.inputs.stop()
        if self.attacker is not None:
            await self.attacker.stop()

    def pids(self) -> dict[str, int]:
        out = {f"peer-{uid}": p.child.pid for uid, p in self.peers.items()
               if p.child is not None and p.child.proc.returncode is None}
        if self.inputs.child is not None and self.inputs.child.proc.returncode is None:
            out["hostile-inputs"] = self.inputs.child.pid
        return out


def _says(item: dict[str, Any]) -> tuple[str, Any] | None:
    says = item.get("says")
    return (str(says[0]), says[1]) if says else None


# -- judging a connection's answers -----------------------------------------------------------------


def judge_batch(rec: HostileSent, result: dict[str, Any], ids: list[str], without_id: int,
                bad: bool, *, part: bool = False) -> list[dict[str, Any]]:
    """Hold one connection's answers to the rules: exactly one answer for every whole request
    (with its id, or none when its id was not text), and after a bad frame one BAD_REQUEST,
    said last, then the connection closed; a whole connection refused BUSY is documented too.
    Adds to `rec` (answered, closed, breaches, traces); returns the answers it could read."""
    whole = len(ids) + without_id + (1 if bad else 0)
    problem = result.get("connect_error") or result.get("job_error") or result.get("timeout")
    if problem:
        rec.breaches.append(f"{rec.kind}: {problem}")
        return []
    answers: list[dict[str, Any]] = []
    for raw in result.get("answers", []):
        answer, breach = parse_answer(bytes.fromhex(raw))
        if breach:
            rec.breaches.append(breach)
        if answer is not None:
            answers.append(answer)
            if isinstance(answer.get("trace_id"), str):
                rec.traces.append(answer["trace_id"])
    sent_here = whole if part else rec.requests
    if len(answers) == 1 and "id" not in answers[0] and answers[0].get("status") == "busy":
        rec.closed += sent_here  # the connection itself was refused, with the reason
        rec.outcome = rec.outcome or "connection refused BUSY"
        return answers
    got = Counter(a["id"] for a in answers if isinstance(a.get("id"), str))
    want = Counter(ids)
    if got != want:
        missing, extra = want - got, got - want
        rec.breaches.append(f"answers by id: {sum(missing.values())} missing "
                            f"({list(missing)[:3]}), {sum(extra.values())} extra "
                            f"({list(extra)[:3]})")
    closing = [a for a in answers if "id" not in a]
    if len(closing) != without_id + (1 if bad else 0):
        rec.breaches.append(f"{len(closing)} answers without an id; expected "
                            f"{without_id + (1 if bad else 0)}")
    if bad:
        last = answers[-1] if answers else {}
        error = last.get("error")
        code = error.get("code") if isinstance(error, dict) else None
        if "id" in last or last.get("status") != "rejected" or code != "BAD_REQUEST":
            rec.breaches.append(f"a bad frame not refused last with BAD_REQUEST: {str(last)[:160]}")
    for answer in answers:
        name, _ = action_of(answer)
        if answer.get("status") == "ok" and name and (name == "write" or "." in name) \
                and rec.kind != "words":
            rec.breaches.append(f"{rec.who} was answered ok for {name}: {str(answer)[:160]}")
    rec.answered += min(sum((got & want).values()) + min(len(closing), whole - len(ids)), whole)
    rec.closed += sent_here - whole
    return answers


async def _connect(path: Path, waited: list[bool]) -> socket.socket:
    """A connection as a patient client makes it: while the listen backlog is full (EAGAIN:
    hermesd has not accepted what came before), it waits and tries again; `waited[0]` says
    whether it had to. (hermesctl does not wait: it reports hermesd unreachable.)"""
    while True:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.setblocking(False)
        try:
            sock.connect(str(path))
        except BlockingIOError:
            sock.close()
            waited[0] = True
            await asyncio.sleep(0.005)  # the backlog is full: hermesd has not accepted yet
            continue
        except BaseException:
            sock.close()
            raise
        return sock


def _a_tool_is_stopped() -> bool:
    """Some tool process is stopped (state T: the soak's SIGSTOP fault), so a connection to its
    socket may wait in the kernel's queue unanswered: the fault, not a way in."""
    for proc_stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = proc_stat.read_text().rsplit(")", 1)[1].split()
            cmdline = (proc_stat.parent / "cmdline").read_bytes()
        except OSError:
            continue
        if fields and fields[0] == "T" and (b"hermes-tool" in cmdline
                                            or b"hermes_tools" in cmdline):
            return True
    return False


async def stranger_here(path: Path, payload: bytes) -> dict[str, Any]:
    """The soak itself (root, like hermesd, but not hermesd) at a tool's socket."""
    try:
        async with asyncio.timeout(5):
            reader, writer = await asyncio.open_unix_connection(str(path))
    except FileNotFoundError:
        return {"outcome": "absent"}
    except PermissionError:
        return {"outcome": "denied"}
    except (OSError, TimeoutError) as exc:
        return {"outcome": "absent", "why": type(exc).__name__}
    try:
        async with asyncio.timeout(5):
            if payload:
                writer.write(payload)
                await writer.drain()
            data = await reader.read(65536)
    except ConnectionError:
        data = b""
    except TimeoutError:
        return {"outcome": "held"}
    finally:
        writer.close()
        with contextlib.suppress(ConnectionError):
            await writer.wait_closed()
    return {"outcome": "answered", "got": data[:200].hex()} if data else {"outcome": "refused"}
