"""The mqtt tool's broker link: user/password, TLS (server and mutual), MQTT 3.1.1, and the
persisted outbox that keeps an answer through a broker outage and a restart of the tool."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path
from typing import Any

from tests.support.daemon import DaemonRunner, RunningDaemon, base_config, fake_device
from tests.support.mosquitto import (
    Mosquitto,
    MqttClient,
    make_password_file,
    make_pki,
)
from tests.support.ports import free_port

B = "hermesd/test-node"


def _config(port: int, **mqtt: Any) -> dict[str, Any]:
    return base_config({"oven": fake_device({
        "oven_temp": {"name": "Oven temperature", "type": "float", "unit": "°C",
                      "params": {"value": 180.5}},
        "fan_speed": {"name": "Fan speed", "type": "int", "writable": True, "min": 0,
                      "max": 3000, "params": {"value": 1200, "delay": 1.0}},
    })}, mqtt={"host": "127.0.0.1", "port": port, "command_role": "viewer", **mqtt})


def _connected(d: RunningDaemon) -> None:
    d.wait_until(lambda: d.status()["mqtt"]["connected"], what="the broker connection")


def _ask_over_mqtt(port: int, **client: Any) -> dict[str, Any]:
    with MqttClient(port, client_id="asker", subscribe=(f"{B}/response",), **client) as c:
        c.publish(f"{B}/command", json.dumps({"text": "read oven temperature", "id": "t"}))
        return dict(json.loads(c.wait_topic(f"{B}/response").payload))


def test_user_and_password_from_a_file(daemon_runner: DaemonRunner, tmp_path: Path) -> None:
    pwfile = make_password_file(tmp_path / "passwd", "agent", "s3cret")
    extra = f"allow_anonymous false\npassword_file {pwfile}\n"
    with Mosquitto(tmp_path / "broker", extra=extra) as broker:
        secret = tmp_path / "mqtt-password"
        secret.write_text("s3cret\n")
        d = daemon_runner.start(_config(broker.port, username="agent",
                                        password_file=str(secret)))
        _connected(d)
        answer = _ask_over_mqtt(broker.port, username="agent", password="s3cret")
        assert answer["status"] == "ok" and answer["result"]["value"] == 180.5
        assert "s3cret" not in d.log  # the secret is read by the tool, never passed around

        secret.write_text("wrong\n")
        os.kill(d.running_tool_pid("mqtt"), signal.SIGKILL)  # restarts and reads it afresh
        d.wait_until(lambda: "Not authorized" in (d.status()["mqtt"]["reason"] or ""),
                     what="the refusal shown in status")
        assert d.status()["tools"]["mqtt"]["state"] == "running"  # it keeps trying, calmly


def test_a_missing_password_file_is_a_clear_error(daemon_runner: DaemonRunner,
                                                   tmp_path: Path) -> None:
    pwfile = make_password_file(tmp_path / "passwd", "agent", "s3cret")
    with Mosquitto(tmp_path / "broker",
                   extra=f"allow_anonymous false\npassword_file {pwfile}\n") as broker:
        secret = tmp_path / "mqtt-password"
        config = _config(broker.port, username="agent", password_file=str(secret))
        d = daemon_runner.start(config, ready_timeout=5)  # hermesd does not wait for MQTT
        d.wait_until(lambda: "cannot read mqtt.password_file" in
                     (d.status()["mqtt"]["reason"] or ""), what="the error in status")
        assert d.status()["tools"]["mqtt"]["state"] == "running"
        secret.write_text("s3cret\n")  # the tool tries it again by itself, every few seconds
        _connected(d)


def _tls_broker(tmp_path: Path) -> tuple[Mosquitto, int, int, Any]:
    pki = make_pki(tmp_path / "pki")
    server, mutual = free_port(), free_port()
    extra = (f"listener {server} 127.0.0.1\ncafile {pki.ca}\ncertfile {pki.server_cert}\n"
             f"keyfile {pki.server_key}\n"
             f"listener {mutual} 127.0.0.1\ncafile {pki.ca}\ncertfile {pki.server_cert}\n"
             f"keyfile {pki.server_key}\nrequire_certificate true\n")
    return Mosquitto(tmp_path / "broker", extra=extra), server, mutual, pki


def test_tls_with_a_ca_and_with_a_client_certificate(daemon_runner: DaemonRunner,
                                                     tmp_path: Path) -> None:
    broker, server, mutual, pki = _tls_broker(tmp_path)
    with broker:
        d = daemon_runner.start(_config(server, tls={"ca": str(pki.ca)}))
        _connected(d)
        assert _ask_over_mqtt(broker.port)["result"]["value"] == 180.5  # plain listener, same broker
        assert d.terminate() == 0

        d = daemon_runner.start(_config(mutual, client_id="hermesd-mtls", tls={
            "ca": str(pki.ca), "cert": str(pki.client_cert), "key": str(pki.client_key)}))
        _connected(d)
        assert "New client connected" in broker.log and "hermesd-mtls" in broker.log
        assert d.terminate() == 0

        d = daemon_runner.start(_config(mutual, client_id="hermesd-no-cert",
                                        tls={"ca": str(pki.ca)}))
        d.wait_until(lambda: d.status()["mqtt"]["reason"], what="a reason for not connecting")
        assert d.status()["mqtt"]["connected"] is False


def test_mqtt_3_1_1(daemon_runner: DaemonRunner, tmp_path: Path) -> None:
    with Mosquitto(tmp_path / "broker") as broker:
        d = daemon_runner.start(_config(broker.port, protocol="3.1.1"))
        _connected(d)
        answer = _ask_over_mqtt(broker.port, v5=False)
        assert answer["id"] == "t" and answer["result"]["value"] == 180.5


def test_an_answer_survives_a_broker_outage_and_a_tool_restart(daemon_runner: DaemonRunner,
                                                               tmp_path: Path) -> None:
    broker = Mosquitto(tmp_path / "broker", persistence=True).start()
    try:
        # a requester whose session (and queue) the broker keeps across its restart
        with MqttClient(broker.port, client_id="patient", subscribe=(f"{B}/response",),
                        v5=False, clean=False) as requester:
            d = daemon_runner.start(_config(broker.port, command_role="operator"))
            _connected(d)
            requester.publish(f"{B}/command",
                              json.dumps({"text": "set fan speed to 1500", "id": "slow"}))
            d.wait_until(lambda: d.status()["mqtt"]["requests"]["inflight"] == 1,
                         what="the slow write under way")
            broker.stop()
            outbox = d.state_dir / "mqtt-outbox.json"
            d.wait_until(lambda: outbox.exists() and f"{B}/response" in outbox.read_text(),
                         what="the answer saved in the outbox")
            tool = d.running_tool_pid("mqtt")
            os.kill(tool, signal.SIGKILL)
            d.running_tool_pid("mqtt", not_pid=tool)
            assert "1 unsent message(s) taken back" in d.log
            broker.start()
            got = requester.wait_topic(f"{B}/response", timeout=20)
            answer = json.loads(got.payload)
            assert answer["id"] == "slow" and answer["status"] == "ok"
            assert answer["result"]["value"] == 1500
            d.wait_until(lambda: json.loads(outbox.read_text())["messages"] == [],
                         what="the outbox emptied once the broker had it")
            assert len(requester.on(f"{B}/response")) == 1
    finally:
        broker.stop()
