"""`history` through a real hermesd: hermesctl history (reply with sparkline, --json in
DESIGN's shape, --csv), policy, audit, gaps from a device going offline, restarts and reloads."""

from __future__ import annotations

import csv
import io
import math
import sqlite3
import time
from typing import Any

import yaml

from tests.support.daemon import DaemonRunner, RunningDaemon, base_config, fake_device
from tests.support.mosquitto import Mosquitto, MqttClient


def _plant(**history: Any) -> dict[str, Any]:
    config = base_config({"boiler": fake_device({
        "temp": {"name": "Boiler temperature", "names": {"zh": "锅炉温度"}, "type": "float",
                 "writable": True, "min": 0, "max": 1000, "unit": "°C",
                 "params": {"value": 500.0}},
        "pump": {"name": "Feed pump", "type": "bool", "writable": True,
                 "params": {"value": False}},
        "batch": {"type": "string", "writable": True, "params": {"value": "A"}},
    }, poll_interval="500ms")}, history={"flush": "1s", **history})
    config["access"]["roles"]["blind"] = {"read": False, "write": False}
    return config


def _write(d: RunningDaemon, point: str, value: str) -> None:
    done = d.ctl("--role", "operator", "write", point, value)
    assert done.returncode == 0, done.stderr


def _written(d: RunningDaemon) -> int:
    return int(d.status()["history"]["batches_written"])


def _stop_rows(d: RunningDaemon, seen: float | None = None) -> tuple[Any, Any, float]:
    """temp's max in the m1 row of the minute and the h1 row of the hour of `seen` (by default
    when hermesd was last seen running; None: no row), and `seen`."""
    db = sqlite3.connect(d.state_dir / "history.db")
    try:
        if seen is None:
            seen = float(db.execute("SELECT value FROM meta WHERE key = 'seen'").fetchone()[0])
        rows = db.execute(
            "SELECT (SELECT max FROM m1 WHERE minute = ? AND point = p.id), "
            "(SELECT max FROM h1 WHERE hour = ? AND point = p.id) FROM points p "
            "WHERE p.name = 'temp'", (seen // 60 * 60, seen // 3600 * 3600)).fetchone()
    finally:
        db.close()
    return rows[0], rows[1], seen


def test_history_answers_in_words_json_and_csv(daemon_runner: DaemonRunner) -> None:
    d = daemon_runner.start(_plant())
    d.wait_until(lambda: d.status()["history"]["state"] == "running", what="history open")
    for value in ("510", "545.5", "520"):
        _write(d, "temp", value)
    _write(d, "pump", "on")
    code, answer = d.ctl_json("history", "temp", "--since", "10m", "--stat", "max")
    assert code == 0 and answer["status"] == "ok", answer
    assert answer["action"]["name"] == "history"
    args = answer["action"]["args"]
    assert args["point"] == "temp" and args["stat"] == "max"
    assert args["from"].endswith("Z") and args["to"].endswith("Z")
    result = answer["result"]
    assert {"point", "stat", "value", "unit", "from", "to", "samples", "gaps"} <= set(result)
    assert result["value"] == 545.5 and result["unit"] == "°C"
    assert result["samples"] >= 4 and result["summary"]["min"] == 500.0
    assert "545.5 °C" in answer["reply"] and "highest" in answer["reply"]
    # the words: a sparkline under the reply
    done = d.ctl("history", "temp", "--since", "10m")
    assert done.returncode == 0
    assert "average of Boiler temperature" in done.stdout
    assert any(ch in done.stdout for ch in "▁▂▃▄▅▆▇█")
    done = d.ctl("history", "temp", "--since", "10m", "--csv")
    rows = list(csv.reader(io.StringIO(done.stdout)))
    assert rows[0] == ["time", "point", "min", "max", "mean", "last", "unit"]
    assert any(r[3] == "545.5" for r in rows[1:]), rows
    # on/off, changes and the value at a time
    code, answer = d.ctl_json("history", "pump", "--since", "1h", "--stat", "on_time")
    assert code == 0 and answer["result"]["unit"] == "s" and answer["result"]["value"] >= 0
    code, answer = d.ctl_json("history", "pump", "--stat", "changed_at")
    assert code == 0 and answer["result"]["changed_to"] is True
    code, answer = d.ctl_json("history", "temp", "--stat", "at", "--to", "now")
    assert code == 0 and answer["result"]["value"] == 520.0


def test_history_refuses_what_it_cannot_answer(daemon_runner: DaemonRunner) -> None:
    d = daemon_runner.start(_plant())
    cases = [
        (("history", "nope"), 65, "UNKNOWN_POINT"),
        (("history", "temp", "--stat", "on_time"), 65, "BAD_REQUEST"),
        (("history", "batch", "--stat", "max"), 65, "BAD_REQUEST"),
        (("history", "temp", "--stat", "median"), 65, "BAD_REQUEST"),
        (("history", "temp", "--since", "two hours"), 65, "BAD_REQUEST"),
        (("history", "temp", "--from", "yesterday-ish"), 65, "BAD_REQUEST"),
        (("history", "temp", "--since", "5000d"), 65, "BAD_REQUEST"),
        (("history", "temp", "--from", "0001-01-01T00:00"), 65, "BAD_REQUEST"),
        (("history", "temp", "--from", "9999-12-30T00:00Z"), 65, "BAD_REQUEST"),
        (("ask", "what was the highest boiler temperature in the last 1"
                 "00000000000000000000000000 hours"), 65, "BAD_REQUEST"),
        (("--role", "blind", "history", "temp"), 77, "FORBIDDEN"),
    ]
    for args, code, error in cases:
        got, answer = d.ctl_json(*args)
        assert (got, answer["error"]["code"]) == (code, error), (args, answer)
    # asked in words by a role that may not read: a refusal, as for a read
    code, answer = d.ctl_json("--role", "blind", "ask", "what was the highest boiler "
                                                       "temperature today")
    assert code == 77 and answer["action"]["name"] == "respond", answer
    assert answer["action"]["args"]["reason"] == "not_allowed"
    assert answer["action"]["args"]["refused"]["name"] == "history"
    records = [r for r in d.audit_records() if (r.get("action") or {}).get("name") == "history"]
    assert any(r.get("status") == "forbidden" and r["role"] == "blind" for r in records)


def test_a_device_offline_is_a_gap_and_a_restart_keeps_history(
        daemon_runner: DaemonRunner) -> None:
    config = _plant()
    d = daemon_runner.start(config)
    _write(d, "temp", "530")
    d.request({"op": "call", "tool": "boiler", "action": "set_offline",
               "args": {"device": "boiler", "online": False}, "role": "engineer"})
    d.wait_until(lambda: d.ctl_json("read", "temp")[1]["status"] == "stale", what="offline")
    d.request({"op": "call", "tool": "boiler", "action": "set_offline",
               "args": {"device": "boiler", "online": True}, "role": "engineer"})
    _write(d, "temp", "540")

    def gap_seen() -> dict[str, Any] | None:
        answer = d.ctl_json("history", "temp", "--since", "10m", "--stat", "max")[1]
        gaps = answer["result"]["gaps"]
        return answer if any("offline" in g["reason"] for g in gaps) else None

    answer = d.wait_until(gap_seen, what="the offline gap")
    assert answer["result"]["value"] == 540.0
    assert "no data" in answer["reply"] and "boiler offline" in answer["reply"]
    # the minutes before this first daemon began to record are not laid at the device's door
    assert answer["result"]["unrecorded_s"] >= 60
    assert "before recording began" in answer["reply"]
    written = _written(d)
    d.wait_until(lambda: _written(d) > written, what="a batch written")
    assert d.terminate() == 0
    # the minute and the hour the stop fell in are written as far as they went: a restart
    # past that minute once answered it from its rollup, which the stop had never written
    # (500, not 540, when a loaded machine took the restart into the next minute)
    assert _stop_rows(d)[:2] == (540.0, 540.0)
    d2 = daemon_runner.start(config)
    code, answer = d2.ctl_json("history", "temp", "--since", "1h", "--stat", "max")
    assert code == 0 and answer["result"]["value"] == 540.0
    assert any(g["reason"] == "hermesd was not running" for g in answer["result"]["gaps"])


def test_a_power_cut_keeps_the_minute_and_hour_it_fell_in(daemon_runner: DaemonRunner) -> None:
    """SIGKILL (a power cut) writes no final batch: the minute and hour it fell in had no
    rollup, and once closed (a restart a minute or an hour later) they were answered by
    nothing. The next start rebuilds them from what was written, before it answers."""
    config = _plant()
    d = daemon_runner.start(config)
    _write(d, "temp", "540")
    d.wait_until(lambda: d.ctl_json("history", "temp", "--since", "10m", "--stat", "max")[1]
                 ["result"]["value"] == 540.0, what="540 recorded")
    written = _written(d)
    d.wait_until(lambda: _written(d) > written, what="a batch written after it")
    d.kill()
    before = _stop_rows(d)
    assert before[:2] == (None, None)  # only samples: no final batch
    d2 = daemon_runner.start(config)
    # asked at once: answered from the rebuilt batch (a query waits for the opening)
    code, answer = d2.ctl_json("history", "temp", "--since", "1h", "--stat", "max")
    assert code == 0 and answer["result"]["value"] == 540.0
    d2.wait_until(lambda: _stop_rows(d2, before[2])[:2] == (540.0, 540.0),
                  what="the minute and hour of the power cut written")
    code, answer = d2.ctl_json("history", "temp", "--since", "1h", "--stat", "max")
    assert code == 0 and answer["result"]["value"] == 540.0
    assert any(g["reason"] == "hermesd was not running" for g in answer["result"]["gaps"])


def test_a_reload_that_removes_a_point_keeps_its_rows(daemon_runner: DaemonRunner) -> None:
    config = _plant()
    d = daemon_runner.start(config)
    _write(d, "batch", "B-7")
    written = _written(d)
    d.wait_until(lambda: _written(d) > written, what="a batch written")
    del config["devices"]["boiler"]["points"]["batch"]
    d.config_path.write_text(yaml.safe_dump({**config, "paths": yaml.safe_load(
        d.config_path.read_text())["paths"]}, sort_keys=False, allow_unicode=True))
    d.proc.send_signal(1)  # SIGHUP
    d.wait_until(lambda: d.status()["reloads"]["ok"] == 1, what="the reload")
    code, answer = d.ctl_json("history", "batch")
    assert code == 65 and answer["error"]["code"] == "UNKNOWN_POINT"
    written = _written(d)
    d.wait_until(lambda: _written(d) > written, what="a batch after the reload")
    db = sqlite3.connect(d.state_dir / "history.db")
    try:
        names = {n for (n,) in db.execute("SELECT name FROM points")}
        rows = db.execute("SELECT count(*) FROM raw JOIN points ON raw.point = points.id "
                          "WHERE points.name = 'batch'").fetchone()[0]
    finally:
        db.close()
    assert "batch" in names and rows >= 1


def _alarm_plant() -> dict[str, Any]:
    config = _plant()
    points = config["devices"]["boiler"]["points"]
    points["temp"]["alarms"] = {"high": 540, "hysteresis": 5, "delay": "1s"}
    points["pump"]["alarms"] = {"state": True}
    return config


def test_alarms_raise_clear_and_are_acknowledged_by_a_role_that_may_write(
        daemon_runner: DaemonRunner) -> None:
    config = _alarm_plant()
    d = daemon_runner.start(config)
    code, answer = d.ctl_json("alarms", "--active")
    assert code == 0 and answer["result"]["alarms"] == [] and answer["reply"] == \
        "No active alarms."
    _write(d, "temp", "545")

    def active() -> list[dict[str, Any]]:
        return list(d.ctl_json("alarms", "--active")[1]["result"]["alarms"])

    alarms = d.wait_until(active, what="the high alarm")
    assert [(a["id"], a["state"]) for a in alarms] == [("temp_high", "active")]
    assert alarms[0]["message"] == "Boiler temperature high, 545 °C"
    done = d.ctl("alarms")
    assert "temp_high" in done.stdout and "active" in done.stdout
    # a viewer may not acknowledge; an operator may, and it is audited
    code, answer = d.ctl_json("ack", "temp_high")
    assert code == 77 and answer["error"]["code"] == "FORBIDDEN"
    code, answer = d.ctl_json("--role", "operator", "ack", "nonesuch")
    assert code == 65 and "no alarm" in answer["error"]["message"]
    code, answer = d.ctl_json("--role", "operator", "ack", "temp_high")
    assert code == 0 and answer["result"]["alarm"]["state"] == "acknowledged", answer
    records = [r for r in d.audit_records() if (r.get("action") or {}).get("name") == "ack"]
    assert [(r["role"], r["status"]) for r in records if r["phase"] == "done"] == \
        [("viewer", "forbidden"), ("operator", "rejected"), ("operator", "ok")]
    # within the hysteresis: still active; below it: cleared
    _write(d, "temp", "537")
    assert [a["state"] for a in active()] == ["acknowledged"]
    _write(d, "temp", "530")
    d.wait_until(lambda: not active(), what="the alarm to clear")
    # a bool state alarm with no delay, kept across a restart
    _write(d, "pump", "on")
    d.wait_until(lambda: [a["id"] for a in active()] == ["pump_state"], what="pump alarm")
    assert d.terminate() == 0
    # the device still has the pump on after the restart: the same occurrence stays active
    config["devices"]["boiler"]["points"]["pump"]["params"]["value"] = True
    d2 = daemon_runner.start(config)
    listed = d2.ctl_json("alarms")[1]["result"]["alarms"]
    assert sorted((a["id"], a["state"]) for a in listed) == \
        [("pump_state", "active"), ("temp_high", "cleared")]
    done = d2.ctl("ask", "any alarms?")
    assert done.returncode == 0


def test_questions_in_words_are_answered_from_the_history(daemon_runner: DaemonRunner) -> None:
    d = daemon_runner.start(_alarm_plant())
    for value in ("520", "530", "548"):
        _write(d, "temp", value)
    code, answer = d.ctl_json("ask", "what was the highest boiler temperature in the last "
                                     "10 minutes?")
    assert code == 0 and answer["route"] == "rule", answer
    assert answer["action"]["name"] == "history"
    assert answer["action"]["args"]["point"] == "temp"
    assert answer["action"]["args"]["stat"] == "max"
    assert answer["result"]["value"] == 548.0
    assert "548 °C" in answer["reply"]
    code, answer = d.ctl_json("ask", "过去十分钟锅炉温度最高是多少")
    assert code == 0 and answer["result"]["value"] == 548.0
    assert "锅炉温度最高是 548 °C" in answer["reply"]
    d.wait_until(lambda: d.ctl_json("alarms", "--active")[1]["result"]["alarms"],
                 what="the alarm")
    code, answer = d.ctl_json("ask", "any alarms?")
    assert code == 0 and answer["action"]["name"] == "alarms"
    assert answer["reply"].startswith("1 active alarm: Boiler temperature high, 548 °C")
    code, answer = d.ctl_json("ask", "有报警吗")
    assert code == 0 and answer["reply"].startswith("有 1 个报警：锅炉温度过高，548 °C")
    # "when did it last stop": the last change to off
    _write(d, "pump", "on")
    _write(d, "pump", "off")
    _write(d, "pump", "on")
    code, answer = d.ctl_json("ask", "when did the feed pump last stop?")
    assert code == 0 and answer["action"]["args"]["stat"] == "changed_at", answer
    assert answer["action"]["args"]["value"] is False
    assert answer["result"]["changed_to"] is False
    assert "Feed pump last changed at" in answer["reply"] and "to off" in answer["reply"]
    # a question in the present is a read, as before
    code, answer = d.ctl_json("ask", "what is the boiler temperature")
    assert code == 0 and answer["action"]["name"] == "read"


def test_a_store_that_cannot_be_opened_keeps_hermesd_running_and_is_tried_again(
        daemon_runner: DaemonRunner) -> None:
    config = _plant()
    blocker = daemon_runner.tmp / "state" / "history.db"
    blocker.mkdir(parents=True)  # not a file: the store cannot be opened
    d = daemon_runner.start(config)
    status = d.wait_until(lambda: (h := d.status()["history"])["state"] == "unavailable" and h,
                          what="history unavailable")
    assert "history.db" in status["problem"]
    _write(d, "temp", "512")  # the daemon goes on; values are kept meanwhile
    code, answer = d.ctl_json("history", "temp", "--stat", "max")
    assert code == 1 and answer["error"]["code"] == "NOT_READY"
    assert "history is unavailable" in answer["error"]["message"]
    blocker.rmdir()
    d.wait_until(lambda: d.status()["history"]["state"] == "running", what="the store opened")
    code, answer = d.ctl_json("history", "temp", "--since", "10m", "--stat", "max")
    assert code == 0 and answer["result"]["value"] == 512.0


def test_the_value_a_change_was_to_is_one_the_point_can_hold(
        daemon_runner: DaemonRunner) -> None:
    # "MANUAL", 2 or "bogus" for a point of choices, or text for a number, once answered
    # NO_DATA "There is no record of Chiller mode", which was untrue
    config = _plant()
    config["devices"]["boiler"]["points"]["mode"] = {
        "name": "Chiller mode", "type": "int", "writable": True,
        "map": {0: "off", 1: "auto", 2: "manual"}, "params": {"value": 0}}
    d = daemon_runner.start(config)
    for value in ("manual", "auto"):
        _write(d, "mode", value)
    written = _written(d)  # (the changes are in the store once a batch after them is written)
    d.wait_until(lambda: _written(d) > written, what="a batch written after the changes")
    asked = {"op": "history", "point": "mode", "stat": "changed_at", "since": "1h"}
    answer = d.request({**asked, "value": "MANUAL"})
    assert answer["status"] == "ok" and answer["result"]["changed_to"] == "manual", answer
    refused: list[Any] = [2, "bogus", True]
    for value in refused:
        answer = d.request({**asked, "value": value})
        assert (answer["status"], answer["error"]["code"]) == ("rejected", "BAD_REQUEST"), answer
        assert "takes one of off, auto, manual" in answer["error"]["message"], answer
    answer = d.request({**asked, "point": "temp", "value": "hot"})
    assert answer["error"]["code"] == "BAD_REQUEST", answer
    assert "temp is a number" in answer["error"]["message"]


def test_a_floats_largest_value_leaves_history_answerable(daemon_runner: DaemonRunner) -> None:
    # 1.7e308 then -1.7e308 made the period's time-weighted mean infinite: every history
    # answer over it was INTERNAL (not writable as JSON), for as long as history kept it
    d = daemon_runner.start(_plant())
    now = time.time()
    answer = d.request({"op": "call", "tool": "boiler", "action": "emit", "role": "engineer",
                        "args": {"kind": "values", "data": {"values": [
                            {"point": "temp", "value": 1.7e308, "ts": now + 0.5},
                            {"point": "temp", "value": -1.7e308, "ts": now + 1.0}]}}})
    assert answer["status"] == "ok", answer
    d.wait_until(lambda: _written(d) >= 2, what="two batches written")
    for stat in ("mean", "max"):
        answer = d.request({"op": "history", "point": "temp", "since": "10m", "stat": stat,
                            "series": 10})
        assert answer["status"] == "ok" and answer["result"]["value"] == 500.0, answer


def test_a_sensor_silent_after_recording_began_is_not_before_recording(
        daemon_runner: DaemonRunner, broker: Mosquitto) -> None:
    """A sensor that says nothing for a while after hermesd started (an MQTT device that has
    not published yet, a device offline from the start): that time was recorded, as nothing;
    it is not 'before recording began' (before, every second without a value and without a gap
    was said to be)."""
    config = base_config({"room": {"driver": "mqtt", "points": {
        "room_temp": {"name": "Room temperature", "state_topic": "sensors/room",
                      "unit": "°C"}}}},
        mqtt={"host": "127.0.0.1", "port": broker.port}, history={"flush": "1s"})
    d = daemon_runner.start(config)
    d.wait_until(lambda: d.status()["history"]["state"] == "running", what="history open")
    since = time.time() + 1  # recording has begun by then
    time.sleep(4)  # the sensor is silent: nothing to wait for
    with MqttClient(broker.port, client_id="sensor", subscribe=()) as sensor:
        sensor.publish("sensors/room", "21.5", retain=True)
    d.wait_until(lambda: d.ctl_json("read", "room_temp")[1].get("status") == "ok",
                 what="the first temperature")
    frm = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(math.ceil(since)))
    code, answer = d.ctl_json("history", "room_temp", "--from", frm, "--stat", "max")
    assert code == 0 and answer["result"]["value"] == 21.5, answer
    assert answer["result"]["missing_s"] >= 2
    assert answer["result"]["unrecorded_s"] == 0
    assert "before recording began" not in answer["reply"], answer["reply"]
