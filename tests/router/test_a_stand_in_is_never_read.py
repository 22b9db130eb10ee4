"""A setpoint stands in for its measurement only for a write: a command whose number could be
a value ("rectifier 1 amps": the 1 numbers the rectifier; "heater 2 kW") but that the words do
not make a write of reads the measurement they name, never the stand-in setpoint (found on a
blind plant: "rectifier 1 amps" read the current setpoint)."""

from __future__ import annotations

import pytest

from hermesd.answer import Action
from hermesd.router import Router
from tests.support.daemon import fake_device
from tests.support.plants import (
    config_of,
    model_read_checked,
    own_plant,
    placed_without_model,
)


def _heaters() -> Router:
    """A furnace line of our own, named otherwise than any plant file."""
    return Router(config_of({"node": {"id": "furnace"}, "devices": {
        "furnace": fake_device({
            "heater1_power": {"name": "Heater 1 power", "type": "float", "unit": "kW"},
            "heater2_power": {"name": "Heater 2 power", "type": "float", "unit": "kW"},
            "heater2_power_sp": {"name": "Heater 2 power setpoint", "type": "float",
                                 "unit": "kW", "writable": True, "min": 0, "max": 80},
            "heater2_volts": {"name": "Heater 2 voltage", "type": "float", "unit": "V"},
            "fan2_speed": {"name": "Fan 2 speed", "type": "float", "unit": "rpm"},
            "fan2_speed_sp": {"name": "Fan 2 speed setpoint", "type": "float", "unit": "rpm",
                              "writable": True, "min": 0, "max": 1500},
        }),
    }}))


FURNACE = _heaters()
PLATING = Router(config_of(own_plant("plating_line")))


@pytest.mark.parametrize(("router", "text", "point"), [
    (PLATING, "rectifier 1 amps", "rect1_current"),
    (PLATING, "rect 1 amps", "rect1_current"),
    (FURNACE, "heater 2 kW", "heater2_power"),
    (FURNACE, "fan 2 rpm", "fan2_speed"),
])
def test_a_number_that_numbers_the_thing_reads_the_measurement(router: Router, text: str,
                                                               point: str) -> None:
    placed = placed_without_model(router, text)
    assert placed is None or placed == Action("read", {"point": point}), placed


@pytest.mark.parametrize(("router", "text", "point"), [
    (PLATING, "rectifier 1 current setpoint", "rect1_current_sp"),
    (FURNACE, "heater 2 power setpoint", "heater2_power_sp"),
])
def test_the_setpoint_named_is_still_read(router: Router, text: str, point: str) -> None:
    assert placed_without_model(router, text) == Action("read", {"point": point})


@pytest.mark.parametrize(("router", "text", "point", "value"), [
    (FURNACE, "heater 2 to 40 kW", "heater2_power_sp", 40),
    (FURNACE, "set fan 2 to 900 rpm", "fan2_speed_sp", 900),
])
def test_a_write_still_goes_to_the_setpoint(router: Router, text: str, point: str,
                                            value: float) -> None:
    placed = placed_without_model(router, text)
    assert placed is None or placed == Action("write", {"point": point, "value": value}), placed


# -- all, both, every thing asked: one point the model reads is part of an answer --------------

HOSPITAL = own_plant("hospital_utilities")


@pytest.mark.parametrize(("text", "point"), [
    ("temperatures of all three ORs", "ot1_temp"),  # found on the blind hospital plant
    ("humidity in all three ORs", "ot2_humidity"),
    ("pressures in all the ORs", "ot1_pressure"),
])
def test_one_point_read_for_all_of_them_is_refused(text: str, point: str) -> None:
    config = config_of(HOSPITAL)
    checked = model_read_checked(Router(config), config, text, point)
    assert checked.name == "respond" and checked.args["reason"] == "not_understood", checked


def test_a_point_named_for_all_of_them_is_read() -> None:
    config = config_of({"node": {"id": "pumps"}, "devices": {"station": fake_device({
        "all_running": {"name": "All pumps running", "type": "bool"},
        "pump1": {"name": "Pump 1", "type": "bool", "writable": True},
        "pump2": {"name": "Pump 2", "type": "bool", "writable": True},
    })}})
    checked = model_read_checked(Router(config), config, "are all the pmps going",
                                 "all_running")
    assert checked == Action("read", {"point": "all_running"})
