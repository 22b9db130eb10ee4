"""The audit log: one JSON line per record, durable writes, rotation, torn lines closed off."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from hermesd.audit import AuditLog, AuditUnavailable


async def _with_writer(log: AuditLog) -> asyncio.Task[None]:
    log.open()
    return asyncio.create_task(log.run())


async def _stop(task: asyncio.Task[None]) -> None:
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)


async def test_records_are_json_lines_in_order(tmp_path: Path) -> None:
    log = AuditLog(tmp_path / "audit.jsonl")
    task = await _with_writer(log)
    for i in range(50):
        log.append({"trace_id": f"t{i}", "action": {"name": "read"}})
    await log.append_durable({"trace_id": "last"})
    await _stop(task)
    log.close()
    lines = [json.loads(x) for x in (tmp_path / "audit.jsonl").read_text().splitlines()]
    assert [r["trace_id"] for r in lines] == [f"t{i}" for i in range(50)] + ["last"]
    assert all(r["ts"].endswith("Z") for r in lines)


async def test_rotation_keeps_n_files(tmp_path: Path) -> None:
    log = AuditLog(tmp_path / "audit.jsonl", max_bytes=2000, keep=3)
    task = await _with_writer(log)
    for i in range(200):
        await log.append_durable({"trace_id": f"{i:04d}", "pad": "x" * 50})
    await _stop(task)
    log.close()
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["audit.jsonl", "audit.jsonl.1", "audit.jsonl.2", "audit.jsonl.3"]
    newest = (tmp_path / "audit.jsonl.1").read_text().splitlines()[-1]
    assert json.loads(newest)["trace_id"] <= "0199"


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


async def test_full_disk_refuses_durable_records(tmp_path: Path) -> None:
    log = AuditLog(Path("/dev/full"))  # every write fails with ENOSPC, like a full disk
    task = asyncio.create_task(log.run())
    with pytest.raises(AuditUnavailable, match="No space left"):
        await log.append_durable({"trace_id": "x"})
    assert log.failing is not None
    log.append({"trace_id": "read"})  # reads go on (their record is lost, loudly)
    await _stop(task)
    log.close()


def test_a_batch_cut_short_by_a_full_disk_leaves_no_half_record(tmp_path: Path) -> None:
    """A file size limit (RLIMIT_FSIZE) stands in for a full disk: the write stops midway."""
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
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
asyncio.run(main())
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60, check=False,
                          preexec_fn=lambda: signal.signal(signal.SIGXFSZ, signal.SIG_IGN))
    assert done.returncode == 0, done.stderr
    assert "refused: audit log cannot be written" in done.stdout
    lines = path.read_text().splitlines()
    assert [json.loads(line)["trace_id"] for line in lines] == ["first"]  # whole records only
    assert resource.getrlimit(resource.RLIMIT_FSIZE)[0] == resource.RLIM_INFINITY  # ours untouched
