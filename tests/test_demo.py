"""`scripts/demo`, a new user's first command, run as they run it: it tours the simulated plant
through hermesd (real reads over Modbus, serial and MQTT, a write, a dry run, a stale read while
the PLC is away) and leaves nothing running behind it."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEMO = REPO / "scripts" / "demo"


def _running_in(directory: Path) -> list[str]:
    """The command lines of processes that name `directory` (the demo's broker, simulator,
    daemon and tools all do: their config, sockets and logs live there)."""
    marker = str(directory).encode()
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit() or int(proc.name) == os.getpid():
            continue
        try:
            cmdline = (proc / "cmdline").read_bytes()
        except OSError:
            continue  # gone meanwhile
        if marker in cmdline:
            found.append(cmdline.replace(b"\0", b" ").decode(errors="replace"))
    return found


def _run_demo(directory: Path, *args: str) -> str:
    # one pipe for both: refusals go to stderr, and must stay under the command that got them
    done = subprocess.run([str(DEMO), "--dir", str(directory), *args], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=50, check=False, cwd=REPO)
    assert done.returncode == 0, done.stdout
    return done.stdout


def _answer(output: str, command: str) -> str:
    """The first line the demo printed after showing `$ command`."""
    found = re.search(rf"^\$ {re.escape(command)}\n(.*)$", output, re.MULTILINE)
    assert found is not None, f"the demo did not run {command!r}:\n{output}"
    return found.group(1)


def test_the_demo_tours_the_plant_and_leaves_nothing_running(tmp_path: Path) -> None:
    demo = tmp_path / "demo"
    output = _run_demo(demo)
    # real reads, one per driver, with the simulator's values
    assert re.fullmatch(r"Boiler 3 temperature is 5\d\d(\.\d+)? °C\.",
                        _answer(output, "hermesctl read boiler3_temp")), output
    assert _answer(output, "hermesctl read scale1_weight") == "Packing scale weight is 12.34 kg."
    assert re.fullmatch(r"Outdoor temperature is 1\d(\.\d+)? °C\.",
                        _answer(output, "hermesctl read outdoor_temp")), output
    # writes: taken by the PLC and confirmed by the MQTT beacon; a dry run that touches nothing
    assert _answer(output, 'hermesctl --role operator ask "set feed pump 1 to 1000 rpm"') == \
        "Feed pump 1 speed set to 1000 rpm."
    assert _answer(output, "hermesctl read pump1_speed") == "Feed pump 1 speed is 1000 rpm."
    assert _answer(output, "hermesctl --role operator write warning_beacon on") == \
        "Yard warning beacon set to on."
    assert _answer(output, 'hermesctl --role operator --dry-run ask "set the line A conveyor '
                   'speed to 30"') == ("Dry run: would set Line A conveyor speed to 30 m/min; "
                                       "all checks pass.")
    assert _answer(output, "hermesctl --role operator write pump1_speed 2000").startswith(
        "rejected: OUT_OF_RANGE")
    assert _answer(output, "hermesctl ask 3号锅炉的温度是多少")  # answered, in some words
    # the PLC drops out: the last value, marked stale, with why and how old; then it is back
    before, _, after = output.partition("$ hermes-sim ctl drop plc1")
    assert re.search(r"^Boiler 3 temperature: PLC plc1 offline since \d\d:\d\d:\d\d \(no answer "
                     r"within 1 s\); last value 5\d\d(\.\d+)? °C, \d+ s old\.$", after,
                     re.MULTILINE), output
    assert re.search(r"^Boiler 3 temperature is 5\d\d(\.\d+)? °C\.$",
                     after.partition("$ hermes-sim ctl restore plc1")[2], re.MULTILINE), output
    assert f"the logs are in {demo}/ (hermesd.log, sim.log, mosquitto.log)" in output
    assert _running_in(demo) == []
    assert not list(demo.glob("*.pid")) and not (demo / "dev" / "scale1").exists()
    assert "Traceback" not in (demo / "hermesd.log").read_text()


def test_without_mqtt_and_kept_running_until_stop(tmp_path: Path) -> None:
    demo = tmp_path / "demo"
    try:
        output = _run_demo(demo, "--no-mqtt", "--keep")
        assert "demo: yard left out (no MQTT broker)" in output
        assert "$ hermesctl read outdoor_temp" not in output
        assert _answer(output, "hermesctl read scale1_weight") == \
            "Packing scale weight is 12.34 kg."
        assert "PLC plc1 offline since" in output
        assert f"Stop them with: scripts/demo --stop --dir {demo}" in output
        running = _running_in(demo)
        assert any("hermesd --config" in cmd for cmd in running), running
        assert any("hermes-sim --config" in cmd for cmd in running), running
        assert not any("mosquitto" in cmd for cmd in running), running
    finally:
        subprocess.run([str(DEMO), "--stop", "--dir", str(demo)], timeout=40, check=True)
    assert _running_in(demo) == []
