"""What blind batch 10 (tests/data/plants: biogas_plant, wellpad, laundry) found wrong before
anything was changed for it: each test says what a person on that plant would expect."""

from __future__ import annotations

from typing import Any

import pytest

from hermesd.config.model import Config
from hermesd.router import Router
from tests.support.plants import config_of, model_read_checked, own_plant, routed_without_model

CONFIGS: dict[str, Config] = {name: config_of(own_plant(name)) for name in (
    "biogas_plant", "wellpad", "laundry")}
ROUTERS = {name: Router(config) for name, config in CONFIGS.items()}


async def _routed(plant: str, text: str) -> tuple[str, Any]:
    action = await routed_without_model(ROUTERS[plant], text)
    return action.name, action.args.get("point", action.args.get("points",
                                                                 action.args.get("reason")))


# -- "confirm X is stopped", "check X is on": asked, never switched ---------------------------

@pytest.mark.parametrize(("plant", "text", "point"), [
    ("laundry", "confirm the disinfectant pump is stopped", "dosing_pump3"),
    ("laundry", "check if the ironer is running", "ironer_run"),
    ("laundry", "please confirm dosing pump 1 is off", "dosing_pump1"),
    ("laundry", "check whether dosing pump 2 is on", "dosing_pump2"),
    ("biogas_plant", "confirm heating pump 2 is stopped", "heat_pump2"),
])
async def test_a_state_to_check_is_read(plant: str, text: str, point: str) -> None:
    """Before: the model was asked, and refused (out of scope), or the rules placed a write of
    the state said that the write gate then refused: nothing to answer the question with."""
    assert await _routed(plant, text) == ("read", point)


@pytest.mark.parametrize(("plant", "text"), [
    ("laundry", "check the dryer doors are closed"),  # no door switch on this plant
    ("laundry", "check the extraction press is on"),  # its run switch or its fault: asked
])
async def test_a_state_to_check_is_never_written(plant: str, text: str) -> None:
    name, _ = await _routed(plant, text)
    assert name != "write"


# -- a plant named as its RTU tags are -------------------------------------------------------

@pytest.mark.parametrize(("text", "want"), [
    ("tubing pressure on well 2", ("read", "w2_tbg_psi")),  # W2 TBG PSI
    ("whats the casing on three", ("read", "w3_csg_psi")),  # W3 CSG PSI
    ("oil level in the separator", ("read", "sep_oil_lvl")),  # SEP OIL LVL
    ("tubing and casing on well 1", ("read", ["w1_tbg_psi", "w1_csg_psi"])),
])
async def test_field_words_find_tag_abbreviations(text: str, want: tuple[str, Any]) -> None:
    """Before: none of TBG, CSG, SEP, LVL was known as tubing, casing, separator, level, so
    each of these was refused as out of scope."""
    assert await _routed("wellpad", text) == want


def test_the_model_may_not_read_another_kind_of_pump_for_the_one_named() -> None:
    """ "transfer pump 1", and the model read the salt water disposal pump: it is a pump, but
    the plant has transfer pumps (XFER P1, P2), and that is not one of them."""
    config = CONFIGS["wellpad"]
    checked = model_read_checked(ROUTERS["wellpad"], config,
                                 "confirm transfer pump 1 is stopped", "swd_pmp")
    assert checked.name == "respond" and checked.args["reason"] == "unknown_point", checked
    kept = model_read_checked(ROUTERS["wellpad"], config, "is the disposal pump running",
                              "swd_pmp")
    assert kept.name == "read", kept
