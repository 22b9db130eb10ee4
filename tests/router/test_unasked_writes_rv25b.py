"""The third review's findings (tests/data/attacks/rv25b.jsonl), against the write gate as the
second review left it: look-alike quotes, colons, minus signs and line breaks, state pairs with
a word after them, contractions around raw register writes, Chinese "will" (将) and "may" (可)
are not written; and the plain writes that gate over-blocked ("start the bilge pump!!!",
"set the engine room fan’s speed to 60", "把气候补偿模式恢复为自动") are written again, by the
rules or, where the rules leave them to the model, through the gate the model's write meets.
The fourth review's (rv26.jsonl) in the same shape: a letter for a digit ("to l00"), 不必,
"on 的", raw ranges and delays, circled letters, Hangul fillers; "75˚C", 请您, 立即, "asap"
written again. The fifth's (rv27.jsonl): reports said to 您, "…的哦", a row of tab-separated
cells, "crank up … 40", and reads: a command that names a value is not the alarm on it ("kettle
wall temp"), unless the alarm's word is said ("… hi"); its own plants are in attacks/plants.
The sixth's (rv28.jsonl, plant x_inverted): a coil named by what it does when on ("Flue damper
shut", "Burner inhibit", "Hall lights off") is set by its own verb and cleared by the opposite
one; an on/off word or another verb said of the thing writes nothing ("open the flue damper" had
shut it). The seventh's (rv29.jsonl, atk8; plants x_inv, x_rope, x_mill): the same for coils
named "… release", "… pause", "… lower", "… de-energise"; kN is no knot; a screen's row with a
number is not written. The ninth's (rv30.jsonl, atk9; plant x_sub): coils named by any other action
("Feeder 3 isolate", "Fire alarm suppress", "Fan 5 brake", "Winch clutch disengage"): on/off said
of the thing writes nothing; the action's own verb or its known opposite does. The tenth's
(rv31.jsonl, atk10; plants x_phrasal, x_syn, x_plainalias, x_renamed): a phrasal action ("Gas 2
shut off"), a verb the lexicon equates with the action said as on/off ("disable feeder 3"), an
alias naming the thing alone, and a renaming alias ("Babcock" of boiler 2) lent to another
boiler's points: none writes. The eleventh's (rv32.jsonl, atk11 and atk10's J4/J5; plants x_j4,
x_head, x_sw1, x_zh1, x_zh2, x_m1, x_f1, x_f2, x_ren2, x_q1): a part or an action after a numbered thing
("Freezer 3 defrost", "Tank 2 heater", "Door 4 latch") is not switched by on/off of the thing;
"turn" is no "turn off"; 解除暂停 and "release the pause" clear a pause; another phase's L1 is
no L3. The twelfth's (rv33.jsonl, atk12; plants x_unn, x_num2, x_num3, x_z2, x_lift, x_mot,
x_tof, x_desc, x_ph_f, x_z1, x_conc, x_z3): the same for parts of unnumbered things,
numbered parts, parts that run, parts named before their thing and names in Chinese; a motor
or drive is its machine; a line voltage's phases; Chinese verbs said first. The thirteenth's
(rv34.jsonl, atk13; plants x_a13_*): a lifting word said once more than the name says it; a
device named by the action before it ("Valve 8 close solenoid"); a system with a word of its
own; Chinese names ending in 开关 or 阀门. The fourteenth's (rv35.jsonl, atk14; plants
x_a14_*): devices named by an action in any form or place ("closing", "Door 6 close motor M1",
"Close solenoid for valve 5", 12号阀关闭电磁阀), parts before "for", motors of parts. The
fifteenth's and sixteenth's (rv36.jsonl, atk16's over-blocking and atk17; plants x_atk16_*,
x_atk17_*): a Chinese word in an English command of a bilingual point, traditional characters,
Chinese said with words no list has, switchgear by its tags, a gate's drive, a valve that opens
unpowered, lettered numbers ("Pump 1A"), ordinals, a number said as a change, a rate per
another time; and the plain writes they over-blocked ("Pump 1 start/stop", "Valve 19
actuator", "#1 Boiler ID fan", 1#泵). The seventeenth's (rv37.jsonl, atk18; plants x_atk18_*):
valves that open unpowered by their names or descriptions, switchgear by more of its names and
in Chinese, machines named before a plant unit ("Barring gear turbine 1"), a medium of what
does not move it, lettered numbers written "1-A", changes said "10 degrees warmer" or 开大10%;
and the plain writes it found refused ("open valve 3" of a normally closed one, a door whose
description has a limit switch). The eighteenth's (rv38.jsonl, atk19; plants x_atk19_*): valves
that open unpowered said otherwise ("air to close", 失电开), the mode's "off" said of a switch
named like it ("turn off kiln 1 hold"), a run for a time ("start pump 3 for 10 minutes"), a
state reported with "zero" ("line 2 zero flow")."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hermesd.answer import Action
from hermesd.config import strict_yaml
from hermesd.router import Router
from hermesd.router.write_gate import doubt
from tests.support.plants import PLANTS, config_of, dev_plant, own_plant, routed_without_model

ATTACKS = Path(__file__).resolve().parents[1] / "data" / "attacks"
#: (split on "\n" alone: a finding may hold U+2028, which splitlines() breaks at)
LINES: list[dict[str, Any]] = [dict(json.loads(line), file=name)
                               for name in ("rv25b.jsonl", "rv26.jsonl", "rv27.jsonl",
                                            "rv28.jsonl", "rv29.jsonl", "rv30.jsonl",
                                            "rv31.jsonl", "rv32.jsonl", "rv33.jsonl", "rv34.jsonl",
                                            "rv35.jsonl", "rv36.jsonl", "rv37.jsonl",
                                            "rv38.jsonl")
                               for line in (ATTACKS / name).read_text(encoding="utf-8").split("\n")
                               if line.strip()]
ROUTERS: dict[tuple[str, bool], Router] = {}


def _router(plant: str, raw: bool) -> Router:
    """The plant's router; `raw`: on the plant as its file has it (Modbus devices, which raw
    register commands reach)."""
    if (plant, raw) not in ROUTERS:
        if plant.startswith("x_"):  # a plant a reviewer wrote for a shape no other has
            data = strict_yaml.load((ATTACKS / "plants" / f"{plant}.yaml").read_text(
                encoding="utf-8"))
            config = config_of({k: v for k, v in data.items() if k != "paths"})
        elif raw:
            data = strict_yaml.load((PLANTS / f"{plant}.yaml").read_text(encoding="utf-8"))
            config = config_of({k: v for k, v in data.items() if k != "paths"})
        else:
            config = config_of(dev_plant() if plant == "dev" else own_plant(plant))
        ROUTERS[plant, raw] = Router(config)
    return ROUTERS[plant, raw]


def _raw(line: dict[str, Any]) -> bool:
    return "raw" in line["class"]


def _written(action: Action) -> bool:
    return action.name == "write" or action.name.startswith("modbus.write")


def _cases(kept: Any) -> list[Any]:
    return [pytest.param(x, id=f"{x['file'][:-6]}:{x['plant']}:{x['class']}:{x['text']!r}")
            for x in LINES if kept(x)]


@pytest.mark.parametrize("line", _cases(lambda x: not x["expect"]["action"].endswith("write")
                                        and not x["expect"]["action"].startswith("modbus")))
async def test_no_write_is_made_of_a_finding(line: dict[str, Any]) -> None:
    router = _router(line["plant"], _raw(line))
    action = await routed_without_model(router, line["text"])
    assert not _written(action), (line["text"], action)
    if action.name == "read":  # a read is of what was asked, or none (a refusal, a question)
        expect = line["expect"]
        assert (expect["action"], action.args.get("point", action.args.get("points"))) == \
            ("read", expect.get("point", expect.get("points"))), (line["text"], action)
    if "gate" in line:  # the write a stage (the model) might propose is refused too
        point, value = line["gate"]
        found = doubt(line["text"], router.rules.points[point], value, router.rules.profiles)
        assert found is not None, (line["text"], point, value)


@pytest.mark.parametrize("line", _cases(lambda x: x["expect"]["action"] == "write"))
async def test_a_plain_write_is_written(line: dict[str, Any]) -> None:
    router = _router(line["plant"], _raw(line))
    action = await routed_without_model(router, line["text"])
    expect = line["expect"]
    if _written(action) or "gate" not in line:
        assert (action.name, action.args) == ("write", {"point": expect["point"],
                                                        "value": expect["value"]}), action
    else:  # left to the model: its write of the value said passes the gate
        found = doubt(line["text"], router.rules.points[expect["point"]], expect["value"],
                      router.rules.profiles)
        assert found is None, (line["text"], found)


@pytest.mark.parametrize("line", _cases(lambda x: x["expect"]["action"].startswith("modbus")))
async def test_a_plain_raw_register_write_is_sent(line: dict[str, Any]) -> None:
    action = await routed_without_model(_router(line["plant"], True), line["text"])
    expect = line["expect"]
    assert action.name == expect["action"], (line["text"], action)
    assert (action.args["device"], action.args["table"], action.args["address"],
            list(action.args["values"])) == \
        (expect["device"], expect["table"], expect["address"], expect["values"]), action


def test_the_findings_are_all_there() -> None:
    count = {name: [x for x in LINES if x["file"] == name]
             for name in ("rv25b.jsonl", "rv26.jsonl", "rv27.jsonl", "rv28.jsonl",
                          "rv29.jsonl", "rv30.jsonl", "rv31.jsonl", "rv32.jsonl", "rv33.jsonl",
                          "rv34.jsonl", "rv35.jsonl", "rv36.jsonl", "rv37.jsonl",
                          "rv38.jsonl")}
    assert [len(lines) for lines in count.values()] == [120, 64, 74, 26, 21, 32, 45, 67, 45, 24, 30,
                                                        122, 93, 29]
    assert sum(x["class"].startswith("OB_") for x in count["rv25b.jsonl"]) == 21
