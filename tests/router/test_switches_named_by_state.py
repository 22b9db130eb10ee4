"""Switches and numbered things as operators name them, on a car park's barriers, blowers and
dosing made up here (found on a blind road-tunnel plant of batch 7):

- a switch named by the state it puts a thing in ("Barrier 1 closed") is set by the verb of that
  state and cleared by the verb of the other: "close barrier 1" is on, "reopen barrier 1" off,
  while on/off words still say the switch itself;
- "run" a machine is to start it;
- a Chinese ordinal numbers the thing after characters no dictionary knows ("二号罗茨风机" is
  blower 2 of a kind unknown here, not a 2 standing alone).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from hermesd.answer import Action
from hermesd.context import RequestContext
from hermesd.router import Router
from hermesd.router.model_stage import ModelStage
from hermesd.router.normalize import tokens
from tests.support.plants import NoWorker, modbus_plant, model_read_checked, routed

CONFIG = modbus_plant({
    "barrier1_closed": {"name": "Barrier 1 closed", "table": "coil", "address": 0,
                        "writable": True},
    "barrier2_closed": {"name": "Barrier 2 closed", "table": "coil", "address": 1,
                        "writable": True},
    "dosing_disabled": {"name": "Salt dosing disabled", "table": "coil", "address": 2,
                        "writable": True},
    "drain_pump1": {"name": "Drain pump 1", "table": "coil", "address": 3, "writable": True},
    "drain_pump2": {"name": "Drain pump 2", "table": "coil", "address": 4, "writable": True},
    "blower1": {"name": "Blower 1", "table": "coil", "address": 5, "writable": True},
    "blower2": {"name": "Blower 2", "table": "coil", "address": 6, "writable": True},
    "sump_level": {"name": "Sump level", "unit": "%", "table": "input", "address": 0,
                   "type": "float32"},
})
ROUTER = Router(CONFIG)


async def _route(text: str) -> dict[str, Any]:
    return await routed(ROUTER, text, "engineer")


@pytest.mark.parametrize(("text", "point", "value"), [
    ("close barrier one", "barrier1_closed", True),
    ("shut barrier 2", "barrier2_closed", True),
    ("reopen barrier 2", "barrier2_closed", False),
    ("open barrier 1", "barrier1_closed", False),
    ("switch off barrier 1 closed", "barrier1_closed", False),
    ("switch barrier 2 closed on", "barrier2_closed", True),
    ("disable the salt dosing", "dosing_disabled", True),
    ("enable salt dosing", "dosing_disabled", False),
    ("run drain pump 2", "drain_pump2", True),
])
async def test_the_verb_of_the_state_a_switch_is_named_by(text: str, point: str,
                                                          value: bool) -> None:
    assert await _route(text) == {"name": "write", "args": {"point": point, "value": value}}


async def test_a_state_verb_beside_on_or_off_is_no_value() -> None:
    # "close barrier 1 off": both the state's verb and off; nothing is written
    answer = await _route("close barrier 1 off")
    assert answer["name"] != "write", answer


async def test_running_asked_is_still_a_read() -> None:
    assert await _route("is drain pump 2 running") == {"name": "read",
                                                        "args": {"point": "drain_pump2"}}


@pytest.mark.parametrize(("text", "want"), [
    ("启动二号罗茨风机", ["start", "罗", "茨", "fan", "2"]),
    ("关闭2号罗茨风机", ["close", "罗", "茨", "fan", "2"]),
    ("打开二号仓下料阀", ["open", "silo", "2", "下", "料", "valve"]),  # not past the silo
])
def test_a_chinese_ordinal_numbers_the_thing_past_unknown_characters(text: str,
                                                                    want: list[str]) -> None:
    assert [t.text for t in tokens(text)] == want


def test_the_numbered_blower_is_the_one_said_in_chinese() -> None:
    # the model's read of blower 2 stands (the number says which); of blower 1 it does not
    said = "二号罗茨风机开着吗"
    assert model_read_checked(ROUTER, CONFIG, said, "blower2").name == "read"
    assert model_read_checked(ROUTER, CONFIG, said, "blower1").name == "respond"


KILNS = modbus_plant({
    f"zone{n}_sp": {"name": f"Kiln zone {n} temperature setpoint", "aliases": [f"{alias} setpoint"],
                    "unit": "°C", "table": "holding", "address": 2 * n, "type": "float32",
                    "writable": True, "min": 100, "max": 1300}
    for n, alias in ((1, "drying zone"), (2, "firing zone"), (3, "cooling zone"))
})
KILN_ROUTER = Router(KILNS)


@pytest.mark.parametrize(("text", "point"), [
    ("set the firing zone to 1240", "zone2_sp"),
    ("bring the drying zone setpoint down to nine fifty", "zone1_sp"),
])
async def test_a_word_of_one_of_several_named_alike_says_which(text: str, point: str) -> None:
    # zones 1-3 are named alike but for their numbers; an alias word names one of them
    assert await routed(KILN_ROUTER, text, "engineer") == {
        "name": "write", "args": {"point": point, "value": 1240 if "1240" in text else 950}}
    assert model_read_checked(KILN_ROUTER, KILNS, text, point).name == "read"


async def test_no_word_of_one_of_them_still_asks_which() -> None:
    answer = await routed(KILN_ROUTER, "set the zone setpoint to 1100", "engineer")
    assert answer["name"] == "respond", answer
    checked = model_read_checked(KILN_ROUTER, KILNS, "what's the zone setpoint", "zone1_sp")
    assert checked.name == "respond", checked


TANKS = modbus_plant({
    f"tank{n}_temp": {"name": f"Tank {n} temperature", "unit": "°C", "table": "input",
                      "address": 2 * n, "type": "float32"} for n in (1, 2, 3)
} | {"tank_hall_co2": {"name": "Tank hall CO2", "unit": "ppm", "table": "input",
                       "address": 10, "type": "float32"}})


async def test_numbers_no_one_can_read_are_no_sure_read_of_the_last() -> None:
    # "one two" is no number anyone says: never a sure read of tank 3 alone; the semantic stage
    # reads the three tanks the words name
    answer = await routed(Router(TANKS), "temps on tanks one two and three", "engineer")
    assert answer == {"name": "read",
                      "args": {"points": ["tank1_temp", "tank2_temp", "tank3_temp"]}}


LINE = modbus_plant({
    "kiln_fan": {"name": "Kiln exhaust fan", "table": "coil", "address": 0, "writable": True},
    "hall_light": {"name": "Hall lighting level", "unit": "%", "table": "holding",
                   "address": 0, "type": "float32", "writable": True, "min": 0, "max": 100},
    "shear_misfeed": {"name": "Shear misfeed alarm", "table": "discrete", "address": 0},
    "shear_speed": {"name": "Shear speed", "unit": "m/min", "table": "input", "address": 0,
                    "type": "float32"},
})
LINE_ROUTER = Router(LINE)


@pytest.mark.parametrize("text", ["kiln exhaust fan on or off", "kiln exhaust fan running or stopped"])
async def test_one_state_or_the_other_is_asked(text: str) -> None:
    assert await routed(LINE_ROUTER, text, "engineer") == {"name": "read",
                                                           "args": {"point": "kiln_fan"}}


@pytest.mark.parametrize(("text", "value"), [("dim the hall lighting to forty percent", 40),
                                             ("brighten the hall lighting to 80 %", 80)])
async def test_dim_and_brighten_to_a_level_set_it(text: str, value: int) -> None:
    assert await routed(LINE_ROUTER, text, "engineer") == {
        "name": "write", "args": {"point": "hall_light", "value": value}}


@pytest.mark.parametrize("text", ["is there a misfeed?", "misfeed?"])
def test_a_word_of_one_point_alone_is_that_point_for_the_model(text: str) -> None:
    # no word the lexicon knows, but one only the shear misfeed alarm is named by and nothing
    # else: the model chooses among the candidates, with no refusal offered
    stage = ModelStage(LINE, NoWorker())
    a = LINE_ROUTER.rules.analyse(text)
    judged = LINE_ROUTER.semantic.judge(a)
    a = replace(a, scored=[(f.score, f.point) for f in judged.fits], plural=judged.plural)
    offered = [c.line for c in stage.offer(a)]
    assert offered[0] == "read shear_misfeed" and not any(o.startswith("respond") for o in offered)


def test_a_word_of_one_point_beside_what_it_does_not_say_may_be_refused() -> None:
    stage = ModelStage(LINE, NoWorker())
    a = LINE_ROUTER.rules.analyse("what's the misfeed count")
    judged = LINE_ROUTER.semantic.judge(a)
    a = replace(a, scored=[(f.score, f.point) for f in judged.fits], plural=judged.plural)
    assert any(c.line.startswith("respond") for c in stage.offer(a))


CELLAR = modbus_plant({
    "vat2_temp": {"name": "Vat 2 temperature", "unit": "°C", "table": "input", "address": 0,
                  "type": "float32"},
    "vat2_sugar": {"name": "Vat 2 sugar", "unit": "°Bx", "table": "input", "address": 2,
                   "type": "float32"},
    "vat2_temp_sp": {"name": "Vat 2 temperature setpoint", "unit": "°C", "table": "holding",
                     "address": 0, "type": "float32", "writable": True, "min": 4, "max": 30},
    "cellar_co2": {"name": "Cellar CO2 concentration", "unit": "ppm", "table": "input",
                   "address": 4, "type": "float32"},
    "cellar_co2_alarm": {"name": "Cellar CO2 alarm", "table": "discrete", "address": 0},
})
CELLAR_ROUTER = Router(CELLAR)


async def test_a_word_with_s_is_the_word() -> None:
    # "warm's" is "warm is": a temperature, not an unknown word
    assert await routed(CELLAR_ROUTER, "how warm's vat 2", "engineer") == {
        "name": "read", "args": {"point": "vat2_temp"}}


def test_a_measure_asked_is_no_read_of_an_alarm() -> None:
    # the alarm is of the CO2, but says no level of it; the concentration does
    said = "co2 level in the cellar"
    assert model_read_checked(CELLAR_ROUTER, CELLAR, said, "cellar_co2_alarm").name == "respond"
    assert model_read_checked(CELLAR_ROUTER, CELLAR, said, "cellar_co2").name == "read"
    # ...while the alarm asked of is its own
    asked = "has the cellar co2 alarm tripped"
    assert model_read_checked(CELLAR_ROUTER, CELLAR, asked, "cellar_co2_alarm").name == "read"


async def test_what_we_are_aiming_for_is_the_setpoint() -> None:
    assert model_read_checked(CELLAR_ROUTER, CELLAR, "what vat 2 temperature are we aiming for",
                              "vat2_temp").name == "respond"


def test_a_machine_named_like_a_measure_is_no_measure_asked() -> None:
    # a "press" is a machine as often as a pressure: asking about it is no measure
    presses = modbus_plant({
        "auto_mode": {"name": "Automatic mode", "table": "discrete", "address": 0},
        "inj_pressure": {"name": "Injection pressure", "unit": "bar", "table": "input",
                         "address": 0, "type": "float32"},
        "screw_rpm": {"name": "Screw speed", "unit": "rpm", "table": "input", "address": 2,
                      "type": "float32"}})
    assert model_read_checked(Router(presses), presses, "is the press in auto",
                              "auto_mode").name == "read"


VATS = modbus_plant({
    "vat2_temp": {"name": "Vat 2 temperature", "unit": "°C", "table": "input", "address": 0,
                  "type": "float32"},
    "vat2_jacket_temp": {"name": "Vat 2 jacket temperature", "unit": "°C", "table": "input",
                         "address": 2, "type": "float32"},
    "vat2_sugar": {"name": "Vat 2 sugar", "unit": "°Bx", "table": "input", "address": 4,
                   "type": "float32"},
})


class Scripted:
    """A worker whose model answers the given lines in turn (what the model picks is the
    input here; the stage's check and second asking are under test); it keeps the grammars."""

    state = "ready"

    def __init__(self, *lines: str) -> None:
        self.lines = list(lines)
        self.grammars: list[str] = []

    async def call(self, action: str, args: dict[str, Any], timeout: float) -> Any:
        assert action == "complete"
        self.grammars.append(args["grammar"])
        return {"text": self.lines.pop(0), "finish_reason": "stop", "eval_ms": 0.0,
                "generate_ms": 0.0}

    def kill(self, reason: str) -> None:
        raise AssertionError("no kill expected")


async def _asked(text: str, worker: Scripted) -> Action:
    router = Router(VATS)
    a = router.rules.analyse(text)
    judged = router.semantic.judge(a)
    a = replace(a, scored=[(f.score, f.point) for f in judged.fits], plural=judged.plural)
    routed = await ModelStage(VATS, worker)(RequestContext.make("control", "operator"), text, a)
    assert routed is not None
    return routed.action


async def test_a_refused_pick_is_asked_again_without_it() -> None:
    # the sugar is no temperature: refused; two temperatures are left, so the model is asked
    # once more, without the sugar and with a refusal it may give
    worker = Scripted("read vat2_sugar", "read vat2_temp")
    assert await _asked("how warm is vat 2", worker) == Action("read", {"point": "vat2_temp"})
    assert len(worker.grammars) == 2
    assert "vat2_sugar" not in worker.grammars[1] and "respond" in worker.grammars[1]


async def test_a_second_refusal_leaves_the_first_standing() -> None:
    worker = Scripted("read vat2_sugar", "respond unknown_point")
    action = await _asked("how warm is vat 2", worker)
    assert action.name == "respond" and action.args.get("model") == "read vat2_sugar", action


@pytest.mark.parametrize("text", ["start the conveyor", "stop the conveyor", "run the conveyor"])
async def test_start_or_stop_of_a_stop_button_is_asked_back(text: str) -> None:
    plant = modbus_plant({"stop_button": {"name": "Conveyor stop button", "table": "coil",
                                          "address": 0, "writable": True}})
    answer = await routed(Router(plant), text, "engineer")
    assert answer["name"] != "write", answer
