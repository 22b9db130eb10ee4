"""The audit log's files: audit.jsonl bounded by size, the trail kept by whole months."""

from __future__ import annotations

import calendar
import json
from pathlib import Path

from hermesd.audit_files import CLOCK_FLOOR, ActivityLog, Trail

DAY = 86400.0


def _ts(year: int, month: int, day: int = 1) -> float:
    return float(calendar.timegm((year, month, day, 0, 0, 0)))


def test_audit_jsonl_never_grows_past_its_size_and_keeps_whole_lines(tmp_path: Path) -> None:
    log = ActivityLog(tmp_path / "audit.jsonl", max_bytes=1000, keep=2)
    lines = [json.dumps({"n": i, "pad": "x" * 60}).encode() + b"\n" for i in range(100)]
    for start in range(0, 100, 30):  # batches larger than the file may be
        log.append(b"".join(lines[start:start + 30]))
    log.close()
    files = sorted(tmp_path.iterdir())
    assert [p.name for p in files] == ["audit.jsonl", "audit.jsonl.1", "audit.jsonl.2"]
    assert all(p.stat().st_size <= 1000 for p in files)
    kept = [json.loads(x)["n"] for p in reversed(files) for x in p.read_text().splitlines()]
    assert kept == list(range(100 - len(kept), 100))  # the newest, in order, none torn


def test_the_trail_has_one_file_per_month(tmp_path: Path) -> None:
    trail = Trail(tmp_path, "audit-trail", 400 * DAY)
    trail.append(b'{"a":1}\n', _ts(2026, 11, 30))
    trail.append(b'{"a":2}\n', _ts(2026, 12, 1))
    trail.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["audit-trail-2026-11.jsonl",
                                                          "audit-trail-2026-12.jsonl"]


def test_a_month_goes_only_when_it_ended_longer_ago_than_the_retention(tmp_path: Path) -> None:
    for name in ("2024-01", "2024-11", "2024-12", "2025-01", "1970-01", "2023-12"):
        (tmp_path / f"audit-trail-{name}.jsonl").write_text("{}\n")
    (tmp_path / "audit-trail-2024-13.jsonl").write_text("{}\n")  # not a month: not ours
    trail = Trail(tmp_path, "audit-trail", 30 * DAY)
    now = _ts(2025, 1, 15)  # December 2024 ended 14 days ago, November 44 days ago
    removed = trail.prune(now)
    assert sorted(p.name for p in removed) == ["audit-trail-2024-01.jsonl",
                                               "audit-trail-2024-11.jsonl"]
    left = sorted(p.name for p in tmp_path.iterdir())
    # months stamped before the clock was ever set are not judged by it
    assert left == ["audit-trail-1970-01.jsonl", "audit-trail-2023-12.jsonl",
                    "audit-trail-2024-12.jsonl", "audit-trail-2024-13.jsonl",
                    "audit-trail-2025-01.jsonl"]


def test_nothing_is_pruned_while_the_clock_is_not_set(tmp_path: Path) -> None:
    (tmp_path / "audit-trail-2024-01.jsonl").write_text("{}\n")
    trail = Trail(tmp_path, "audit-trail", DAY)
    assert trail.prune(CLOCK_FLOOR - 1) == []
    assert (tmp_path / "audit-trail-2024-01.jsonl").exists()


def test_the_open_month_is_never_pruned(tmp_path: Path) -> None:
    trail = Trail(tmp_path, "audit-trail", DAY)
    trail.append(b'{"a":1}\n', _ts(2025, 3, 31))
    assert trail.prune(_ts(2025, 6, 1)) == []  # still open: its file stays
    trail.close()


def test_records_never_go_into_a_file_deleted_or_moved_while_open(tmp_path: Path) -> None:
    """Someone deletes the trail and audit.jsonl, or moves them away, while hermesd runs: the
    next records are in files at the paths again, never in ones nobody can find."""
    log = ActivityLog(tmp_path / "audit.jsonl", max_bytes=100_000, keep=2)
    trail = Trail(tmp_path, "audit-trail", 400 * DAY)
    now = _ts(2026, 12, 4)
    log.append(b'{"n":1}\n')
    trail.append(b'{"n":1}\n', now)
    (tmp_path / "audit.jsonl").unlink()
    (tmp_path / "audit-trail-2026-12.jsonl").rename(tmp_path / "moved.jsonl")
    log.append(b'{"n":2}\n')
    trail.append(b'{"n":2}\n', now)
    log.close()
    trail.close()
    assert (tmp_path / "audit.jsonl").read_text() == '{"n":2}\n'
    assert (tmp_path / "audit-trail-2026-12.jsonl").read_text() == '{"n":2}\n'
    assert (tmp_path / "moved.jsonl").read_text() == '{"n":1}\n'
