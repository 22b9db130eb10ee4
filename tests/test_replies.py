"""Stale replies say why, when and how old; raw register replies name the registers."""

from __future__ import annotations

import re
import time

from hermesd.cache import Judgement, Reading
from hermesd.config.model import Point
from hermesd.replies import (
    VALUE_QUESTIONS,
    call_reply,
    dry_run_reply,
    gate_question,
    read_reply,
    respond_reply,
    unsure_write_reply,
    value_question,
    write_reply,
)

TEMP = Point(id="boiler3_temp", device="plc1", driver="modbus", name="Boiler 3 temperature",
             unit="°C")


def _judged(why: str, age: float = 41.0) -> Judgement:
    return Judgement(Reading("boiler3_temp", 523.4, time.time() - age), age, True, why)


def test_offline_device_in_the_words_of_the_issue() -> None:
    reply = read_reply(TEMP, _judged("plc1 offline since 09:14:02 (no answer within 1 s)"))
    assert reply == ("Boiler 3 temperature: PLC plc1 offline since 09:14:02 (no answer within "
                     "1 s); last value 523.4 °C, 41 s old.")


def test_other_stale_reasons_keep_the_time_of_the_value() -> None:
    reply = read_reply(TEMP, _judged("older than its max age of 30 s", 95))
    assert re.fullmatch(r"Boiler 3 temperature: last known value 523.4 °C at \d\d:\d\d:\d\d, "
                        r"2 min old \(stale: older than its max age of 30 s\)\.", reply)


def test_register_replies() -> None:
    read = {"device": "plc1", "registers_text": "holding register 40011 (address 10)",
            "registers": [1200], "ts": 1.0}
    assert call_reply("modbus", "read_registers", {}, read) == \
        "plc1 holding register 40011 (address 10) = 1200."
    typed = {**read, "registers_text": "input registers 30005..30006 (address 4..5)",
             "registers": [17410, 52429], "value": 523.4}
    assert call_reply("modbus", "read_registers", {"type": "float32"}, typed) == \
        "plc1 input registers 30005..30006 (address 4..5) = 17410, 52429 (523.4 as float32)."
    coil = {"device": "plc1", "registers_text": "coil 00002 (address 1)", "bits": [False],
            "confirmed": False}
    assert call_reply("modbus", "write_registers", {}, coil) == \
        "Wrote plc1 coil 00002 (address 1); not confirmed: it reads back off."
    assert call_reply("fake", "echo", {}, {"args": {}}) == "fake.echo done."


SPEED = Point(id="pump1_speed", device="plc1", driver="modbus", name="Feed pump 1 speed",
              unit="rpm", kind="float", writable=True, min=0, max=1500)


def test_a_question_back_names_the_words_it_could_not_read() -> None:
    assert value_question("unreadable", ("1e4",), "1200") == (
        "I could not read the value “1e4”; nothing was changed. Say it once, e.g. “to 1200”.")
    assert "“1500”, “100”" in value_question("several", ("1500", "100"), "1200")
    zh = value_question("correction", ("不对",), "1200", zh=True)
    assert "“不对”" in zh and "设为1200" in zh
    for problem in VALUE_QUESTIONS:
        assert "“x”" in value_question(problem, ("x",), "1")


def test_a_question_back_of_the_gate_shows_its_whole_command_once() -> None:
    """The write gate's example is a whole command: no "to set …", "设为把…设为…"."""
    en = gate_question("unreadable", ("调",), "Speed", "rpm", "set Speed to 750 rpm")
    assert en.endswith("e.g. “set Speed to 750 rpm”.")
    zh = gate_question("unreadable", ("调",), "转速", "rpm", "把转速设为750rpm", zh=True)
    assert "例如“把转速设为750rpm”" in zh


def test_a_question_back_shows_unprintable_words_escaped() -> None:
    reply = value_question("unreadable", ("\udcff1", "1\u200b5"), "5")
    reply.encode("utf-8")  # a lone surrogate would make the reply unwritable
    assert "“\\udcff1”" in reply and "“1\\u200b5”" in reply  # a zero-width space is shown


def test_a_respond_with_text_from_the_daemon_says_that_text() -> None:
    assert respond_reply("not_understood", node="n", example="x", text="Say it once.") == \
        "Say it once."
    assert respond_reply("not_understood", node="n", example="x").startswith("Sorry")


def test_a_written_value_is_shown_with_every_digit() -> None:
    assert write_reply(SPEED, 30.00000000001, True) == "Feed pump 1 speed set to 30.00000000001 rpm."
    assert "to 30.00000000001 rpm" in dry_run_reply("write", SPEED, 30.00000000001)
    assert write_reply(SPEED, 900.0, True) == "Feed pump 1 speed set to 900 rpm."


def test_a_write_the_device_did_not_answer_says_it_may_be_done_once() -> None:
    """The Modbus tool's reason ends with the same words the reply adds (review atk24s, #9)."""
    why = ("plc1 did not answer the write to holding register 40011: no answer within 1 s; it "
           "may or may not have taken effect")
    reply = unsure_write_reply(TEMP, 500, why)
    assert reply.count("may or may not have taken effect") == 1, reply
    assert reply.startswith("Not sure whether Boiler 3 temperature was set to 500 °C: plc1 did "
                            "not answer the write to holding register 40011: no answer within")
