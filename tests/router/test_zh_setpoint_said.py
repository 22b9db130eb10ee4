"""设定 before the verb that sets it is the setpoint, a noun ("窑速设定改成3.6转": the kiln
speed setpoint to 3.6 rpm), and a Chinese word that ends in a quantity asks that quantity of
its thing (窑速: the kiln's speed, not any point of the kiln); a quantity inside a thing's word
is no quantity asked (快速门, a high speed door)."""

from __future__ import annotations

from hermesd.router import Router
from tests.support.plants import exec_devices, routed_without_model

ROUTER = Router(exec_devices("limeworks", {"kiln_plc": {
    "kiln_speed": {"name": "Kiln speed", "unit": "rpm"},
    "kiln_speed_sp": {"name": "Kiln speed setpoint", "unit": "rpm", "writable": True,
                      "min": 0.5, "max": 4},
    "kiln_temp": {"name": "Kiln inlet temperature", "unit": "°C"},
    "kiln_temp_sp": {"name": "Kiln inlet temperature setpoint", "unit": "°C", "writable": True,
                     "min": 800, "max": 1100},
    "door": {"name": "High speed door open", "type": "bool"},
}}))


async def test_a_setpoint_before_its_verb_is_written() -> None:
    action = await routed_without_model(ROUTER, "窑速设定改成3.6转")
    assert (action.name, action.args) == ("write", {"point": "kiln_speed_sp", "value": 3.6})
    action = await routed_without_model(ROUTER, "窑速设定调到2.5")
    assert (action.name, action.args) == ("write", {"point": "kiln_speed_sp", "value": 2.5})


async def test_a_quantity_a_chinese_word_ends_with_is_asked() -> None:
    action = await routed_without_model(ROUTER, "窑速多少")
    assert (action.name, action.args) == ("read", {"point": "kiln_speed"})
    action = await routed_without_model(ROUTER, "快速门开着吗")
    assert (action.name, action.args) == ("read", {"point": "door"})


def _words(text: str) -> set[str]:
    return {t.word for t in ROUTER.semantic.terms(ROUTER.rules.analyse(text))}


def test_the_words_read_of_a_chinese_setpoint() -> None:
    # (before, 窑速 was one term, explained by any point of the kiln, and 设定 a verb)
    assert {"kiln", "speed", "setpoint"} <= _words("窑速设定改成3.6转")
    assert "speed" not in _words("快速门开着吗")
