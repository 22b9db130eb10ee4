"""The audit trail cannot be flushed away, and no record can kill its writer.

A real hermesd with a small audit.jsonl (64 KiB x 4 rotations) takes a few writes, then a
generated flood of hostile reads (long, odd, unknown point ids; lone surrogates as JSON escapes
and as raw bytes) from a peer that is not root, then ordinary reads from several users, far more
than audit.jsonl holds: every write intent and outcome is still in the trail, the daemon still
answers `status`, and every hostile read is either written or counted. Odd records fed straight
into the `AuditLog` (anything hypothesis can build, plus what JSON cannot hold) each become one
strict UTF-8 JSON line, and the writer lives on.

`HERMESD_FLOOD_READS` sets the hostile reads per generated example (default 2,000).
"""

from __future__ import annotations

import asyncio
import json
import math
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hermesd.audit import AuditLog
from tests.hostile.strategies import odd_point_ids, surrogate_texts
from tests.support.daemon import DaemonRunner, RunningDaemon, base_config, fake_device
from tests.support.peers import NOBODY, open_to_everyone, send_as

READS_PER_EXAMPLE = int(os.environ.get("HERMESD_FLOOD_READS", "2000"))
LOG_SIZE, LOG_FILES = 64 * 1024, 4


def _plant() -> dict[str, Any]:
    return base_config({"oven": fake_device({
        "oven_temp": {"name": "Oven temperature", "type": "float", "unit": "°C",
                      "params": {"value": 180.5}},
        "fan_speed": {"name": "Fan speed", "type": "int", "unit": "rpm", "writable": True,
                      "min": 0, "max": 3000, "params": {"value": 1200}},
    })}, audit={"log_size": "64K", "log_files": LOG_FILES})


def _records(paths: list[Path]) -> list[dict[str, Any]]:
    return [json.loads(line) for p in paths for line in p.read_text().splitlines() if line]


def _records_now(paths: list[Path]) -> list[dict[str, Any]]:
    """While hermesd writes: a file may rotate away under us, a batch be half-read."""
    out = []
    for p in paths:
        try:
            text = p.read_text()
        except FileNotFoundError:
            continue
        for line in text.splitlines():
            try:
                out.append(json.loads(line))
            except ValueError:
                continue
    return out


def _activity(d: RunningDaemon) -> list[dict[str, Any]]:
    return _records(sorted(d.state_dir.glob("audit.jsonl*"), reverse=True))


def _trail(d: RunningDaemon) -> list[dict[str, Any]]:
    return _records(sorted(d.state_dir.glob("audit-trail-*.jsonl")))


def _caught_up(d: RunningDaemon) -> None:
    """Everything done so far is on disk (records are written in order)."""
    marker = d.request({"op": "ask", "text": "hello"})["trace_id"]
    d.wait_until(lambda: any(r.get("trace_id") == marker
                             for r in _records_now(list(d.state_dir.glob("audit.jsonl*")))),
                 what="the audit log to catch up")


@pytest.mark.timeout(300)
def test_a_flood_of_hostile_reads_cannot_push_a_write_out_of_the_trail(
        daemon_runner: DaemonRunner) -> None:
    if os.getuid() != 0:
        pytest.skip("the hostile peer is another user: needs root to become one")
    d = daemon_runner.start(_plant())
    open_to_everyone(d.socket)
    writes = []
    for value in (100, 200, 300, 400, 500):
        answer = d.request({"op": "write", "point": "fan_speed", "value": value,
                            "role": "operator"})
        assert answer["status"] == "ok", answer
        writes.append(answer["trace_id"])

    sent = 0
    flooding = 0.0  # seconds the hostile peer spent sending and reading answers
    old_scheme_bytes = 0  # what the same reads would have put into one size-rotated log

    @settings(max_examples=int(os.environ.get("HERMESD_FLOOD_EXAMPLES", "3")))
    @given(ids=st.lists(odd_point_ids, min_size=1, max_size=40),
           bad=st.lists(surrogate_texts, min_size=1, max_size=4))
    def flood(ids: list[str], bad: list[str]) -> None:
        nonlocal sent, flooding, old_scheme_bytes
        frames = [json.dumps({"op": "read", "point": ids[i % len(ids)]}).encode() + b"\n"
                  for i in range(READS_PER_EXAMPLE)]
        summary = send_as(NOBODY, d.socket, frames)
        assert summary["answers"] == READS_PER_EXAMPLE, summary
        assert set(summary["kinds"]) <= {"rejected UNKNOWN_POINT", "rejected BAD_REQUEST",
                                         "forbidden FORBIDDEN"}, summary
        sent += READS_PER_EXAMPLE
        flooding += summary["elapsed"]
        old_scheme_bytes += sum(len(f) + 250 for f in frames)
        # lone surrogates: as a JSON escape and as the raw (invalid UTF-8) bytes, one per
        # connection, since a frame the daemon refuses closes its connection
        raw = [b'{"op": "read", "point": "' + s.encode("utf-8", "surrogatepass") + b'"}\n'
               for s in bad]
        escaped = [json.dumps({"op": "read", "point": s}).encode() + b"\n" for s in bad]
        send_as(NOBODY, d.socket, raw + escaped, each_on_its_own=True)
        assert d.status()["state"] == "running"

    flood()
    print(f"\nflood: {sent} hostile reads answered in {flooding:.1f} s "  # with pytest -s
          f"({sent / flooding:.0f}/s)")
    assert old_scheme_bytes > 3 * LOG_SIZE * (LOG_FILES + 1)  # the old log would have lost all
    _caught_up(d)
    status = d.status()["audit"]
    hostile = [r for r in _activity(d) if r.get("uid") == NOBODY and r["phase"] == "done"]
    assert 0 < len(hostile) < sent
    assert len(hostile) + status["counted"] == sent  # each hostile read written or counted
    assert status["failing"] is None

    # ordinary reads from six users, each within its budget, far more than audit.jsonl holds
    for uid in range(1000, 1006):
        frames = [b'{"op": "read", "point": "oven_temp"}\n'] * 600
        assert send_as(uid, d.socket, frames)["kinds"] == {"ok None": 600}
    _caught_up(d)
    activity = _activity(d)
    assert not any(r.get("trace_id") in writes for r in activity)  # rotated out of audit.jsonl
    trail = _trail(d)
    for trace in writes:  # ... and every write intent and outcome is still in the trail
        phases = [(r["phase"], r.get("status")) for r in trail if r.get("trace_id") == trace]
        assert phases == [("intent", None), ("done", "ok")], (trace, phases)
    assert not any(r.get("uid") == NOBODY or (r["action"] or {}).get("name") == "read"
                   for r in trail if r["phase"] != "aggregate")  # reads never reach it
    assert d.status()["state"] == "running"
    code, answer = d.ctl_json("--role", "operator", "write", "fan_speed", "600")
    assert (code, answer["status"]) == (0, "ok")  # writes are not refused: reads filled nothing
    assert d.terminate() == 0
    aggregates = [r for r in _activity(d) if r["phase"] == "aggregate" and r.get("uid") == NOBODY]
    assert sum(r["count"] for r in aggregates) == status["counted"]
    assert all(len(s) <= 80 for r in aggregates for s in r["samples"])


# -- odd records straight into the writer ---------------------------------------------------

odd_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(),
              surrogate_texts, st.binary(max_size=8), st.integers().map(lambda n: n ** 40),
              st.sampled_from([math.nan, math.inf, -math.inf, object(), Path("/x"),
                               frozenset({1})])),
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.one_of(st.text(max_size=5), surrogate_texts,
                                                      st.integers()), inner, max_size=4),
                            st.tuples(inner)),
    max_leaves=12)


@given(records=st.lists(st.one_of(
    st.dictionaries(st.sampled_from(["trace_id", "phase", "who", "uid", "action", "value",
                                     "status", "source"]), odd_values, max_size=6),
    odd_values), min_size=1, max_size=12))
def test_no_record_can_kill_the_writer_or_its_batch(tmp_path_factory: pytest.TempPathFactory,
                                                    records: list[Any]) -> None:
    directory = tmp_path_factory.mktemp("audit")

    async def run() -> None:
        log = AuditLog(directory / "audit.jsonl")
        log.open()
        task = asyncio.create_task(log.run())
        for record in records:
            log.append(record)
        await log.append_durable({"trace_id": "intent-after-odd-records", "phase": "intent"})
        assert not task.done()
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        log.close()

    asyncio.run(run())
    raw = (directory / "audit.jsonl").read_bytes()
    lines = raw.decode("utf-8").splitlines()  # strict UTF-8
    parsed = [json.loads(line, parse_constant=_no_constant) for line in lines]
    assert parsed[-1]["trace_id"] == "intent-after-odd-records"
    assert len(parsed) == len(records) + 1  # one line each: none lost, none split


def _no_constant(name: str) -> None:
    raise AssertionError(f"non-standard JSON constant {name} in the audit log")
