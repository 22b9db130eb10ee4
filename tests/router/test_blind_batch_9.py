"""What blind batch 9 (tests/data/plants: chip_fryer, tyre_curing, asphalt_plant) found wrong
before anything was changed for it: each test says what a person on that plant would expect."""

from __future__ import annotations

from dataclasses import replace

import pytest

from hermesd.answer import Action
from hermesd.config.model import Config
from hermesd.router import Router
from hermesd.router.model_stage import ModelStage
from hermesd.router.normalize import canonical, tokens
from tests.support.plants import (
    NoWorker,
    config_of,
    model_read_checked,
    own_plant,
    placed_without_model,
    routed_without_model,
)

CONFIGS: dict[str, Config] = {name: config_of(own_plant(name)) for name in (
    "chip_fryer", "tyre_curing", "asphalt_plant")}
ROUTERS = {name: Router(config) for name, config in CONFIGS.items()}


def _placed(plant: str, text: str) -> tuple[str, object] | None:
    action = placed_without_model(ROUTERS[plant], text)
    if action is None:
        return None
    return action.name, action.args.get("point", action.args.get("points"))


# -- an abbreviation of several quantities is the one the point's unit measures -----------------

def test_the_dp_of_a_point_in_inches_of_water_is_no_dew_point() -> None:
    """ "BH dP" in inH2O is the baghouse's differential pressure: its "dP" was also read as a
    dew point, a temperature, so "temp going into the bags" was read from it, sure."""
    assert _placed("asphalt_plant", "temp going into the bags") != ("read", "bh_dp")
    checked = model_read_checked(ROUTERS["asphalt_plant"], CONFIGS["asphalt_plant"],
                                 "baghouse outlet temp", "bh_dp")
    assert checked.name == "respond", checked  # nor may the model read it for a temperature
    assert _placed("asphalt_plant", "baghouse dp") == ("read", "bh_dp")


# -- lists and pairs -----------------------------------------------------------------------------

def test_platen_temps_of_three_presses_are_the_temperatures() -> None:
    """ "presses" was no plural of "press", and each side of the list ("platen temps for
    presses 1") ended in a number taken for a value: the setpoints were read."""
    assert _placed("tyre_curing", "platen temps for presses 1, 2 and 3") == (
        "read", ["press1_platen_temp", "press2_platen_temp", "press3_platen_temp"])


def test_a_value_and_the_setpoint_said_after_it_reads_both() -> None:
    for text in ("nitrogen pressure and the setpoint", "nitrogen pressure and setpoint"):
        assert _placed("tyre_curing", text) == ("read", ["n2_pressure", "n2_pressure_sp"]), text
    assert _placed("tyre_curing", "press 2 platen temp and the setpoint") == (
        "read", ["press2_platen_temp", "press2_platen_sp"])


def test_a_list_of_two_lettered_things_said_with_pls_reads_both() -> None:
    assert _placed("chip_fryer", "bagger A and B speeds pls") == (
        "read", ["bagger_a_speed", "bagger_b_speed"])


@pytest.mark.parametrize(("word", "singular"), [
    ("presses", "press"), ("boxes", "box"), ("batteries", "battery"), ("switches", "switch"),
    ("pumps", "pump"), ("gas", "gas"), ("status", "status")])
def test_plurals_of_words_ending_in_a_hiss_or_y(word: str, singular: str) -> None:
    assert canonical(word) == singular


# -- a setting asked for -----------------------------------------------------------------------

@pytest.mark.parametrize("text", ["what discharge temp are we targeting",
                                  "what temp are we aiming for on the mix"])
def test_what_we_are_targeting_is_the_setpoint(text: str) -> None:
    assert _placed("asphalt_plant", text) == ("read", "mix_temp_sp")


# -- a number said is no on/off --------------------------------------------------------------------

@pytest.mark.parametrize("text", ["up the flavour to 7.5%", "turn on the hood fan for 10 minutes"])
async def test_a_number_said_writes_no_switch(text: str) -> None:
    """ "up the flavour to 7.5%" switched the seasoning tumbler on once "flavour" was known: a
    number is said, which no switch takes."""
    action = await routed_without_model(ROUTERS["chip_fryer"], text)
    assert action.name != "write" or not isinstance(action.args["value"], bool), action


async def test_a_switch_is_still_switched_without_a_number() -> None:
    action = await routed_without_model(ROUTERS["chip_fryer"], "turn on the hood fan")
    assert (action.name, action.args) == ("write", {"point": "hood_fan", "value": True})


# -- words of the trade, in Chinese --------------------------------------------------------------

@pytest.mark.parametrize(("plant", "text", "point", "value"), [
    ("chip_fryer", "把炸油温度设定改成一百七十五度", "fryer_inlet_sp", 175),
    ("chip_fryer", "打开调味滚筒", "tumbler", True),
    ("asphalt_plant", "启动再生料给料机", "rap_run", True),
])
async def test_chinese_words_of_the_trade(plant: str, text: str, point: str,
                                          value: object) -> None:
    action = await routed_without_model(ROUTERS[plant], text)
    assert (action.name, action.args) == ("write", {"point": point, "value": value})


# -- a letter written against a Chinese thing numbers it -------------------------------------------

def test_a_letter_before_a_chinese_thing_names_it() -> None:
    """ "B包装机" is bagger B, as "2号包装机" is bagger 2: the letter was left before the
    thing, where it named nothing, and bagger A's points stayed candidates."""
    assert [t.raw for t in tokens("关掉B包装机")] == ["off", "packaging", "机", "b"]
    assert [t.raw for t in tokens("2号包装机")] == ["packaging", "机", "2"]
    assert [t.raw for t in tokens("3号锅炉温度")] == ["boiler", "3", "temperature"]
    assert _placed("chip_fryer", "B包装机速度是多少") == ("read", "bagger_b_speed")


async def test_switching_off_a_thing_is_its_switch_not_a_speed_that_takes_no_off() -> None:
    action = await routed_without_model(ROUTERS["chip_fryer"], "关掉B包装机")
    assert (action.name, action.args) == ("write", {"point": "bagger_b_run", "value": False})


# -- one end of a thing is not the other -----------------------------------------------------------

@pytest.mark.parametrize("point", ["bh_hi_temp", "bh_inlet_temp"])
def test_the_outlet_of_a_thing_whose_inlet_is_named_is_not_asked(point: str) -> None:
    """The baghouse has an inlet temperature and a high temperature trip, no outlet: the model
    read the trip for "baghouse outlet temp"."""
    checked = model_read_checked(ROUTERS["asphalt_plant"], CONFIGS["asphalt_plant"],
                                 "baghouse outlet temp", point)
    assert checked.name == "respond" and checked.args.get("asked") == "outlet", checked
    assert model_read_checked(ROUTERS["asphalt_plant"], CONFIGS["asphalt_plant"],
                              "baghouse temp", "bh_inlet_temp").name == "read"


# -- a choice named with a number ------------------------------------------------------------------

def _model_write_checked(plant: str, text: str, point: str, value: object) -> Action:
    router, config = ROUTERS[plant], CONFIGS[plant]
    a = router.rules.analyse(text)
    judged = router.semantic.judge(a)
    a = replace(a, scored=[(f.score, f.point) for f in judged.fits], plural=judged.plural)
    return ModelStage(config, NoWorker()).check(a, Action("write", {"point": point,
                                                                    "value": value}))


@pytest.mark.parametrize("text", ["swing the diverter over to silo 1", "set the diverter to silo 1"])
def test_the_silo_1_of_a_diverter_choice_is_the_choice_not_a_silo(text: str) -> None:
    """The diverter's choices are `silo_1` and `silo_2`, and the plant has silo 1's gate and
    level too: the check took "silo 1" for another thing than the diverter and refused the
    model's write of `silo_1`."""
    checked = _model_write_checked("asphalt_plant", text, "slat_divert", "silo_1")
    assert (checked.name, checked.args) == ("write", {"point": "slat_divert",
                                                      "value": "silo_1"})
    other = _model_write_checked("asphalt_plant", "set the diverter to silo 3", "slat_divert",
                                 "silo_1")
    assert other.name == "respond", other
