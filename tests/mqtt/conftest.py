"""A real Mosquitto broker per test, and a client that watches hermesd's and HA's topics."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.mosquitto import Mosquitto, MqttClient


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Mosquitto]:
    with Mosquitto(tmp_path / "broker") as running:
        yield running


@pytest.fixture
def watcher(broker: Mosquitto) -> Iterator[MqttClient]:
    with MqttClient(broker.port, client_id="watcher",
                    subscribe=("hermesd/#", "homeassistant/#", "plant/#")) as client:
        yield client
