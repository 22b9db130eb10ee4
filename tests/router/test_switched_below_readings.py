"""A switching command is offered the run command even where readings outrank it.

"stop unit one", on a plant whose unit 1 has a dozen readings and statuses named as it is
(KKS codes, "Unit 1 …" in the descriptions), ranked the readings first and the run command
sixth: the model was offered only the read-only "Unit running" to write, and wrote it (blind
batch 44). Where no candidate can be written, the points that can be written and fit the
command nearly as well are offered too; the check holds the pick to the words as ever."""

from __future__ import annotations

from dataclasses import replace

from hermesd.answer import Action
from hermesd.router import Router
from hermesd.router.model_stage import ModelStage
from hermesd.router.rules import Analysis
from tests.support.plants import NoWorker, exec_devices


def _unit(n: int) -> dict[str, dict[str, object]]:
    def reading(code: str, what: str, unit: str) -> dict[str, object]:
        return {"name": f"{n}{code} {what}", "unit": unit, "description": f"Unit {n} {what}"}
    return {
        f"u{n}_speed": reading("MKA10CS001", "speed", "rpm"),
        f"u{n}_power": reading("MKA10CE001", "active power", "MW"),
        f"u{n}_reactive": reading("MKA10CE002", "reactive power", "Mvar"),
        f"u{n}_vane": reading("MEA10CG001", "guide vane opening", "%"),
        f"u{n}_bearing": reading("MEA20CT001", "thrust bearing temperature", "°C"),
        f"u{n}_stator": reading("MKA20CT001", "stator temperature", "°C"),
        f"u{n}_running": {"name": f"{n}MEY01EE002 Unit running", "type": "bool",
                          "description": f"Unit {n} running feedback"},
        f"u{n}_run_cmd": {"name": f"{n}MEY01EE001 Unit run command", "type": "bool",
                          "writable": True,
                          "description": f"Unit {n} start/stop sequence"},
    }


CONFIG = exec_devices("hydro", {"unit1": _unit(1), "unit2": _unit(2)})
ROUTER = Router(CONFIG)


def _offered(text: str) -> tuple[ModelStage, Analysis, set[str]]:
    a = ROUTER.rules.analyse(text)
    judged = ROUTER.semantic.judge(a)
    a = replace(a, scored=[(f.score, f.point) for f in judged.fits], plural=judged.plural)
    stage = ModelStage(CONFIG, NoWorker())
    return stage, a, {c.line for c in stage.offer(a) if c.name == "write"}


def test_the_run_command_is_offered_to_stop_the_unit() -> None:
    stage, a, writes = _offered("stop unit one")
    assert "write u1_run_cmd off" in writes, writes
    # ...and the check lets the model's pick of it through, not of unit 2's
    action = Action("write", {"point": "u1_run_cmd", "value": False})
    assert stage.check(a, action) == action
    other = stage.check(a, Action("write", {"point": "u2_run_cmd", "value": False}))
    assert other.name == "respond", other


def test_a_question_is_offered_no_write() -> None:
    assert not _offered("is unit 2 running")[2]
