"""History benchmark: what the plant's memory costs the state disk, and how fast it answers.

    .venv/bin/python scripts/bench/history.py plant [--minutes 5]
    .venv/bin/python scripts/bench/history.py synthetic [--points 1000] [--seconds 3600]

`plant`: the dev plant (shared/data/plant-dev.yaml) served by hermes-sim and a private
Mosquitto, hermesd run twice for the same time — history off (the baseline: the value cache
and audit log alone), then on — and the bytes hermesd made the kernel write to the state disk
(/proc/<pid>/io write_bytes, after a warm-up), per minute, with the state dir's size.

`synthetic`: N points changing every second for S seconds of simulated time, through the
recorder and the store as the daemon uses them (1 batch a minute): CPU seconds, bytes written
(write_bytes of this process), store size; against a baseline in the same run, plain SQLite
inserts of the same samples (one row each, one transaction a minute). Then 30 days of hour
rows are added for every point, and "max over the last 24 h" and "mean over 30 days" of
random points are asked, p50/p99 in ms. Medians and ratios hold on a noisy machine; absolute
figures do not.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from hermesd.history.query import Reader  # noqa: E402
from hermesd.history.recorder import EARLY_BATCH, Recorder, Track  # noqa: E402
from hermesd.history.series import Rollup  # noqa: E402
from hermesd.history.store import Store  # noqa: E402

PLANT = Path("/work/shared/data/plant-dev.yaml")


def write_bytes(pid: int | str = "self") -> int:
    for line in Path(f"/proc/{pid}/io").read_text().splitlines():
        if line.startswith("write_bytes:"):
            return int(line.split()[1])
    raise RuntimeError("no write_bytes in /proc/<pid>/io")


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def rss_kib(pid: int | str = "self") -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS in /proc/<pid>/status")


def dir_size(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


# -- the dev plant ---------------------------------------------------------------------------

def plant_config(work: Path, history: bool, broker: int) -> Path:
    from tests.support.sim import free_port

    config: dict[str, Any] = yaml.safe_load(PLANT.read_text(encoding="utf-8"))
    config["paths"] = {"state_dir": str(work / "state"), "runtime_dir": str(work / "run")}
    config["llm"]["enabled"] = False
    config["mqtt"]["port"] = broker
    config["devices"]["plc1"]["port"] = free_port()
    for dev in config["devices"].values():
        if dev["driver"] == "serial":
            dev["port"] = str(work / "scale-pty")  # the link hermes-sim makes to its pty
    if history:
        config["history"] = {"flush": "60s"}
    path = work / "hermesd.yaml"
    path.write_text(yaml.safe_dump(config, sort_keys=False, allow_unicode=True), "utf-8")
    return path


def run_plant(work: Path, history: bool, broker: int, warmup: float, seconds: float
              ) -> dict[str, float]:
    from tests.support.sim import SimRunner

    work.mkdir(parents=True)
    config = plant_config(work, history, broker)
    sims = SimRunner(work)
    sim = sims.start(config)
    env = {**os.environ, "PYTHONPATH": f"{ROOT}:{ROOT / 'tools'}"}
    env.pop("NOTIFY_SOCKET", None)
    proc = subprocess.Popen([sys.executable, "-m", "hermesd.main", "--config", str(config),
                             "--log-level", "warning"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, env=env)
    try:
        time.sleep(warmup)  # a benchmark's settling time, not a test's wait
        before = write_bytes(proc.pid)
        time.sleep(seconds)
        after = write_bytes(proc.pid)
        rss = rss_kib(proc.pid)
        size = dir_size(work / "state")
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=15)
        sim.terminate()
        sims.cleanup()
    return {"bytes_per_min": (after - before) / (seconds / 60), "state_dir": size,
            "rss_kib": rss}


def bench_plant(minutes: float, warmup: float) -> None:
    from tests.support.mosquitto import Mosquitto

    tmp = Path(tempfile.mkdtemp(prefix="hbench"))
    try:
        with Mosquitto(tmp / "broker") as broker:
            off = run_plant(tmp / "off", False, broker.port, warmup, minutes * 60)
            on = run_plant(tmp / "on", True, broker.port, warmup, minutes * 60)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"dev plant, {minutes:g} min after {warmup:g} s warm-up, hermesd write_bytes "
          "(the whole state disk: value cache, audit log, history):")
    for name, r in (("history off (baseline)", off), ("history on", on)):
        print(f"  {name:24s} {r['bytes_per_min'] / 1024:8.1f} KiB/min  "
              f"{r['bytes_per_min'] * 60 / 2**20:6.2f} MiB/h  state dir {r['state_dir'] / 1024:.0f} KiB"
              f"  hermesd RSS {r['rss_kib'] / 1024:.1f} MiB")
    print(f"  ratio on/off: {on['bytes_per_min'] / max(off['bytes_per_min'], 1):.2f}")


# -- synthetic ---------------------------------------------------------------------------------

T0 = 1_800_000_000.0 - 1_800_000_000 % 3600


def bench_synthetic(points: int, seconds: int, queries: int) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="hbench", dir=str(ROOT.parent)))  # a real disk
    names = [f"p{i}" for i in range(points)]
    rng = random.Random(7)
    try:
        # baseline: plain SQLite, one row a sample, a transaction a minute
        base = sqlite3.connect(tmp / "base.db", isolation_level=None)
        base.execute("PRAGMA journal_mode=WAL")
        base.execute("PRAGMA synchronous=FULL")
        base.execute("CREATE TABLE s (ts REAL, point INTEGER, value REAL)")
        cpu0, w0 = time.process_time(), write_bytes()
        for m in range(seconds // 60):
            base.execute("BEGIN")
            base.executemany("INSERT INTO s VALUES (?, ?, ?)",
                             ((T0 + m * 60 + s, i, float((s + i) % 97))
                              for s in range(60) for i in range(points)))
            base.execute("COMMIT")
        base_cpu, base_w = time.process_time() - cpu0, write_bytes() - w0
        base.close()
        base_size = dir_size(tmp)

        rss_before = rss_kib()
        store = Store(tmp / "history.db")
        store.open()
        rec = Recorder({n: Track(True) for n in names}, T0 - 0.5)
        cpu0, w0 = time.process_time(), write_bytes()
        for s in range(seconds):
            t = T0 + s
            for i, n in enumerate(names):
                rec.value(n, float((s + i) % 97) + rng.random() * 0.01, t, t)
            if s % 60 == 59 or rec.pending >= EARLY_BATCH:  # as the component does
                store.write([rec.take_batch(t + 0.5)])
        cpu, w = time.process_time() - cpu0, write_bytes() - w0
        size = store.size()
        print(f"write path, {points} points x {seconds} s (1 change/s each, a batch a minute or "
              f"every {EARLY_BATCH} samples):")
        print(f"  sqlite rows (baseline)  CPU {base_cpu:6.1f} s  written {base_w / 2**20:7.1f} MiB"
              f"  size {base_size / 2**20:6.1f} MiB")
        print(f"  hermesd history         CPU {cpu:6.1f} s  written {w / 2**20:7.1f} MiB"
              f"  size {size / 2**20:6.1f} MiB")
        print(f"  CPU % of one core over the simulated hour: {cpu / seconds * 100:.2f} % "
              f"(baseline {base_cpu / seconds * 100:.2f} %); ratio {cpu / base_cpu:.2f}")

        # a month of hour rows (and a day of minute rows) before the hour just recorded
        db = sqlite3.connect(tmp / "history.db", isolation_level=None)
        ids = dict(db.execute("SELECT name, id FROM points"))
        db.execute("BEGIN")
        for h in range(1, 30 * 24 + 1):
            hour = int(T0 - h * 3600)
            db.executemany("INSERT OR REPLACE INTO h1 VALUES (?,?,?,?,?,?,?,?,?,?)",
                           ((ids[n], hour, *Rollup(1.0, 2.0, 0.0, 96.0, 48.0 * 3600, 3600.0,
                                                   3600, hour + 3599.0).row())
                            for n in names))
            if h <= 24:
                db.executemany("INSERT OR REPLACE INTO m1 VALUES (?,?,?,?,?,?,?,?,?,?)",
                               ((hour + m * 60, ids[n], *Rollup(1.0, 2.0, 0.0, 96.0, 48.0 * 60,
                                                                60.0, 60, hour + m * 60 + 59.0
                                                                ).row())
                                for m in range(60) for n in names))
        db.execute("COMMIT")
        db.close()
        now = T0 + seconds - 0.25
        day, month = [], []
        for _ in range(queries):
            name = rng.choice(names)
            view = rec.view(name, now)
            started = time.perf_counter()
            Reader(store, view, []).summary(name, now - 86400, now, now)
            day.append((time.perf_counter() - started) * 1000)
            started = time.perf_counter()
            Reader(store, view, []).summary(name, now - 30 * 86400, now, now)
            month.append((time.perf_counter() - started) * 1000)
        grown = (rss_kib() - rss_before) / 1024
        # baseline query: the same max over 24 h from the plain rows of one hour (what a store
        # without rollups reads for an hour; a day would be 24 times that)
        base = sqlite3.connect(tmp / "base.db")
        base.execute("CREATE INDEX IF NOT EXISTS s_point ON s (point, ts)")
        plain = []
        for _ in range(max(10, queries // 10)):
            i = rng.randrange(points)
            started = time.perf_counter()
            base.execute("SELECT max(value) FROM s WHERE point = ? AND ts >= ?",
                         (i, now - 86400)).fetchone()
            plain.append((time.perf_counter() - started) * 1000)
        base.close()
        store.close()
        print(f"queries over {points} points (history: 30 days of hour rows, a day of minute "
              "rows, the last hour's samples):")
        print(f"  max over 24 h     p50 {statistics.median(day):7.2f} ms  p99 {pct(day, 0.99):7.2f} ms")
        print(f"  mean over 30 days p50 {statistics.median(month):7.2f} ms  p99 {pct(month, 0.99):7.2f} ms")
        print(f"  baseline: max over the plain rows of one point (indexed) p50 "
              f"{statistics.median(plain):.2f} ms")
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"  RSS grown by the recorder, its batches and the store's caches: {grown:.1f} MiB "
              f"(this process's peak {peak:.0f} MiB)")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    p = sub.add_parser("plant")
    p.add_argument("--minutes", type=float, default=5.0)
    p.add_argument("--warmup", type=float, default=20.0)
    p = sub.add_parser("synthetic")
    p.add_argument("--points", type=int, default=1000)
    p.add_argument("--seconds", type=int, default=3600)
    p.add_argument("--queries", type=int, default=200)
    args = parser.parse_args()
    if args.what == "plant":
        bench_plant(args.minutes, args.warmup)
    else:
        bench_synthetic(args.points, args.seconds, args.queries)


if __name__ == "__main__":
    main()
