"""Normalisation: numbers in words and numerals, ordinals, Chinese words, synonyms."""

from __future__ import annotations

import pytest

from hermesd.router.normalize import YES_NO_MARK, content, tokens


def texts(text: str) -> list[str]:
    return [t.text for t in tokens(text)]


def numbers(text: str) -> list[float]:
    return [t.number for t in tokens(text) if t.number is not None]


@pytest.mark.parametrize(("text", "want"), [
    ("set pump to 1,000", [1000]),
    ("fifteen hundred", [1500]),
    ("one thousand five hundred", [1500]),
    ("twenty-five", [25]),
    ("two point five", [2.5]),
    ("minus 5", [-5]),
    ("boiler-3", [3]),  # a hyphen inside a name is not a minus
    ("九百", [900]),
    ("一千五", [1500]),
    ("一百零五", [105]),
    ("两千五百", [2500]),
    ("十五", [15]),
    ("二十", [20]),
    ("三点五", [3.5]),
    ("一万二千", [12000]),
    ("百分之五十", [50]),
    ("３号", [3]),  # full-width digits
])
def test_numbers_in_words_and_numerals(text: str, want: list[float]) -> None:
    assert numbers(text) == want


@pytest.mark.parametrize(("text", "want"), [
    ("#3 boiler temperature", ["3", "boiler", "temperature"]),
    ("boiler no. 3 temp", ["boiler", "3", "temperature"]),
    ("is the number one compressor running", ["is", "1", "compressor", "running"]),
    ("the one on the left", ["the", "one", "on", "the", "left"]),  # a pronoun
    ("4th effect vacuum", ["4", "effect", "vacuum"]),
    ("the 2nd pump", ["the", "2", "pump"]),
    ("Boiler3 temp", ["boiler", "3", "temperature"]),
    ("pump number 2", ["pump", "2"]),
    ("the third boiler", ["the", "3", "boiler"]),
])
def test_english_ordinals_and_ids(text: str, want: list[str]) -> None:
    assert texts(text) == want


@pytest.mark.parametrize(("text", "want"), [
    # the ordinal goes after the thing it numbers, as the English names say it
    ("3号锅炉的温度是多少", ["boiler", "3", "temperature", "what"]),
    ("三号锅炉", ["boiler", "3"]),
    ("打开2号蒸汽阀", ["open", "steam", "valve", "2"]),
    ("把1号给水泵转速设为900", ["feed", "water", "pump", "1", "speed", "set", "to", "900"]),
    ("第三台锅炉温度", ["boiler", "3", "temperature"]),
    ("给水箱液位多少", ["feed", "water", "tank", "level", "what"]),
    # a modifier after the thing that qualifies no thing after it is the next word's: the
    # number stays with the thing ("tank 2's oil temperature", never "tank oil 2")
    ("2号罐油温是多少", ["tank", "2", "oil", "温", "what"]),
    ("1号锅炉蒸汽压力", ["boiler", "1", "steam", "pressure"]),
    ("1号锅炉给水泵", ["boiler", "feed", "water", "pump", "1"]),  # ...a thing after it: one
])
def test_chinese_becomes_the_english_words_of_point_names(text: str, want: list[str]) -> None:
    assert texts(text) == want


def test_chinese_question_particle_marks_a_yes_no_question() -> None:
    toks = tokens("锅炉房有报警吗")
    assert [t.text for t in toks] == ["boiler", "house", "alarm", YES_NO_MARK]
    assert YES_NO_MARK not in {t.text for t in content(toks)}


def test_unknown_chinese_characters_match_themselves() -> None:
    # a plant may name its points in Chinese: those characters must still match
    assert texts("冷冻库") == ["freezer", "库"]


def test_synonyms_and_plurals() -> None:
    assert texts("how hot are the boilers") == ["how", "temperature", "are", "the", "boiler"]
    assert texts("packing counters") == ["packaging", "count"]


def test_letters_that_name_things() -> None:
    toks = tokens("line A count")
    assert [(t.text, t.ident) for t in toks] == [("line", False), ("a", True), ("count", False)]
    # "a" after a stop word is just an article
    assert not any(t.ident for t in tokens("is there a fault"))


@pytest.mark.parametrize(("text", "want"), [
    ("nine hundred and fifty", [950]),
    ("seventy-two and a half", [72.5]),
    ("five hundred and fifty", [550]),
    ("a hundred and fifty", [150]),
    ("15 hundred", [1500]),
    ("minus twenty five", [-25]),
    ("一五零零", [1500]),  # a Chinese digit string, not 0
    ("两万三", [23000]),
    ("1.5万", [15000]),
    ("负五", [-5]),
    ("零下五度", [-5]),
    ("设为-5", [-5]),  # a minus after Chinese is a minus, not a hyphen
    ("负5", [-5]),
    ("五千克", [5]),  # 5 kg, not 5000 g
    ("快一点", []),  # "a bit faster": no 1
    ("set this one to 50", [50]),  # "this one" is no 1
    ("1,600,000", [1600000]),
    ("设为五百九十六万一千", [5961000]),  # no word hides inside a numeral
])
def test_numbers_read_exactly(text: str, want: list[float]) -> None:
    assert numbers(text) == want


@pytest.mark.parametrize(("text", "raw"), [
    ("to 1e4 rpm", "1e4"), ("to 0x5DD", "0x5DD"), ("to 1_000", "1_000"), ("to ١٢", "١٢"),
    ("to ²", "²"), ("to -0", "-0"), ("to --5", "--5"), ("to five five", "five five"),
    ("to twenty thirty", "twenty thirty"), ("to minus minus 5", "minus minus 5"),
    ("设为三四百", "三四百"), ("设为两个半", "两个半"), ("设为负负五", "负负五"), ("设为2千5", "2千5"),
    ("设为负零", "负零"), ("to a third", "a third"),
])
def test_what_names_no_one_value_is_one_unreadable_token(text: str, raw: str) -> None:
    toks = tokens(text)
    assert [t.raw for t in toks if t.unreadable] == [raw]
    assert not any(t.is_number for t in toks)


def test_digit_groups_written_apart_are_one_token_that_keeps_its_groups() -> None:
    (number,) = [t for t in tokens("set pump 1 to 1 600") if t.groups]
    assert number.number == 1600 and number.groups == ("1", "600")


def test_chinese_words_keep_what_was_written_for_replies() -> None:
    toks = tokens("设为900，不对，800")
    assert [t.shown for t in toks if t.text == "?fix"] == ["不对"]


@pytest.mark.parametrize(("text", "unit", "quantity", "values"), [
    ("how many m3/h are leaving", "m³/h", "flow", []),  # the 3 of m3 is no number
    ("set the flow to 40 m³/h", "m³/h", "flow", [40]),
    ("feed rate 12 kg/h", "kg/h", "flow", [12]),
    ("conveyor 2 to 2.5 metres per second", "m/s", "speed", [2, 2.5]),  # "second" is no 2
    ("cubic metres an hour through the filter", "m³/h", "flow", []),
    ("wash water litres per second", "l/s", "flow", []),
    ("kiln 1 setpoint 65°C", "°c", "temperature", [1, 65]),
    ("65 ℃", "°c", "temperature", [65]),
    ("jaw crusher amps", "a", "current", []),
    ("how many kilowatts", "kw", "power", []),
    ("intake pump 1100 rpm", "rpm", "speed", [1100]),
    ("NTU after filtration", "ntu", "turbidity", []),
])
def test_units_are_one_token_that_names_their_quantity(text: str, unit: str, quantity: str,
                                                       values: list[float]) -> None:
    toks = tokens(text)
    (found,) = [t for t in toks if t.unit]
    assert (found.unit, found.text) == (unit, quantity)
    assert numbers(text) == values


@pytest.mark.parametrize("text", ["line A speed", "set it to 0x5A", "pump 2 a bit faster",
                                  "five per second"])
def test_no_unit_is_made_of_a_letter_or_a_number(text: str) -> None:
    assert not [t for t in tokens(text) if t.unit]
    assert [t.raw for t in tokens(text) if t.unreadable] == (["0x5A"] if "0x" in text else [])


@pytest.mark.parametrize(("text", "want"), [
    ("take compressor 1 offline", ["switch", "compressor", "1", "off"]),
    ("please take the pump out of service", ["please", "switch", "the", "pump", "off"]),
    ("put pump 2 back in service", ["switch", "pump", "2", "on"]),
    ("bring the dewatering pump back online", ["switch", "the", "dewatering", "pump", "on"]),
    ("can you put the fan on line", ["can", "you", "switch", "the", "fan", "on"]),
])
def test_a_verb_of_a_state_is_a_switch(text: str, want: list[str]) -> None:
    toks = tokens(text)
    assert [t.text for t in toks] == want
    # replies still name the words as the person wrote them
    assert any(t.written in ("take", "put", "bring") for t in toks)


@pytest.mark.parametrize("text", [
    "is compressor 1 offline",  # a question about a state: no verb of a command
    "compressor 1 offline",
    "take",  # a verb alone
    "why did you take pump 1 offline",  # the verb is not the command's
])
def test_a_state_without_its_verb_stays_words(text: str) -> None:
    assert "switch" not in texts(text)


@pytest.mark.parametrize(("text", "unit"), [
    ("head pressure on pump 2, in bar", "bar"),
    ("room pressure in Pa", "pa"),
    ("gas reading, %", "%"),
    ("how much sun, W/m2", "w/m²"),
])
def test_a_unit_said_alone_names_what_is_asked(text: str, unit: str) -> None:
    assert tokens(text)[-1].unit == unit


@pytest.mark.parametrize("text", [
    "level in tank a",  # a single letter is no unit here
    "set valve to 50%",  # a percent after a number stays the number's
])
def test_no_unit_is_made_of_a_letter_or_a_number_s_percent(text: str) -> None:
    assert not [t for t in tokens(text) if t.unit]


@pytest.mark.parametrize(("text", "first"), [
    ("减速箱温度", "减"),  # a gearbox: no "subtract"
    ("加湿器输出", "加"),  # a humidifier: no "add"
])
def test_a_character_that_begins_a_plant_word_is_that_word_s(text: str, first: str) -> None:
    toks = tokens(text)
    assert toks[0].raw == first and not {"subtract", "add"} & {t.raw for t in toks}


def test_a_chinese_ordinal_still_follows_its_thing() -> None:
    assert texts("1号给水泵转速") == ["feed", "water", "pump", "1", "speed"]


def test_a_number_with_an_ordinals_ending_numbers_a_thing() -> None:
    assert [(t.number, t.ordinal) for t in tokens("3rd kiln") if t.is_number] == [(3, True)]
    assert [(t.number, t.ordinal) for t in tokens("kiln 3 to 40") if t.is_number] == [
        (3, False), (40, False)]
