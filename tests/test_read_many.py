"""A read of several points in one request (DESIGN, "Further contracts"), on a real daemon.

`action.args.points` lists the ids; `result.values` holds each point's own `result` in that
order; the status is the worst of theirs (ok < stale < error); one reply names them all. Asked in
words ("temperatures of both zones") the router places the same action.
"""

from __future__ import annotations

from typing import Any

from tests.support.daemon import DaemonRunner, RunningDaemon, base_config, fake_device


def _plant() -> dict[str, Any]:
    return base_config({
        "hall": fake_device({
            "zone1_temp": {"name": "Zone 1 temperature", "type": "float", "unit": "°C",
                           "names": {"zh": "1区温度"}, "params": {"value": 21.5}},
            "zone2_temp": {"name": "Zone 2 temperature", "type": "float", "unit": "°C",
                           "params": {"value": 22.0}},
            "hall_fan": {"name": "Hall fan", "type": "bool", "writable": True,
                         "params": {"value": True}},
        }, poll_interval="200ms"),
        "roof": fake_device({
            "roof_temp": {"name": "Roof temperature", "type": "float", "unit": "°C",
                          "params": {"value": 4.5}},
            "roof_wind": {"name": "Roof wind speed", "type": "float", "unit": "m/s",
                          "params": {"value": 0, "error": "DEVICE_ERROR"}},
        }),
    })


def test_several_points_in_one_read(daemon_runner: DaemonRunner) -> None:
    d = daemon_runner.start(_plant())
    code, answer = d.ctl_json("read", "zone2_temp", "zone1_temp", "hall_fan")
    assert code == 0 and answer["status"] == "ok", answer
    assert answer["route"] == "direct"
    assert answer["action"] == {"name": "read",
                                "args": {"points": ["zone2_temp", "zone1_temp", "hall_fan"]}}
    values = answer["result"]["values"]
    assert [v["point"] for v in values] == ["zone2_temp", "zone1_temp", "hall_fan"]
    assert [v["value"] for v in values] == [22.0, 21.5, True]
    assert all(v["quality"] == "good" and v["timestamp"].endswith("Z") for v in values)
    assert values[0]["unit"] == "°C"
    assert answer["reply"] == ("Zone 2 temperature is 22 °C, Zone 1 temperature is 21.5 °C "
                               "and Hall fan is on.")
    # the plain output is the reply
    done = d.ctl("read", "zone1_temp", "zone2_temp")
    assert done.returncode == 0 and "Zone 1 temperature is 21.5 °C" in done.stdout


def test_the_status_is_the_worst_of_the_points(daemon_runner: DaemonRunner) -> None:
    d = daemon_runner.start(_plant())
    # the hall's device goes away: its polled values stay, marked stale
    assert d.ctl_json("read", "zone1_temp")[1]["status"] == "ok"
    d.request({"op": "call", "tool": "hall", "action": "set_offline",
               "args": {"device": "hall", "online": False}, "role": "engineer"})
    code, answer = d.ctl_json("read", "roof_temp", "zone1_temp")
    assert code == 0 and answer["status"] == "stale", answer
    roof, zone = answer["result"]["values"]
    assert roof["quality"] == "good" and zone["quality"] == "stale" and zone["value"] == 21.5
    assert "offline" in zone["stale_reason"]
    assert answer["error"]["code"] == "DEVICE_OFFLINE"
    assert "Zone 1 temperature was 21.5 °C" in answer["reply"] and "stale" in answer["reply"]
    # a point that cannot be read and has no last value: the read is an error, the rest read
    code, answer = d.ctl_json("read", "roof_temp", "roof_wind")
    assert code == 1 and answer["status"] == "error", answer
    roof, wind = answer["result"]["values"]
    assert roof["value"] == 4.5 and roof["quality"] == "good"
    assert wind == {"point": "roof_wind", "value": None, "unit": "m/s", "quality": "error",
                    "error": {"code": "DEVICE_ERROR", "message": wind["error"]["message"]}}
    assert answer["error"]["code"] == "DEVICE_ERROR"
    assert answer["reply"].startswith("Roof temperature is 4.5 °C and Roof wind speed could "
                                      "not be read")


def test_bad_reads_of_several_points_change_nothing(daemon_runner: DaemonRunner) -> None:
    d = daemon_runner.start(_plant())
    code, answer = d.ctl_json("read", "zone1_temp", "zone9_temp")
    assert code == 65 and answer["error"]["code"] == "UNKNOWN_POINT", answer
    code, answer = d.ctl_json("read", "zone1_temp", "zone1_temp")
    assert code == 65 and answer["error"]["code"] == "BAD_REQUEST", answer
    for request in ({"op": "read", "point": "zone1_temp", "points": ["zone2_temp"]},
                    {"op": "read", "points": []}, {"op": "read", "points": [1, 2]},
                    {"op": "read"}):
        answer = d.request(request)
        assert answer["status"] == "rejected" and answer["error"]["code"] == "BAD_REQUEST", \
            (request, answer)


def test_a_dry_run_and_the_audit_record(daemon_runner: DaemonRunner) -> None:
    d = daemon_runner.start(_plant())
    code, answer = d.ctl_json("--dry-run", "read", "zone1_temp", "roof_temp")
    assert code == 10 and answer["status"] == "dry_run", answer
    assert answer["reply"] == "Dry run: would read Zone 1 temperature and Roof temperature."
    assert answer["checks"] == ["role viewer may read zone1_temp", "role viewer may read roof_temp"]
    d.ctl_json("read", "zone1_temp", "roof_temp")
    done = [r for r in d.audit_records() if r["phase"] == "done"
            and (r.get("action") or {}).get("args", {}).get("points")]
    assert done[-1]["values"] == [21.5, 4.5] and done[-1]["status"] == "ok"


def test_asked_in_words(daemon_runner: DaemonRunner) -> None:
    d = daemon_runner.start(_plant())
    code, answer = _ask(d, "temperatures of both zones")
    assert code == 0 and answer["action"] == {
        "name": "read", "args": {"points": ["zone1_temp", "zone2_temp"]}}, answer
    assert answer["route"] == "rule" and answer["status"] == "ok"
    assert answer["reply"] == "Zone 1 temperature is 21.5 °C and Zone 2 temperature is 22 °C."
    # in Chinese: a point's Chinese name when the config gives one, else its own name
    code, answer = _ask(d, "所有区的温度是多少")
    assert answer["action"]["args"] == {"points": ["zone1_temp", "zone2_temp"]}, answer
    assert answer["reply"] == "1区温度：21.5 °C；Zone 2 temperature：22 °C。"


def _ask(d: RunningDaemon, text: str) -> tuple[int, dict[str, Any]]:
    return d.ctl_json("ask", text)
