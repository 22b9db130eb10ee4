"""The broker restarts mid-run: hermesd reconnects, subscribes and announces again within 5 s,
and a requester that retries unanswered requests by id loses none and runs none twice."""

from __future__ import annotations

import contextlib
import json
import time
from pathlib import Path
from typing import Any

from tests.mqtt.expected_plant import FAKED_DRIVERS, B, all_configs
from tests.support.daemon import DaemonRunner
from tests.support.mosquitto import Mosquitto, MqttClient, Received, retained_snapshot
from tests.support.plant import faked_plant
from tests.support.until import until_sync

COMMANDS = 24
RESTART_AFTER = 8
RETRY_AFTER = 1.5  # seconds a requester waits for an answer before sending the request again


def test_broker_restart_loses_nothing_and_runs_nothing_twice(daemon_runner: DaemonRunner,
                                                             tmp_path: Path) -> None:
    broker = Mosquitto(tmp_path / "broker").start()
    try:
        _scenario(daemon_runner, broker)
    finally:
        broker.stop()


def _scenario(runner: DaemonRunner, broker: Mosquitto) -> None:
    config = faked_plant(runner.tmp / "state", runner.runtime / "run", broker.port)
    config["mqtt"]["command_role"] = "engineer"
    config["access"]["roles"]["engineer"]["writes_per_minute"] = 1000
    # each write takes a while, so some are running when the broker goes away
    config["devices"]["plc1"]["points"]["conveyor_speed"]["params"]["delay"] = 0.15
    d = runner.start(config)
    answers: dict[str, list[dict[str, Any]]] = {}

    def on_answer(client: MqttClient, msg: Received) -> None:
        if msg.topic != f"{B}/response":
            return
        body = json.loads(msg.payload)
        answers.setdefault(str(body.get("id")), []).append(body)

    with MqttClient(broker.port, client_id="requester",
                    subscribe=(f"{B}/response", f"{B}/availability")) as requester:
        requester.handlers.append(on_answer)
        requester.wait_topic(f"{B}/availability", lambda m: m.payload == b"online")
        last_sent: dict[str, float] = {}

        def send(n: int, wait: bool = False) -> None:
            rid = f"r{n}"
            text = f"set line a conveyor speed to {n + 1}"
            requester.publish(f"{B}/command", json.dumps({"text": text, "id": rid}), wait=wait)
            last_sent[rid] = time.monotonic()

        for n in range(RESTART_AFTER):
            send(n, wait=True)  # the broker has them (and has passed them on to hermesd) ...
        broker.restart()  # ... and goes away while their writes are still running

        # reconnected, subscribed again and announced again, within 5 s of the broker's return
        expected = set(all_configs(FAKED_DRIVERS, "engineer"))
        d.wait_until(lambda: expected <= set(retained_snapshot(broker.port, ("homeassistant/#",))),
                     timeout=5.0, what="every discovery config on the fresh broker")
        snap = retained_snapshot(broker.port, (f"{B}/#",))
        assert snap[f"{B}/availability"] == b"online"
        assert snap[f"{B}/plc1/availability"] == b"online"

        for n in range(RESTART_AFTER, COMMANDS):
            send(n)
        deadline = time.monotonic() + 30
        while len(answers) < COMMANDS:
            assert time.monotonic() < deadline, f"unanswered: {set(last_sent) - set(answers)}"
            for rid, at in list(last_sent.items()):
                if rid not in answers and time.monotonic() - at > RETRY_AFTER \
                        and requester.connected.is_set():
                    send(int(rid[1:]))  # the same request, the same id: a retry
            with contextlib.suppress(TimeoutError):  # a requester's pause before it retries
                until_sync(lambda: len(answers) >= COMMANDS, 0.3)

    for n in range(COMMANDS):
        first = answers[f"r{n}"][0]
        assert first["status"] == "ok", first
        assert first["result"]["value"] == n + 1
    audit = [json.loads(line) for line in (d.state_dir / "audit.jsonl").read_text().splitlines()]
    written = [r["action"]["args"]["value"] for r in audit
               if r["phase"] == "intent" and r["action"]["name"] == "write"]
    assert sorted(written) == [float(n + 1) for n in range(COMMANDS)]  # each exactly once
    assert d.status()["tools"]["mqtt"]["restarts"] == 0
    # (the link's state reaches the daemon's status a moment after the answers may: on a busy
    # machine a fresh clone's run saw it not yet connected)
    until_sync(lambda: d.status()["mqtt"]["connected"] is True, 10.0, "the MQTT link back up")

