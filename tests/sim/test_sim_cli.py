"""`hermes-sim` as a user runs it: any config, where each device is served, control commands,
RTU on a pty linked at the configured port, clear errors."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml
from pymodbus.client import AsyncModbusTcpClient

from tests.support.ports import free_port
from tests.support.sim import SimRunner

DEV_PLANT = Path("/work/shared/data/plant-dev.yaml")
REPO = Path(__file__).resolve().parents[2]


def _plant(tmp: Path, port: int) -> Path:
    """The development plant (configs/demo.yaml) on a free port, its scale linked in `tmp`,
    without its MQTT devices (tests/sim/test_mqtt_sim.py has them, with a broker)."""
    data = yaml.safe_load((REPO / "configs" / "demo.yaml").read_text(encoding="utf-8"))
    data["devices"]["plc1"]["port"] = port
    data["devices"]["scale1"]["port"] = str(tmp / "dev" / "scale1")
    del data["devices"]["yard"], data["mqtt"]
    for role in data["access"]["roles"].values():
        if isinstance(role.get("write"), list):
            role["write"] = [p for p in role["write"] if p != "warning_beacon"]
    data["paths"] = {"state_dir": str(tmp / "state"), "runtime_dir": str(tmp / "run")}
    path = tmp / "plant.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return path


def _ctl(control: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "hermes_tools.sim", "ctl", "--control",
                           str(control), *args], capture_output=True, text=True, timeout=20,
                          check=False)


async def _read_plant(port: int) -> dict[str, Any]:
    client = AsyncModbusTcpClient("127.0.0.1", port=port, timeout=2, retries=0)
    try:
        assert await client.connect()
        inputs = (await client.read_input_registers(0, count=8, device_id=1)).registers
        holding = (await client.read_holding_registers(10, count=12, device_id=1)).registers
        discrete = (await client.read_discrete_inputs(0, count=2, device_id=1)).bits[:2]
        coils = (await client.read_coils(1, count=1, device_id=1)).bits[:1]
    finally:
        client.close()
    f32 = AsyncModbusTcpClient.DATATYPE.FLOAT32
    u32 = AsyncModbusTcpClient.DATATYPE.UINT32
    return {"boiler1_temp": AsyncModbusTcpClient.convert_from_registers(inputs[0:2], f32),
            "boiler3_temp": AsyncModbusTcpClient.convert_from_registers(inputs[4:6], f32),
            "boiler3_pressure": inputs[6] / 100, "tank_level": inputs[7] / 10,
            "pump1_speed": holding[0], "conveyor_speed": holding[1] / 10,
            "boiler3_setpoint": AsyncModbusTcpClient.convert_from_registers(holding[2:4], f32),
            "line_a_count": AsyncModbusTcpClient.convert_from_registers(holding[10:12], u32),
            "pump1_running": discrete[0], "alarm_active": discrete[1], "valve2_open": coils[0]}


def test_serves_the_dev_plant_with_its_values(sim_runner: SimRunner, tmp_path: Path) -> None:
    port = free_port()
    sim = sim_runner.start(_plant(tmp_path, port), "--values",
                           str(REPO / "configs" / "demo-values.yaml"))
    assert f"plc1 (modbus) tcp 127.0.0.1:{port} unit 1" in sim.output
    assert f"scale1 (serial) pty {tmp_path / 'dev' / 'scale1'} -> /dev/pts/" in sim.output
    assert "not simulated" not in sim.output
    got = asyncio.run(_read_plant(port))
    assert abs(got["boiler3_temp"] - 523.4) < 10 and abs(got["boiler1_temp"] - 180.5) < 5
    assert abs(got["boiler3_pressure"] - 12.5) < 1 and abs(got["tank_level"] - 73.4) < 3
    assert got["pump1_speed"] == 1200 and got["conveyor_speed"] == 24.5
    assert got["boiler3_setpoint"] == 520.0 and got["line_a_count"] >= 1048577
    assert got["pump1_running"] is True and got["alarm_active"] is False
    assert got["valve2_open"] is False


def test_control_commands(sim_runner: SimRunner, tmp_path: Path) -> None:
    port = free_port()
    sim = sim_runner.start(_plant(tmp_path, port))
    done = _ctl(sim.control, "status")
    assert done.returncode == 0 and f"plc1: tcp 127.0.0.1:{port} unit 1" in done.stdout
    assert _ctl(sim.control, "set", "pump1_speed", "900").stdout.strip() == \
        'point="pump1_speed" value=900'
    assert _ctl(sim.control, "get", "pump1_speed").stdout.strip() == \
        'point="pump1_speed" value=900'
    assert _ctl(sim.control, "drop", "plc1").returncode == 0
    assert sim.status()["plc1"]["dropped"] is True
    assert "faults: dropped" in _ctl(sim.control, "status").stdout
    assert _ctl(sim.control, "fail", "plc1", "2", "--table", "holding", "--address",
                "10").returncode == 0
    assert sim.status()["plc1"]["fail"] == [{"code": 2, "table": "holding", "address": 10,
                                             "count": 65536}]
    assert _ctl(sim.control, "slow", "plc1", "0.5").returncode == 0
    assert _ctl(sim.control, "restore", "plc1").returncode == 0
    assert sim.status()["plc1"]["fail"] == [] and sim.status()["plc1"]["delay_s"] == 0
    for args, error in ((("drop", "plc9"), "no simulated device 'plc9'"),
                        (("fail", "plc1", "9"), "exception code 9 is not defined"),
                        (("corrupt", "plc1", "crc"), "RTU devices"),
                        (("get", "nope"), "no simulated point 'nope'"),
                        (("drop", "yard"), "no simulated device 'yard'"),
                        (("drop", "plc1", "--unplug"), "drop mode 'unplug' is not silent|refuse"),
                        (("fail", "plc1", "E1"), "exception code E1 is not defined")):
        done = _ctl(sim.control, *args)
        assert done.returncode == 1 and error in done.stderr, (args, done.stderr)
    assert sim.proc.poll() is None  # bad requests never stop it
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as raw:
        raw.settimeout(10)
        raw.connect(str(sim.control))
        raw.sendall(b"[1, 2]\nnot json\n")
        lines = raw.makefile()
        answers = lines.readline() + lines.readline()
    assert answers.count('"ok": false') == 2


def test_refuse_closes_the_endpoint_and_restore_reopens_it(sim_runner: SimRunner,
                                                           tmp_path: Path) -> None:
    port = free_port()
    sim = sim_runner.start(_plant(tmp_path, port))
    sim.ctl("set", point="pump1_speed", value=777)
    sim.ctl("drop", device="plc1", mode="refuse")
    with socket.socket() as probe:
        assert probe.connect_ex(("127.0.0.1", port)) != 0
    sim.ctl("restore", device="plc1")
    assert asyncio.run(_read_plant(port))["pump1_speed"] == 777  # state kept


def test_rtu_on_a_pty_linked_at_the_configured_port(sim_runner: SimRunner, tmp_path: Path) -> None:
    link = tmp_path / "ttyRS485"
    config = {"node": {"id": "n"}, "paths": {"state_dir": str(tmp_path), "runtime_dir":
                                             str(tmp_path)},
              "devices": {f"u{unit}": {"driver": "modbus", "transport": "rtu", "port": str(link),
                                       "unit": unit, "points": {f"p{unit}": {
                                           "table": "holding", "address": 0}}}
                          for unit in (1, 2)}}
    path = tmp_path / "rtu.yaml"
    path.write_text(yaml.safe_dump(config))
    sim = sim_runner.start(path)
    status = sim.status()
    pty = status["u1"]["path"]
    assert pty.startswith("/dev/pts/") and status["u2"]["path"] == pty
    assert os.readlink(link) == pty
    assert f"u1 (modbus) rtu {pty} (linked at {link}) unit 1" in sim.output
    assert sim.terminate() == 0
    assert not link.exists() and not link.is_symlink()
    assert not sim.control.exists()


def test_busy_port_is_a_clear_error(sim_runner: SimRunner, tmp_path: Path) -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "hermes_tools.sim", "--config",
                               str(_plant(tmp_path, port)), "--control",
                               str(tmp_path / "s.sock")],
                              capture_output=True, text=True, timeout=30, check=False)
    assert done.returncode == 69
    assert "cannot serve" in done.stderr and "Traceback" not in done.stderr


def test_bad_config_is_refused_like_hermesd_does(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("node: {id: n}\ndevices: {plc: {driver: modbus, host: h, prot: 5}}\n")
    done = subprocess.run([sys.executable, "-m", "hermes_tools.sim", "--config", str(bad)],
                          capture_output=True, text=True, timeout=30, check=False)
    assert done.returncode == 78
    assert "config error: devices.plc.prot: unknown key (did you mean 'port'?)" in done.stderr


def test_ctl_without_a_simulator(tmp_path: Path) -> None:
    done = _ctl(tmp_path / "none.sock", "status")
    assert done.returncode == 69 and "cannot reach the simulator" in done.stderr


def test_default_control_socket_is_per_user_and_never_taken_over(sim_runner: SimRunner,
                                                                 tmp_path: Path) -> None:
    env = {**os.environ, "XDG_RUNTIME_DIR": str(tmp_path)}
    env.pop("HERMES_SIM_CONTROL", None)
    default = tmp_path / f"hermes-sim-{os.getuid()}.sock"
    sim = sim_runner.start(_plant(tmp_path, free_port()))  # (on its own --control path)
    os.symlink(sim.control, default)  # a running simulator answers on the default path
    done = subprocess.run([sys.executable, "-m", "hermes_tools.sim", "ctl", "status"],
                          capture_output=True, text=True, timeout=20, check=False, env=env)
    assert done.returncode == 0 and "plc1: tcp" in done.stdout
    second = subprocess.run([sys.executable, "-m", "hermes_tools.sim", "--config",
                             str(_plant(tmp_path, free_port()))],
                            capture_output=True, text=True, timeout=30, check=False, env=env)
    assert second.returncode == 69 and "another hermes-sim answers on" in second.stderr
    assert default.is_symlink() and sim.status()["plc1"]["dropped"] is False


def test_dev_plant_file_itself_is_simulated(tmp_path: Path) -> None:
    """The shared plant-dev.yaml, unchanged, is a config hermes-sim simulates completely."""
    from hermes_tools.sim import build

    from hermesd.config import load_config

    sims, missing = build(load_config(DEV_PLANT))
    assert [s.driver for s in sims] == ["modbus", "mqtt", "serial"] and missing == []
    assert [sorted(s.status()) for s in sims] == [["plc1"], ["yard"], ["scale1"]]
