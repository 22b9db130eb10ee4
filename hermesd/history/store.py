"""The history store: one SQLite file in WAL mode on the state disk.

Why SQLite: it ships with Python, a WAL commit is atomic and durable with `synchronous=FULL`
(a power cut loses at most the batch being written, never corrupts what was committed), and
readers do not block the writer. The tables written every batch are keyed by time first, so a
batch appends to the end of each B-tree and touches few pages (an SD card wears by the pages
written, not by the rows); a point's minutes are found by seeking (minute, point). Hour rows,
written once an hour, are keyed (point, hour): a month of a point is one short range.

Tables: `raw` (the samples of one point in one minute, written by one batch, as zlib'd JSON),
`m1`/`h1` (minute and hour rollups, see series.py), `gaps` (when a point had no good value,
and why; point 0 is every point: hermesd was not running), `alarms` (every alarm raised, with
its times), `meta` (the last time hermesd was known running, `seen`, and the time of the last
batch of a run that stopped cleanly, `stopped`: when they differ, the last run crashed, see
mend.py). Nothing here follows a link: the file must be a plain file of ours
(hermesd/core/statefiles.py). Blocking: call from a thread.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import threading
import zlib
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from hermesd.core.statefiles import open_state
from hermesd.history.recorder import MINUTE, Batch
from hermesd.history.series import NOT_RUNNING, Gap, Rollup

log = logging.getLogger(__name__)

SCHEMA_VERSION = 1
#: small pages: a batch rewrites the last page of each table it appends to, so the bytes a
#: batch costs the disk grow with the page size (dev plant, 1 batch a minute, measured with
#: scripts/bench/history.py: 42 KiB/min with 4 KiB pages, 21 with 1 KiB, 18 with 512 B)
PAGE_SIZE = 1024
ALL = 0  # the point id of a gap of every point
_ROLLUP_COLUMNS = "first, last, min, max, integral, good, changes, last_change"
_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS points (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS raw (minute INTEGER NOT NULL, point INTEGER NOT NULL,
    seq INTEGER NOT NULL, data BLOB NOT NULL);
CREATE UNIQUE INDEX IF NOT EXISTS raw_at ON raw (minute, point, seq);
CREATE TABLE IF NOT EXISTS m1 (minute INTEGER, point INTEGER, {_ROLLUP_COLUMNS},
    PRIMARY KEY (minute, point)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS h1 (point INTEGER, hour INTEGER, {_ROLLUP_COLUMNS},
    PRIMARY KEY (point, hour)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS gaps (point INTEGER, start REAL, "end" REAL, reason TEXT NOT NULL,
    PRIMARY KEY (point, start)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS alarms (seq INTEGER PRIMARY KEY, alarm TEXT NOT NULL,
    point TEXT, kind TEXT NOT NULL, message TEXT NOT NULL, value, raised REAL NOT NULL,
    cleared REAL, acked REAL, acked_by TEXT);
CREATE INDEX IF NOT EXISTS alarms_by_name ON alarms (alarm, raised);
"""

_KEY = {"raw": "minute", "m1": "minute", "h1": "hour"}
# the rollups of a point at consecutive starts: a recursive list of the starts joined by
# primary key, one seek per row, not a scan of every point's rows in the range
_ROLLUPS_AT = {
    "m1": f"WITH RECURSIVE k(t) AS (SELECT ? UNION ALL SELECT t + {MINUTE} FROM k "  # noqa: S608
          f"WHERE t + {MINUTE} <= ?) SELECT m1.minute, {_ROLLUP_COLUMNS} FROM k "
          "JOIN m1 ON m1.minute = k.t AND m1.point = ?",
    # hour rows are keyed by point first (written once an hour: a page per point is cheap),
    # so a month of one point is one short range
    "h1": f"SELECT hour, {_ROLLUP_COLUMNS} FROM h1 "  # noqa: S608
          "WHERE hour >= ?1 AND hour <= ?2 AND point = ?3",
}
_SPAN = {t: f"SELECT min({k}), max({k}) FROM {t}" for t, k in _KEY.items()}  # noqa: S608
_CUT = {t: f"DELETE FROM {t} WHERE {k} < ?" for t, k in _KEY.items()}  # noqa: S608


class StoreError(Exception):
    """The store cannot be opened or written (disk full, read-only, not ours, corrupt)."""


class Store:
    def __init__(self, path: Path, *, cache_kib: int = 1024) -> None:
        self.path = path
        self._cache_kib = cache_kib
        self._lock = threading.Lock()  # one statement sequence at a time on each connection
        self._db: sqlite3.Connection | None = None
        self._reader: sqlite3.Connection | None = None
        self._ids: dict[str, int] = {}

    # -- opening -------------------------------------------------------------------------

    def open(self) -> float | None:
        """Open (or create) the store; returns when hermesd was last known running (None: a
        new store). Raises StoreError when it cannot be used."""
        try:
            os.close(open_state(self.path, os.O_RDWR | os.O_CREAT))  # a plain file of ours
            db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False,
                                 timeout=5.0)
            # the page size takes only on a new file, before its first table; no auto-vacuum:
            # its pointer-map pages would be rewritten by every batch (pages freed by
            # retention are reused, so the file stops growing at its budget)
            db.execute(f"PRAGMA page_size = {PAGE_SIZE}")
            db.executescript(_SCHEMA)
            mode = db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if mode != "wal":
                raise StoreError(f"{self.path}: cannot use write-ahead logging ({mode})")
            db.execute("PRAGMA synchronous = FULL")
            db.execute(f"PRAGMA cache_size = -{self._cache_kib}")
            db.execute("PRAGMA journal_size_limit = 4194304")
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version not in (0, SCHEMA_VERSION):
                raise StoreError(f"{self.path}: store version {version}, this hermesd knows "
                                 f"{SCHEMA_VERSION}")
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            self._ids = dict(db.execute("SELECT name, id FROM points"))
            row = db.execute("SELECT value FROM meta WHERE key = 'seen'").fetchone()
            # a store no hermesd that marks its clean stops has written yet: its last run is
            # taken as stopped cleanly (what it left is as it would be without the mark)
            db.execute("INSERT OR IGNORE INTO meta VALUES ('stopped', ?)",
                       (row[0] if row is not None else 0.0,))
            reader = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True,
                                     check_same_thread=False, isolation_level=None)
            reader.execute(f"PRAGMA cache_size = -{self._cache_kib}")
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: {exc}") from None
        except OSError as exc:
            raise StoreError(f"{self.path}: {exc.strerror or exc}") from None
        self._db, self._reader = db, reader
        return None if row is None else float(row[0])

    def close(self) -> None:
        for conn in {id(c): c for c in (self._reader, self._db)}.values():
            if conn is not None:
                try:
                    conn.close()
                except sqlite3.Error as exc:
                    log.warning("closing the history store: %s", exc)
        self._db = self._reader = None

    @property
    def is_open(self) -> bool:
        return self._db is not None

    # -- writing ---------------------------------------------------------------------------

    def write(self, batches: Sequence[Batch], extra: Iterable[tuple[str, Sequence[Any]]] = ()
              ) -> None:
        """Write batches (and extra statements: alarms) in one transaction: all or nothing."""
        db = self._need()
        with self._lock:
            try:
                db.execute("BEGIN IMMEDIATE")
                for batch in batches:
                    self._write_batch(db, batch)
                for sql, args in extra:
                    db.execute(sql, args)
                if batches:
                    db.execute("INSERT OR REPLACE INTO meta VALUES ('seen', ?)",
                               (batches[-1].taken,))
                finals = [b.taken for b in batches if b.final]
                if finals:  # a run's last batch: nothing of it is left to rebuild
                    db.execute("INSERT OR REPLACE INTO meta VALUES ('stopped', ?)",
                               (finals[-1],))
                db.execute("COMMIT")
            except sqlite3.Error as exc:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                self._ids = dict(db.execute("SELECT name, id FROM points"))
                raise StoreError(str(exc)) from None

    def _id(self, db: sqlite3.Connection, name: str) -> int:
        pid = self._ids.get(name)
        if pid is None:
            pid = int(db.execute("INSERT INTO points (name) VALUES (?) RETURNING id",
                                 (name,)).fetchone()[0])
            self._ids[name] = pid
        return pid

    def _write_batch(self, db: sqlite3.Connection, batch: Batch) -> None:
        seq = round(batch.taken * 1000)  # the same batch written twice is the same rows
        rows = []
        for name, samples in batch.samples.items():
            pid = self._id(db, name)
            by_minute: dict[int, list[list[Any]]] = {}
            for t, v in samples:
                minute = int(t // MINUTE * MINUTE)
                by_minute.setdefault(minute, []).append([round((t - minute) * 1000), v])
            for minute, items in by_minute.items():
                text = json.dumps(items, separators=(",", ":"), ensure_ascii=False)
                rows.append((minute, pid, seq, zlib.compress(text.encode(), 6)))
        db.executemany("INSERT OR REPLACE INTO raw VALUES (?, ?, ?, ?)", rows)
        db.executemany("INSERT OR REPLACE INTO m1 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       [(m, self._id(db, name), *r.row()) for m, name, r in batch.minutes])
        db.executemany("INSERT OR REPLACE INTO h1 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       [(self._id(db, name), h, *r.row()) for h, name, r in batch.hours])
        db.executemany("INSERT OR IGNORE INTO gaps VALUES (?, ?, NULL, ?)",
                       [(self._gap_id(db, p), start, why) for p, start, why in batch.gaps_opened])
        db.executemany("UPDATE gaps SET \"end\" = ? WHERE point = ? AND start = ?",
                       [(end, self._gap_id(db, p), start) for p, start, end in batch.gaps_closed])

    def _gap_id(self, db: sqlite3.Connection, name: str) -> int:
        return ALL if name == "*" else self._id(db, name)

    def record_stop(self, since: float, until: float) -> None:
        """hermesd was not running from `since` to `until`: a gap of every point; gaps left
        open by a stop that did not close them end where the record ends."""
        db = self._need()
        with self._lock:
            try:
                db.execute("BEGIN IMMEDIATE")
                db.execute("UPDATE gaps SET \"end\" = ? WHERE \"end\" IS NULL", (since,))
                if until > since:
                    db.execute("INSERT OR REPLACE INTO gaps VALUES (?, ?, ?, ?)",
                               (ALL, since, until, NOT_RUNNING))
                db.execute("COMMIT")
            except sqlite3.Error as exc:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise StoreError(str(exc)) from None

    # -- reading -------------------------------------------------------------------------

    def point_id(self, name: str) -> int | None:
        return self._ids.get(name)

    def rollups(self, table: str, name: str, starts: Sequence[int]) -> dict[int, Rollup]:
        """The rollup rows (`m1` or `h1`) of a point at these minute/hour starts."""
        pid = self._ids.get(name)
        if pid is None or not starts:
            return {}
        rows = self._read(_ROLLUPS_AT[table], (starts[0], starts[-1], pid))
        return {int(row[0]): Rollup.of_row(row[1:]) for row in rows}

    def minutes(self, start: int, end: int) -> dict[str, list[tuple[int, Rollup]]]:
        """Every point's minute rows from `start` to `end` (both included), by name."""
        names = {pid: name for name, pid in self._ids.items()}
        out: dict[str, list[tuple[int, Rollup]]] = {}
        for row in self._read(f"SELECT minute, point, {_ROLLUP_COLUMNS} FROM m1 "  # noqa: S608
                              "WHERE minute >= ? AND minute <= ?", (start, end)):
            name = names.get(int(row[1]))
            if name is not None:
                out.setdefault(name, []).append((int(row[0]), Rollup.of_row(row[2:])))
        return out

    def minutes_of(self, names: Sequence[str], start: int, end: int
                   ) -> dict[str, list[tuple[int, Rollup]]]:
        """These points' minute rows from `start` to `end` (both included), by name, read on
        a connection of its own: a reload asks from the event loop, while the store's reader
        may be answering a query in its thread."""
        ids = {self._ids[name]: name for name in names if name in self._ids}
        if not ids or self._reader is None:
            return {}
        marks = ", ".join("?" * len(ids))
        try:
            conn = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, isolation_level=None)
            try:
                found = conn.execute(f"SELECT minute, point, {_ROLLUP_COLUMNS} FROM m1 "  # noqa: S608
                                     f"WHERE minute >= ? AND minute <= ? AND point IN ({marks})",
                                     (start, end, *ids)).fetchall()
            finally:
                conn.close()
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: {exc}") from None
        out: dict[str, list[tuple[int, Rollup]]] = {}
        for row in found:
            out.setdefault(ids[int(row[1])], []).append((int(row[0]), Rollup.of_row(row[2:])))
        return out

    def names(self) -> list[str]:
        """Every point ever recorded (a removed one too: its rows stay)."""
        return list(self._ids)

    def stopped(self) -> float | None:
        """The time of the last batch of the last run that stopped cleanly (None: none is
        known). If it is not the last time hermesd was seen, the run that wrote the last batch
        crashed."""
        rows = self._read("SELECT value FROM meta WHERE key = 'stopped'", ())
        return float(rows[0][0]) if rows else None

    def began(self, by: float) -> float | None:
        """When the last run that began by `by` began (the end of the last gap between runs;
        None: no run before it)."""
        rows = self._read("SELECT max(\"end\") FROM gaps WHERE point = ? AND reason = ? "
                          "AND \"end\" <= ?", (ALL, NOT_RUNNING, by))
        return None if rows[0][0] is None else float(rows[0][0])

    def samples(self, name: str, minute: int) -> list[tuple[float, Any]]:
        pid = self._ids.get(name)
        if pid is None:
            return []
        out: list[tuple[float, Any]] = []
        for (data,) in self._read("SELECT data FROM raw WHERE minute = ? AND point = ? "
                                  "ORDER BY seq", (minute, pid)):
            try:
                out.extend((minute + ms / 1000, v) for ms, v in json.loads(zlib.decompress(data)))
            except (zlib.error, ValueError, TypeError) as exc:
                # a block damaged on the disk (SQLite keeps no checksum of a blob's bytes): the
                # rest of the minute still answers
                log.warning("history: a damaged block of %s samples at %s is skipped: %s", name,
                            minute, exc)
        out.sort(key=lambda s: s[0])
        return out

    def gaps(self, name: str, start: float, end: float) -> list[Gap]:
        return [(a, b, why) for _, a, b, why in self.gaps_of(name, start, end)]

    def gaps_of(self, name: str, start: float, end: float) -> list[tuple[str, float, float, str]]:
        """The point's gaps and those of every point ("*", hermesd not running) in a period,
        each with whose it is: two may start at the same time."""
        pid = self._ids.get(name, -1)
        rows = self._read("SELECT point, start, coalesce(\"end\", ?), reason FROM gaps "
                          "WHERE point IN (?, ?) AND start < ? AND (\"end\" IS NULL OR \"end\" > ?)",
                          (end, pid, ALL, end, start))
        return [("*" if who == ALL else name, float(a), float(b), str(why))
                for who, a, b, why in rows]

    def _read(self, sql: str, args: Sequence[Any]) -> list[tuple[Any, ...]]:
        reader = self._reader
        if reader is None:
            raise StoreError("the history store is not open")
        try:
            return reader.execute(sql, args).fetchall()
        except sqlite3.Error as exc:
            raise StoreError(str(exc)) from None

    def query(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """A read of the store's own tables (alarms) for callers in this package."""
        return self._read(sql, args)

    # -- retention -------------------------------------------------------------------------

    def size(self) -> int:
        """Bytes in use (pages holding data; freed pages, reused by later batches, are not
        counted)."""
        rows = self._read("SELECT (SELECT page_count FROM pragma_page_count) - "
                          "(SELECT freelist_count FROM pragma_freelist_count), "
                          "(SELECT page_size FROM pragma_page_size)", ())
        pages, size = rows[0]
        return int(pages) * int(size)

    def retain(self, now: float, keep: float, max_size: int) -> int:
        """Remove what is older than `keep`, then the oldest samples, minutes and hours while
        the store is over `max_size`; returns the rows removed."""
        db = self._need()
        removed = 0
        cutoff = now - keep
        with self._lock:
            try:
                for sql in ("DELETE FROM raw WHERE minute < ?", "DELETE FROM m1 WHERE minute < ?",
                            "DELETE FROM h1 WHERE hour < ?",
                            "DELETE FROM gaps WHERE coalesce(\"end\", start) < ?",
                            "DELETE FROM alarms WHERE coalesce(cleared, raised) < ? "
                            "AND cleared IS NOT NULL"):
                    removed += db.execute(sql, (cutoff,)).rowcount
                for table in ("raw", "m1", "h1"):
                    while self._used(db) > max_size:
                        span = db.execute(_SPAN[table]).fetchone()
                        if span[0] is None or span[0] == span[1]:
                            break
                        # a tenth of what the table spans, oldest first
                        cut = span[0] + max((span[1] - span[0]) // 10, MINUTE)
                        removed += db.execute(_CUT[table], (cut,)).rowcount
            except sqlite3.Error as exc:
                raise StoreError(str(exc)) from None
        return removed

    @staticmethod
    def _used(db: sqlite3.Connection) -> int:
        pages = db.execute("PRAGMA page_count").fetchone()[0]
        free = db.execute("PRAGMA freelist_count").fetchone()[0]
        return int((pages - free) * db.execute("PRAGMA page_size").fetchone()[0])

    def _need(self) -> sqlite3.Connection:
        if self._db is None:
            raise StoreError("the history store is not open")
        return self._db
