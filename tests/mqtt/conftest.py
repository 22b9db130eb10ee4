"""A real Mosquitto broker per test, and a client that watches hermesd's and HA's topics."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.mosquitto import Mosquitto, MqttClient


@pytest.fixture
def watcher(broker: Mosquitto) -> Iterator[MqttClient]:
    with MqttClient(broker.port, client_id="watcher",
                    subscribe=("hermesd/#", "homeassistant/#", "plant/#")) as client:
        yield client
