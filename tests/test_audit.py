"""The audit log: JSON lines in order, durable writes kept in the trail, reads bounded per peer,
rotation of audit.jsonl, torn lines closed off, and a batch that is all or nothing."""

from __future__ import annotations

import asyncio
import json
import math
import os
import time
from pathlib import Path
from typing import Any

import pytest

from hermesd.audit import AuditLog, AuditUnavailable
from hermesd.audit_records import Budgets
from tests.support.until import until


async def _with_writer(log: AuditLog) -> asyncio.Task[None]:
    log.open()
    return asyncio.create_task(log.run())


async def _stop(task: asyncio.Task[None]) -> None:
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in path.read_text().splitlines() if x.strip()]


def _trail(directory: Path) -> list[dict[str, Any]]:
    return [r for p in sorted(directory.glob("audit-trail-*.jsonl")) for r in _lines(p)]


def _read(trace: str, uid: int = 1000, point: str = "boiler3_temp",
          status: str = "ok") -> dict[str, Any]:
    return {"trace_id": trace, "phase": "done", "source": "control", "who": f"uid {uid}",
            "uid": uid, "action": {"name": "read", "args": {"point": point}}, "status": status}


def _write(trace: str, phase: str, status: str | None = None) -> dict[str, Any]:
    record: dict[str, Any] = {"trace_id": trace, "phase": phase, "source": "control",
                              "who": "uid 0", "uid": 0,
                              "action": {"name": "write", "args": {"point": "fan", "value": 1}}}
    if status is not None:
        record["status"] = status
    return record


async def test_records_are_json_lines_in_order(tmp_path: Path) -> None:
    log = AuditLog(tmp_path / "audit.jsonl")
    task = await _with_writer(log)
    for i in range(50):
        log.append({"trace_id": f"t{i}", "action": {"name": "read"}})
    await log.append_durable({"trace_id": "last"})
    await _stop(task)
    log.close()
    lines = _lines(tmp_path / "audit.jsonl")
    assert [r["trace_id"] for r in lines] == [f"t{i}" for i in range(50)] + ["last"]
    assert all(r["ts"].endswith("Z") for r in lines)
    assert [r["seq"] for r in lines] == list(range(1, 52))


async def test_writes_go_to_the_trail_and_reads_do_not(tmp_path: Path) -> None:
    log = AuditLog(tmp_path / "audit.jsonl")
    task = await _with_writer(log)
    log.append(_read("r1"))
    await log.append_durable(_write("w1", "intent"))
    log.append(_write("w1", "done", "error"))  # an outcome after an intent: kept, whatever it is
    log.append(_write("w2", "done", "forbidden"))  # refused before any intent: an attempt
    log.append({**_read("r2"), "status": "dry_run"})
    await log.append_durable({"trace_id": "marker"})
    await _stop(task)
    log.close()
    assert [r["trace_id"] for r in _trail(tmp_path)] == ["w1", "w1", "w2", "marker"]
    assert [r["trace_id"] for r in _lines(tmp_path / "audit.jsonl")] == \
        ["r1", "w1", "w1", "w2", "r2", "marker"]
    assert log.status()["trail"]["records"] == 4


async def test_audit_jsonl_rotates_by_size_and_the_trail_keeps_every_write(
        tmp_path: Path) -> None:
    log = AuditLog(tmp_path / "audit.jsonl", max_bytes=2000, keep=3)
    task = await _with_writer(log)
    for i in range(200):
        await log.append_durable({"trace_id": f"{i:04d}", "pad": "x" * 50})
    await _stop(task)
    log.close()
    names = sorted(p.name for p in tmp_path.glob("audit.jsonl*"))
    assert names == ["audit.jsonl", "audit.jsonl.1", "audit.jsonl.2", "audit.jsonl.3"]
    newest = (tmp_path / "audit.jsonl.1").read_text().splitlines()[-1]
    assert json.loads(newest)["trace_id"] <= "0199"
    assert [r["trace_id"] for r in _trail(tmp_path)] == [f"{i:04d}" for i in range(200)]


async def test_reads_past_a_peers_budget_are_counted_not_written(tmp_path: Path) -> None:
    budgets = Budgets(window=3600, read=5, read_failed=3)
    log = AuditLog(tmp_path / "audit.jsonl", budgets=budgets)
    task = await _with_writer(log)
    for i in range(40):  # a viewer reading unknown, long point ids
        log.append(_read(f"bad{i}", uid=65534, point=f"{i}" + "x" * 2000, status="rejected"))
    for i in range(10):  # meanwhile an operator's ordinary reads
        log.append(_read(f"op{i}", uid=1000))
    await log.append_durable({"trace_id": "marker"})
    await _stop(task)  # stopping writes the aggregates still open
    log.close()
    records = _lines(tmp_path / "audit.jsonl")
    viewer = [r for r in records if r.get("uid") == 65534]
    singles = [r for r in viewer if r["phase"] == "done"]
    [aggregate] = [r for r in viewer if r["phase"] == "aggregate"]
    assert len(singles) == 3 and aggregate["count"] == 37  # nothing lost without a count
    assert aggregate["by"] == {"read rejected": 37}
    assert aggregate["kind"] == "read_failed" and aggregate["who"] == "uid 65534"
    assert all(len(s) < 100 for s in aggregate["samples"]) and len(aggregate["samples"]) == 5
    assert all(r.get("truncated") and len(r["action"]["args"]["point"]) < 300 for r in singles)
    operator = [r for r in records if r.get("uid") == 1000]
    assert len([r for r in operator if r["phase"] == "done"]) == 5
    assert [r["count"] for r in operator if r["phase"] == "aggregate"] == [5]
    assert log.status()["counted"] == 42
    assert [r["trace_id"] for r in _trail(tmp_path)] == ["marker"]  # reads never go there


async def test_an_aggregate_is_written_when_its_window_ends(tmp_path: Path) -> None:
    log = AuditLog(tmp_path / "audit.jsonl", budgets=Budgets(window=0.3, read=1))
    task = await _with_writer(log)
    for i in range(4):
        log.append(_read(f"r{i}"))

    def aggregates() -> list[dict[str, Any]]:
        return [r for r in _lines(tmp_path / "audit.jsonl") if r["phase"] == "aggregate"]

    # no further record arrives: the window's end alone must bring it out
    aggregate = (await until(aggregates, 10, "the aggregate record"))[0]
    assert aggregate["count"] == 3
    await _stop(task)
    log.close()


async def test_odd_records_are_written_escaped_and_the_writer_lives(tmp_path: Path) -> None:
    class Odd:
        def __repr__(self) -> str:
            raise RuntimeError("no repr either")

    cycle: dict[str, Any] = {}
    cycle["self"] = cycle
    deep: Any = []
    for _ in range(5000):
        deep = [deep]
    odd = [{"trace_id": "surrogate", "action": {"name": "read", "args": {"point": "a\udcffb"}}},
           {"trace_id": "nan", "value": math.nan, "inf": -math.inf},
           {"trace_id": "big", "value": 10 ** 5000},
           {"trace_id": "object", "value": Odd(), 3: "int key", (1, 2): "tuple key"},
           {"trace_id": "cycle", "value": cycle},
           {"trace_id": "deep", "value": deep},
           "not even a mapping"]
    log = AuditLog(tmp_path / "audit.jsonl")
    task = await _with_writer(log)
    for record in odd:
        log.append(record)  # type: ignore[arg-type]
    await log.append_durable({"trace_id": "after", "note": "caf\u00e9"})
    assert not task.done()
    await _stop(task)
    log.close()
    raw = (tmp_path / "audit.jsonl").read_bytes()
    raw.decode("utf-8")  # strict UTF-8, every line
    lines = [json.loads(x, parse_constant=pytest.fail) for x in raw.splitlines()]
    by_trace = {r.get("trace_id"): r for r in lines}
    assert by_trace["surrogate"]["action"]["args"]["point"] == "a\\udcffb"
    assert by_trace["surrogate"]["escaped"] is True
    assert by_trace["nan"]["value"] == "nan" and by_trace["nan"]["inf"] == "-inf"
    assert by_trace["big"]["value"].startswith("<int of")
    assert by_trace["object"]["value"].startswith("<Odd>")
    assert "cycle" in by_trace and "deep" in by_trace
    assert any(r.get("record") == "not even a mapping" for r in lines)
    assert by_trace["after"] == {**by_trace["after"], "note": "caf\u00e9"}
    assert "escaped" not in by_trace["after"]
    assert log.status()["escaped"] == 4  # the cycle and the deep nesting were cut, not escaped


async def test_torn_last_line_is_closed_off(tmp_path: Path) -> None:
    path = tmp_path / "audit.jsonl"
    path.write_text('{"trace_id": "ok"}\n{"trace_id": "torn', encoding="utf-8")
    log = AuditLog(path)
    task = await _with_writer(log)
    await log.append_durable({"trace_id": "after"})
    await _stop(task)
    log.close()
    lines = path.read_text().splitlines()
    assert lines[1] == '{"trace_id": "torn'
    assert json.loads(lines[2])["trace_id"] == "after"


@pytest.mark.parametrize("planted", ["audit.jsonl", "trail"])
async def test_a_link_in_place_of_a_log_refuses_writes_and_is_not_followed(
        tmp_path: Path, planted: str) -> None:
    target = tmp_path / "elsewhere"
    target.write_text("precious\n")
    log = AuditLog(tmp_path / "audit.jsonl")
    name = "audit.jsonl" if planted == "audit.jsonl" else log.trail.path_for(time.time()).name
    os.symlink(target, tmp_path / name)
    task = await _with_writer(log)
    assert log.failing is not None and "symbolic link" in log.failing
    with pytest.raises(AuditUnavailable, match="symbolic link"):
        await log.append_durable(_write("w", "intent"))
    log.append(_read("r"))  # reads go on
    assert not task.done()
    (tmp_path / name).unlink()  # the link removed: the next write is recorded again
    await log.append_durable(_write("w2", "intent"))
    assert log.failing is None
    await _stop(task)
    log.close()
    assert target.read_text() == "precious\n"


def test_a_batch_cut_short_by_a_full_disk_leaves_no_half_record(tmp_path: Path) -> None:
    """A file size limit (RLIMIT_FSIZE) stands in for a full disk: the write stops midway.
    Writes are refused while reads go on, and the writer lives on."""
    import resource
    import signal
    import subprocess
    import sys

    path = tmp_path / "audit.jsonl"
    script = f"""
import asyncio, resource, signal
from pathlib import Path
from hermesd.audit import AuditLog, AuditUnavailable
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # EFBIG instead of a signal
async def main():
    log = AuditLog(Path({str(path)!r}))
    log.open()
    task = asyncio.create_task(log.run())
    await log.append_durable({{"trace_id": "first"}})
    resource.setrlimit(resource.RLIMIT_FSIZE, (4096, resource.RLIM_INFINITY))
    for i in range(100):
        log.append({{"trace_id": f"r{{i}}", "pad": "x" * 100}})
    try:
        await log.append_durable({{"trace_id": "last"}})
    except AuditUnavailable as exc:
        print("refused:", exc)
    print("failing:", log.failing is not None)
    log.append({{"trace_id": "read"}})  # reads go on (their record is lost, loudly)
    await asyncio.sleep(0)
    print("writer alive:", not task.done())
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
asyncio.run(main())
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60, check=False,
                          preexec_fn=lambda: signal.signal(signal.SIGXFSZ, signal.SIG_IGN))
    assert done.returncode == 0, done.stderr
    assert "refused: audit log cannot be written" in done.stdout
    assert "failing: True" in done.stdout and "writer alive: True" in done.stdout
    records = [json.loads(line) for line in path.read_text().splitlines()]  # whole lines only
    # the batch that did not fit is gone whole; what stopping still wrote is a small aggregate
    assert [r["trace_id"] for r in records if r.get("phase") != "aggregate"] == ["first"]
    assert resource.getrlimit(resource.RLIMIT_FSIZE)[0] == resource.RLIM_INFINITY  # ours untouched


def _with_an_outcome_on_a_full_disk(tmp_path: Path, then: str) -> Any:
    """Run, in a process of its own: a write's intent reaches the trail, then the disk is full
    (RLIMIT_FSIZE stands in for it) when its outcome comes; then the lines `then` (at the
    indent of `main`), with the log in `log` and its writer in `task`."""
    import signal
    import subprocess
    import sys
    import textwrap

    script = f"""
import asyncio, logging, resource
from pathlib import Path
from hermesd.audit import AuditLog, AuditUnavailable
logging.basicConfig(level=logging.INFO, format="%(levelname)s %(message)s")
async def main():
    log = AuditLog(Path({str(tmp_path / "audit.jsonl")!r}), flush_delay=0.01)
    log.open()
    task = asyncio.create_task(log.run())
    await log.append_durable({{"trace_id": "w1", "phase": "intent"}})
    full = max(p.stat().st_size for p in Path({str(tmp_path)!r}).iterdir())
    resource.setrlimit(resource.RLIMIT_FSIZE, (full + 64, resource.RLIM_INFINITY))
    log.append({{"trace_id": "w1", "phase": "done", "status": "ok", "pad": "x" * 4096}})
    while log.failing is None:  # the outcome's batch met the "full disk"
        await asyncio.sleep(0.01)
{textwrap.indent(textwrap.dedent(then), "    ")}
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    log.close()
asyncio.run(main())
"""
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60, check=False,
                          preexec_fn=lambda: signal.signal(signal.SIGXFSZ, signal.SIG_IGN))


def test_a_write_outcome_a_full_disk_refused_is_written_once_there_is_room(
        tmp_path: Path) -> None:
    """A write's intent reached the trail, the PLC took the write, and its outcome met a full
    disk: the batch was dropped, and the trail held an intent with no outcome (review atk20s,
    #4). The outcome is held and written when the disk has room again, before what follows."""
    path = tmp_path / "audit.jsonl"
    done = _with_an_outcome_on_a_full_disk(tmp_path, """
        try:
            await log.append_durable({"trace_id": "w2", "phase": "intent"})
        except AuditUnavailable:
            print("w2 refused while full")
        resource.setrlimit(resource.RLIMIT_FSIZE,
                           (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
        await log.append_durable({"trace_id": "w3", "phase": "intent"})
        """)
    assert done.returncode == 0, done.stderr
    assert "w2 refused while full" in done.stdout
    trail = [(r["trace_id"], r["phase"]) for r in _trail(tmp_path)
             if r.get("phase") != "aggregate"]
    assert trail == [("w1", "intent"), ("w1", "done"), ("w3", "intent")]
    activity = [(r["trace_id"], r["phase"]) for r in _lines(path)
                if r.get("phase") != "aggregate"]
    assert activity.count(("w1", "done")) == 1


def test_write_outcomes_held_when_hermesd_stops_are_logged_not_lost(tmp_path: Path) -> None:
    """hermesd stops (systemctl stop, a restart) while the disk is still full: the outcomes
    it held had been dropped without a word (review atk24s, #5). They are logged, each as its
    record, where the journal keeps them."""
    done = _with_an_outcome_on_a_full_disk(tmp_path, "pass  # stopping, still full")
    assert done.returncode == 0, done.stderr
    assert "1 write outcome(s) it holds are logged here instead" in done.stderr, done.stderr
    logged = [line for line in done.stderr.splitlines()
              if line.startswith("ERROR audit outcome not written: ")]
    assert len(logged) == 1, done.stderr
    record = json.loads(logged[0].removeprefix("ERROR audit outcome not written: "))
    assert (record["trace_id"], record["phase"], record["status"]) == ("w1", "done", "ok")
