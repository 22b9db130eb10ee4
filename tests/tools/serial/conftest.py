"""Fixtures: a simulator process per test, stopped (and waited for) whatever the test did."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.tools.serial.harness import SimProcess, write_config

StartSim = Callable[..., tuple[SimProcess, Path]]


@pytest.fixture
def start_sim(tmp_path: Path) -> Iterator[StartSim]:
    """start_sim(config_dict, *sim_args) -> (running simulator, config path)."""
    sims: list[SimProcess] = []

    def start(config: dict[str, Any], *args: str, name: str = "plant.yaml",
              run: bool = True) -> tuple[SimProcess, Path]:
        path = write_config(tmp_path / name, config)
        sim = SimProcess(path, *args)
        sims.append(sim)
        if run:
            sim.start()
        return sim, path

    yield start
    for sim in sims:
        sim.stop()


@pytest.fixture
def by_id(tmp_path: Path) -> Path:
    """A directory standing in for /dev/serial/by-id."""
    path = tmp_path / "by-id"
    path.mkdir()
    return path
