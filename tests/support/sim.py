"""Run `hermes-sim` as a real process for a test, and talk to its control socket.

`SimRunner.start(config_path)` returns once the simulator printed `ready` (a condition on its
output, not a sleep); `ctl(op, **fields)` sends one control request and fails the test on an
error answer.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hermes_tools.sim.control import request

from tests.support.until import until_sync


class RunningSim:
    def __init__(self, proc: subprocess.Popen[str], control: Path, out: Path) -> None:
        self.proc = proc
        self.control = control
        self.out = out

    @property
    def output(self) -> str:
        return self.out.read_text(errors="replace")

    def ctl(self, op: str, **fields: Any) -> dict[str, Any]:
        answer = request(self.control, {"op": op, **fields})
        assert answer["ok"], answer
        return answer

    def status(self) -> dict[str, Any]:
        return dict(self.ctl("status")["devices"])

    def requests(self, device: str, kind: str = "write") -> int:
        return int(self.status()[device]["requests"].get(kind, 0))

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def terminate(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(timeout=10)


class SimRunner:
    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.sims: list[RunningSim] = []

    def start(self, config: Path, *extra: str, timeout: float = 20.0) -> RunningSim:
        n = len(self.sims)
        control = self.tmp / f"sim{n}.sock"
        out = self.tmp / f"sim{n}.out"
        with open(out, "w") as sink:
            proc = subprocess.Popen(
                [sys.executable, "-m", "hermes_tools.sim", "--config", str(config),
                 "--control", str(control), "--seed", "7", *extra],
                stdout=sink, stderr=subprocess.STDOUT, text=True,
                env={**os.environ, "PYTHONUNBUFFERED": "1"})
        sim = RunningSim(proc, control, out)
        self.sims.append(sim)

        def gone() -> str | None:
            code = proc.poll()
            return None if code is None else f"hermes-sim exited with {code}:\n{sim.output}"

        try:
            until_sync(lambda: "ready; control socket" in sim.output, timeout, "hermes-sim",
                       gone=gone)
        except TimeoutError:
            raise RuntimeError(f"hermes-sim did not get ready:\n{sim.output}") from None
        return sim

    def cleanup(self) -> None:
        for sim in self.sims:
            sim.kill()


@pytest.fixture
def sim_runner(tmp_path: Path) -> Iterator[SimRunner]:
    runner = SimRunner(tmp_path)
    yield runner
    runner.cleanup()
