"""Review rv22b: failing tests of the model stage's second choice (0c507ec, 4461f0b).

Each test is a plain statement of what should happen; the worker is scripted (what the model
picks is the input, the stage's check and second asking are under test).
"""

from __future__ import annotations

from typing import Any

import pytest

from hermesd.answer import Action
from hermesd.context import RequestContext
from hermesd.core.errors import ErrorCode, Timeout, ToolError
from hermesd.router.model_stage import ModelStage
from tests.router.test_what_a_read_answers import PLANTS, handed_on


class Script:
    """A worker answering the given lines (or raising the given errors) in turn."""

    state = "ready"

    def __init__(self, *lines: str | Exception) -> None:
        self.lines = list(lines)
        self.calls: list[dict[str, Any]] = []
        self.killed: list[str] = []

    async def call(self, action: str, args: dict[str, Any], timeout: float) -> Any:
        assert action == "complete"
        self.calls.append(args)
        line = self.lines.pop(0)
        if isinstance(line, Exception):
            raise line
        return {"text": line, "finish_reason": "stop", "eval_ms": 0.0, "generate_ms": 0.0}

    def kill(self, reason: str) -> None:
        self.killed.append(reason)


async def _decided(plant: str, text: str, worker: Script) -> Action:
    _, a = handed_on(plant, text)
    routed = await ModelStage(PLANTS[plant], worker)(
        RequestContext.make("control", "operator"), text, a)
    assert routed is not None
    return routed.action


# `_the_one_left` refuses to read the one candidate left when the command says a role the
# point is not ("gradient", "deviation", "offset": what the plant has no point for); those
# tests (test_what_a_read_answers) pass only because their fake model repeats its first line,
# which the second grammar no longer offers. A model asked again without the setpoint picks
# the one left — the measurement — and the check, which never looked at roles, lets it
# through: a confidently wrong read of the system pressure for its gradient. The second choice
# undoes exactly the guard `_the_one_left` added.
@pytest.mark.parametrize(("plant", "text", "first", "second"), [
    ("hydraulics", "what's the system pressure gradient", "system_pressure_sp",
     "system_pressure"),
    ("hydraulics", "what is the system pressure deviation", "system_pressure_sp",
     "system_pressure"),
    ("hydraulics", "system pressure ripple", "system_pressure_sp", "system_pressure"),
    ("hydraulics", "what's the system pressure error", "system_pressure_sp",
     "system_pressure"),
    ("compressed_air", "what's the header pressure offset", "header_pressure_sp",
     "header_pressure"),
    # the same in Chinese (system pressure gradient), the model first picking the cooler fan
    ("hydraulics", "系统压力梯度", "cooler_fan", "system_pressure"),
])
async def test_the_second_choice_does_not_read_what_the_one_left_guard_refused(
        plant: str, text: str, first: str, second: str) -> None:
    action = await _decided(plant, text, Script(f"read {first}", f"read {second}"))
    assert action.name == "respond" and action.args["reason"] == "unknown_point", action


# The first read was refused (a right refusal: the plant has no pressure gradient); the second
# asking then runs out of time. The command should still answer the refusal it had, not
# TIMEOUT — and the worker should not be killed and restarted (model load + prefix + warm-up,
# during which every command is answered by the rules alone) for a question that already had
# its answer. The second call's budget is min(llm.timeout, what is left of the request), so a
# slow first call leaves the second one almost nothing: this is reachable without any fault.
async def test_a_second_asking_that_times_out_leaves_the_first_refusal() -> None:
    worker = Script("read system_pressure_sp", Timeout("late"))
    action = await _decided("hydraulics", "what's the system pressure gradient", worker)
    assert action.name == "respond" and action.args["reason"] == "unknown_point", action


async def test_a_second_asking_that_finds_the_worker_busy_leaves_the_first_refusal() -> None:
    worker = Script("read system_pressure_sp", ToolError(ErrorCode.BUSY, "busy"))
    action = await _decided("hydraulics", "what's the system pressure gradient", worker)
    assert action.name == "respond" and action.args["reason"] == "unknown_point", action
