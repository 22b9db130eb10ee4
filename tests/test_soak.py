"""The short soak (`scripts/soak --short`) as a test: the whole dev plant under load while every
fault is injected once, with the hostile mix alongside (tests/hostile's generators: control
frames, words, MQTT, strangers at tool sockets, a connection flood), run as a user runs it,
judged on its JSON report and on /proc.

As root the state disk faults and the hostile parts played by other users run too (a tmpfs the
soak mounts; processes that drop to another uid); otherwise the report must say they were
skipped and why. The soak's other verdicts (RSS growth, the audit log's integrity) are in its
report and its exit code; this test holds it to what must never happen: a lost request, a crash,
a write that policy or the words did not allow, a hostile request not answered as documented.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support import procfs

ROOT = Path(__file__).resolve().parents[1]
SOAK = ROOT / "scripts" / "soak"
DISK_FAULTS = {"disk_full", "read_only"}
#: hostile inputs frequent enough to be in every short run (weights >= 8 of 100 at 3/s)
HOSTILE_KINDS = {"frames", "frames_dry_run", "words", "mqtt", "stranger"}
BY_OTHER_USERS = {"frames", "frames_dry_run", "oversize", "reads", "words", "flood"}


@pytest.fixture
def workdir() -> Iterator[Path]:
    # short: the tools' sockets live in it (AF_UNIX paths are limited to 107 bytes)
    path = Path(tempfile.mkdtemp(prefix="soak", dir="/tmp"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


def _started_from(workdir: Path) -> list[str]:
    """Live processes whose arguments name the work directory (the soak itself has exited)."""
    pids = [int(entry) for entry in os.listdir("/proc") if entry.isdigit()]
    return [f"{pid}: {procfs.cmdline(pid)[:160]}" for pid in pids
            if str(workdir) in procfs.cmdline(pid) and procfs.alive(pid)]


@pytest.mark.timeout(300)
def test_short_soak_loses_nothing_and_recovers_from_every_fault(workdir: Path) -> None:
    report_path = workdir / "report.json"
    done = subprocess.run([str(SOAK), "--short", "--workdir", str(workdir / "w"),
                           "--report", str(report_path)],
                          capture_output=True, text=True, timeout=280, check=False)
    shown = f"exit {done.returncode}\n{done.stdout}\n{done.stderr[-4000:]}"
    assert report_path.exists(), shown
    report: dict[str, Any] = json.loads(report_path.read_text())
    assert report["error"] is None and not report["interrupted"], shown

    # nothing lost: every request answered, each answer in the documented shape
    req = report["requests"]
    assert req["sent"] >= 500, shown
    assert req["lost"] == 0 and req["answered"] == req["sent"], req["lost_examples"]
    assert req["breaches"] == 0, req["breach_examples"]
    assert {"read", "write", "ask", "mqtt", "hermesctl"} <= set(req["by_kind"]), req["by_kind"]
    assert report["honesty"]["dishonest"] == 0, report["honesty"]

    # every fault injected once and recovered; every tool killed and stopped
    faults = report["faults"]
    tools = set(report["hermesd_status"]["tools"])
    assert {"modbus", "serial", "mqtt", "leaky"} <= tools
    assert sorted(f["target"] for f in faults if f["kind"] == "kill9") == sorted(tools)
    assert sorted(f["target"] for f in faults if f["kind"] == "sigstop") == sorted(tools)
    assert {"dropout", "broker", "leak"} | DISK_FAULTS <= {f["kind"] for f in faults}
    for fault in faults:
        if fault.get("skipped"):
            assert os.geteuid() != 0 and fault["kind"] in DISK_FAULTS, fault
            assert "root" in fault["skipped"]
            continue
        assert fault["recovered"], fault
        assert fault["recovery_s"] is not None and fault["judged_by"], fault
    leak = next(f for f in faults if f["kind"] == "leak")
    assert leak["observed"]["watchdog"], leak  # the memory watchdog did it, not something else

    # systemd would have been content: pings in time, a clean stop
    assert report["targets"]["watchdog_in_time"]["met"], report["watchdog"]
    assert report["targets"]["clean_stop"]["met"], report["stop"]

    # hermesd never died, and no tool was restarted but by a fault
    assert report["daemon"]["crashes"] == 0, report["daemon"]
    assert report["targets"]["hermesd_never_died"]["met"], report["daemon"]
    assert report["tool_restarts"]["outside_fault_windows"] == 0, report["tool_restarts"]

    # the hostile mix ran alongside, and every hostile request was answered as documented
    hostile = report["hostile"]
    assert report["mix"] == "hostile" and hostile["enabled"], hostile
    assert hostile["soak_errors"] == [], hostile["soak_errors"]
    kinds = set(hostile["by_kind"])
    if os.geteuid() == 0:
        assert hostile["skipped"] == {}, hostile["skipped"]
        assert HOSTILE_KINDS | {"flood"} <= kinds, kinds
        flood = hostile["floods"][0]
        assert flood["still_open"] == 0 and flood["others"] == 0, flood
        assert hostile["root_probe"]["during_floods"]["n"] > 0, hostile["root_probe"]
    else:
        assert set(hostile["skipped"]) >= BY_OTHER_USERS, hostile["skipped"]
        assert all("root" in why for why in hostile["skipped"].values()), hostile["skipped"]
        assert kinds >= HOSTILE_KINDS - BY_OTHER_USERS, kinds
    assert hostile["requests"] >= 100, hostile
    assert hostile["breaches"] == 0 and hostile["unanswered"] == 0, hostile["breach_examples"]
    assert report["targets"]["retained_never_run_again"]["met"], hostile["by_kind"].get("retained")
    assert hostile["root_probe"]["n"] > 0 and hostile["root_probe"]["failed"] == 0, \
        hostile["root_probe"]

    # nothing was written that policy or the words did not allow, and every write is on record
    writes = report["writes"]
    assert writes["by_origin"].get("load", 0) >= 100, writes  # the judge saw the load's writes
    assert writes["outside_policy"] == 0 and writes["outside_words"] == 0, writes["examples"]
    assert writes["device_values_not_asked_for"] == 0, writes["devices"]
    assert writes["devices"]["points"].get("boiler3_setpoint", 0) > 0, writes["devices"]
    assert writes["load_writes"]["missing"] == 0, writes["load_writes"]
    assert writes["hostile_writes"]["missing"] == 0, writes["hostile_writes"]

    # nothing left behind: by the soak's own account, and by ours
    assert report["cleanup"] == {"processes": [], "mounts": [], "notes": []}, report["cleanup"]
    assert _started_from(workdir) == []
    assert procfs.mounts_under(workdir) == []


# -- the judge of writes: it must be able to say no ----------------------------------------------

OPERATOR_UID = 60010  # as the soak's hostile mix: access.users makes this uid an operator
NOBODY = 65534  # no entry in access.users: the default role, viewer


def _judge(tmp_path: Path, intents: list[dict[str, Any]], *, load: list[Any] | None = None,
           hostile: list[Any] | None = None,
           samples: list[tuple[float, str, Any]] | None = None) -> dict[str, Any]:
    """tests/support/soak/writes.py's judge over a planted trail, with the soak's own config."""
    from tests.support.soak import writes as W
    from tests.support.soak.plant import soak_config

    state = tmp_path / "state"
    state.mkdir(exist_ok=True)
    lines = [json.dumps({"ts": "2026-11-30T09:00:00.000Z", "phase": "intent", "route": "rule",
                         "source": "control", "dry_run": False, **i}) for i in intents]
    (state / "audit-trail-0001.jsonl").write_text("".join(f"{x}\n" for x in lines))
    config = soak_config(tmp_path, plc_port=1502, broker_port=1883, llm=False,
                         users={str(OPERATOR_UID): "operator"})
    initial = {"pump1_speed": 1000, "boiler3_setpoint": 510.0}
    return W.judge(state, load or [], hostile or [], config, samples or [], initial,
                   {NOBODY: "frames", OPERATOR_UID: "words"})


def _write(trace: str, role: str, point: str, value: Any, **extra: Any) -> dict[str, Any]:
    return {"trace_id": trace, "role": role,
            "action": {"name": "write", "args": {"point": point, "value": value}}, **extra}


def _load_write(trace: str, point: str, value: Any, status: str = "ok") -> Any:
    from tests.support.soak.load import Sent

    return Sent(n=1, kind="write", target=point, sent=0.0, sent_wall=0.0, answered=0.1,
                status=status, action="write", point=point, trace_id=trace,
                intends=(point, value))


def _words(trace: str, text: str, says: tuple[str, Any] | None, uid: int = OPERATOR_UID) -> Any:
    from tests.support.soak.hostile_rig import HostileSent

    return HostileSent(n=1, kind="words", who=f"uid {uid}", sent=0.0, sent_wall=0.0,
                       summary=text, answered=1, traces=[trace], says=says)


def test_judge_passes_writes_within_policy_and_words(tmp_path: Path) -> None:
    got = _judge(tmp_path, [_write("t1", "operator", "pump1_speed", 1200),
                            _write("t2", "operator", "pump1_speed", 300, uid=OPERATOR_UID)],
                 load=[_load_write("t1", "pump1_speed", 1200)],
                 hostile=[_words("t2", "set pump 1 to 300 rpm", ("pump1_speed", 300))],
                 samples=[(1.0, "pump1_speed", 1000), (2.0, "pump1_speed", 1200),
                          (3.0, "pump1_speed", 300.0)])
    assert got["intents"] == 2 and got["by_origin"] == {"load": 1, "hostile": 1}, got
    assert got["outside_policy"] == got["outside_words"] == got["outside"] == 0, got["examples"]
    assert got["hostile_within_words"] == 1
    assert got["device_values_not_asked_for"] == 0, got["devices"]
    assert got["load_writes"]["missing"] == 0 and got["load_writes"]["answered_ok"] == 1


@pytest.mark.parametrize(("intent", "why"), [
    # the words said 300, hermesd wrote 30: within policy, outside the words
    (_write("t2", "operator", "pump1_speed", 30, uid=OPERATOR_UID), "outside words"),
    # a value out of range (pump1_speed is 0..1500)
    (_write("t2", "operator", "pump1_speed", 3000, uid=OPERATOR_UID), "outside policy"),
    # a point the operator may not write
    (_write("t2", "operator", "boiler3_setpoint", 300, uid=OPERATOR_UID), "outside policy"),
    # a role the request did not have
    (_write("t2", "engineer", "pump1_speed", 300, uid=OPERATOR_UID), "outside policy"),
    # a dry run that got as far as a write intent
    (_write("t2", "operator", "pump1_speed", 300, uid=OPERATOR_UID, dry_run=True),
     "outside policy"),
    # a tool call that writes, which only raw_write roles may make
    ({"trace_id": "t2", "role": "operator", "uid": OPERATOR_UID,
      "action": {"name": "modbus.write_register", "args": {"address": 3, "value": 300}}},
     "outside policy"),
])
def test_judge_flags_a_planted_bad_write(tmp_path: Path, intent: dict[str, Any], why: str) -> None:
    got = _judge(tmp_path, [intent],
                 hostile=[_words("t2", "set pump 1 to 300 rpm", ("pump1_speed", 300))])
    assert got["outside"] == 1, got
    field = "outside_policy" if why == "outside policy" else "outside_words"
    assert got[field] == 1, got
    assert got["outside_by_request_kind"] == {"words": 1}
    assert got["examples"][0]["trace_id"] == "t2" and got["examples"][0]["why"].startswith(why)


def test_judge_flags_a_viewer_write_and_a_write_nobody_asked_for(tmp_path: Path) -> None:
    got = _judge(tmp_path, [
        # a hostile frame by a viewer (no access.users entry): no write is theirs to make
        _write("t3", "viewer", "pump1_speed", 500, uid=NOBODY),
        # an intent whose trace id no request of the soak knows, by no hostile uid
        _write("t4", "operator", "pump1_speed", 700, uid=0),
    ], hostile=[_words("t3", "pump1 500", ("pump1_speed", 500), uid=NOBODY)])
    assert got["outside_policy"] == 1 and got["outside_words"] == 1, got["examples"]
    assert got["by_origin"] == {"hostile": 1, "no request of the soak": 1}


def test_judge_flags_a_retained_request_run_again(tmp_path: Path) -> None:
    from tests.support.soak.hostile_rig import HostileSent

    retained = HostileSent(n=1, kind="retained", who="mqtt", sent=0.0, sent_wall=0.0,
                           summary="set pump 1 to 300 (retained)", answered=1,
                           traces=["live", "again"], says=("pump1_speed", 300), live_trace="live")
    got = _judge(tmp_path, [_write("live", "operator", "pump1_speed", 300, source="mqtt"),
                            _write("again", "operator", "pump1_speed", 300, source="mqtt")],
                 hostile=[retained])
    assert got["outside_policy"] == 0 and got["outside_words"] == 1, got["examples"]
    assert got["examples"][0]["trace_id"] == "again"


def test_judge_flags_device_values_and_missing_intents(tmp_path: Path) -> None:
    # the load was answered ok for two writes; only one has its intent in the trail, and the
    # device showed a value that no write within policy and words gave
    got = _judge(tmp_path, [_write("t1", "operator", "pump1_speed", 1200)],
                 load=[_load_write("t1", "pump1_speed", 1200), _load_write("t5", "pump1_speed", 900)],
                 samples=[(1.0, "pump1_speed", 1200), (2.0, "boiler3_setpoint", 20.0)])
    assert got["outside_policy"] == got["outside_words"] == 0, got["examples"]
    assert got["load_writes"]["missing"] == 1, got["load_writes"]
    assert got["load_writes"]["missing_examples"][0]["trace_id"] == "t5"
    assert got["device_values_not_asked_for"] == 1 and got["outside"] == 1, got["devices"]
    assert got["devices"]["examples"] == [{"t": 2.0, "point": "boiler3_setpoint", "value": 20.0}]


def test_judge_flags_a_hostile_write_answered_ok_but_not_in_the_trail(tmp_path: Path) -> None:
    asked = _words("t6", "set pump 1 to 300 rpm", ("pump1_speed", 300))
    asked.outcome = "ok write"
    kept = _judge(tmp_path, [_write("t6", "operator", "pump1_speed", 300, uid=OPERATOR_UID)],
                  hostile=[asked])
    assert kept["hostile_writes"] == {"answered_ok": 1, "in_trail": 1, "missing": 0,
                                      "missing_examples": []}, kept
    lost = _judge(tmp_path, [], hostile=[asked])
    assert lost["hostile_writes"]["missing"] == 1, lost
    assert lost["hostile_writes"]["missing_examples"][0]["trace_id"] == "t6"


def test_process_section_reports_first_and_max_rss() -> None:
    from tests.support.soak.report import Sample, process_section

    mib = 2**20
    got = process_section({"hermesd": [Sample(0, 1, 50 * mib, 5), Sample(100, 1, 80 * mib, 5),
                                       Sample(400, 1, 60 * mib, 5)]}, 30.0, False, {})["hermesd"]
    assert got["first"] == {"t_s": 0, "pid": 1, "rss_mib": 50.0}
    assert got["max"] == {"t_s": 100, "pid": 1, "rss_mib": 80.0}
    assert (got["start"]["rss_mib"], got["end"]["rss_mib"]) == (80.0, 60.0)
