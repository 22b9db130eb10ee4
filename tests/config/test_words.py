"""Words people read, as the loader takes them from a YAML file: a word that shows nothing is
empty, two words an operator cannot tell apart are one, and neither an intent's name nor a
device's page address may hold what acts on a terminal or a display (review atk27)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from hermesd.config import load_config
from hermesd.core.errors import ConfigError

P = "devices.d.points"
BLANKS = {
    "hangul filler": "\u3164",
    "braille blank": "\u2800\u2800",
    "hangul choseong and jungseong fillers": "\u115f\u1160",
    "halfwidth hangul filler": "\uffa0",
    "no-break spaces": "\u00a0\u00a0",
    "zero-width joiner": "\u200d",
    "variation selector and joiner": "\ufe0f\u200c",
    "khitan filler": "\U00016fe4",
    "musical null notehead": "\U0001d159",
}


def plant(points: dict[str, Any], **more: Any) -> dict[str, Any]:
    return {"node": {"id": "a"}, "devices": {"d": {"driver": "exec", "command": ["x"],
                                                   "points": points}}, **more}


def problems(tmp_path: Path, data: dict[str, Any]) -> list[str]:
    path = tmp_path / "c.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    return info.value.lines()


def loads(tmp_path: Path, data: dict[str, Any]) -> None:
    path = tmp_path / "c.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    load_config(path)


@pytest.mark.parametrize("blank", BLANKS.values(), ids=BLANKS.keys())
@pytest.mark.parametrize(("key", "written", "at"), [
    ("name", "{}", "name"),
    ("aliases", ["feed pump", "{}"], "aliases[1]"),
    ("description", "{}", "description"),
    ("unit", "{}", "unit"),
    ("names", {"zh": "{}"}, "names.zh"),
    ("choices", ["fast", "{}"], "choices[1]"),
    ("map", {0: "off", 1: "{}"}, "map.1"),
])
def test_a_word_that_shows_nothing_is_empty(tmp_path: Path, blank: str, key: str,
                                            written: Any, at: str) -> None:
    def fill(value: Any) -> Any:
        if isinstance(value, str):
            return value.format(blank)
        if isinstance(value, list):
            return [fill(v) for v in value]
        return {k: fill(v) for k, v in value.items()}

    point = {"type": "string" if key == "choices" else "int", key: fill(written)}
    if key == "choices":
        point["writable"] = True
    lines = problems(tmp_path, plant({"p": point}))
    assert any(line.startswith(f"config error: {P}.p.{at}: expected ") for line in lines), lines


@pytest.mark.parametrize("name", ["Pump\u00a01", "1号\u3000给水泵", "\u067e\u0645\u067e\u200c\u0647",
                                  "\u0915\u094d\u200d\u0937", "Pump \U0001f468\u200d\U0001f527"])
def test_spaces_and_joiners_inside_words_stay_words(tmp_path: Path, name: str) -> None:
    loads(tmp_path, plant({"p": {"type": "int", "name": name, "map": {0: "off", 1: name}}}))


#: the flag of Scotland: the black flag, the tag letters g b s c t, the cancel tag
SCOTLAND = "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"
WALES = "\U0001f3f4\U000e0067\U000e0062\U000e0077\U000e006c\U000e0073\U000e007f"


@pytest.mark.parametrize("name", [
    "１号泵", "पानी पम्प\u200d १", "ปั๊มน้ำ 1", "பம்ப் 1", "펌프 1", "\u2744\ufe0f freezer",
    "\u182e\u1823\u1829\u180b\u182d\u1823\u182f", f"{SCOTLAND} line", "Насос 1", "Αντλία 1",
    # (atk29) a Hebrew name with its left-to-right mark, Mongolian's vowel separator, a soft
    # hyphen, and characters newer than this Python's Unicode (an emoji of Unicode 15)
    "\u05de\u05e9\u05d0\u05d1\u05d4\u200e 1", "\u1823\u180e\u1820", "Ver\u00addampfer 1",
    "\U0001fa77 line"])
def test_words_of_every_script_stay_words(tmp_path: Path, name: str) -> None:
    """Combining marks after their letters (Thai, Tamil, Hindi), Mongolian's selectors, emoji
    sequences and a flag of tags are how these words are written."""
    loads(tmp_path, plant({"p": {"type": "int", "name": name, "map": {0: "off", 1: name}}}))


@pytest.mark.parametrize(("written", "char"), [
    ("\u0301", "U+0301"), ("\u2800\u0301", "U+0301"), ("\u200d\u20dd", "U+20DD"),
    ("Pump \ue000", "U+E000"), ("\U000f0000", "U+F0000"),
    ("Pump \U000e0067", "U+E0067"), ("\U000e0067\U000e007f line", "U+E0067")])
@pytest.mark.parametrize(("key", "at"), [
    ("name", "name"), ("aliases", "aliases[0]"), ("description", "description"),
    ("unit", "unit"), ("names", "names.zh"), ("choices", "choices[0]"), ("map", "map.1.name")])
def test_a_word_of_marks_or_of_what_no_font_draws_is_refused(
        tmp_path: Path, written: str, char: str, key: str, at: str) -> None:
    """A combining mark before any letter has none to sit on; a private-use character shows
    a box or nothing; a tag outside a flag shows nothing."""
    value: Any = {"aliases": [written], "names": {"zh": written}, "choices": [written],
                  "map": {0: "off", 1: written}}.get(key, written)
    point = {"type": "string" if key == "choices" else "int", key: value}
    if key == "choices":
        point["writable"] = True
    lines = problems(tmp_path, plant({"p": point}))
    assert any(line.startswith(f"config error: {P}.p.{at}: holds {char}, ")
               for line in lines), lines


@pytest.mark.parametrize("look_alike", ["au\u200dto", "\uff41\uff55\uff54\uff4f", "Au\u034fto",
                                       "\u0410uto", "\u0430uto", "\u0391uto"])
def test_two_choices_of_a_map_that_look_alike_are_one(tmp_path: Path, look_alike: str) -> None:
    lines = problems(tmp_path, plant({"p": {"type": "int", "map": {0: "auto", 1: look_alike}}}))
    assert lines == [f"config error: {P}.p.map.1: name {look_alike!r} also names raw value 0 "
                     "('auto')"], lines


def test_two_choices_that_look_alike_are_one(tmp_path: Path) -> None:
    lines = problems(tmp_path, plant({"p": {"type": "string", "writable": True,
                                            "choices": ["auto", "manual", "ａｕｔｏ"]}}))
    assert lines == [f"config error: {P}.p.choices[2]: 'ａｕｔｏ' is choice 'auto' (choices[0]) "
                     "written another way"], lines


@pytest.mark.parametrize(("first", "second"), [
    ({"name": "Feed pump"}, {"name": "Feed\u200d pump"}),
    ({"name": "Feed pump"}, {"name": "Ｆｅｅｄ ｐｕｍｐ"}),
    ({"name": "Feed pump"}, {"aliases": ["feed\u3164pump"]}),
    ({"names": {"zh": "给水泵"}}, {"aliases": ["给\u200b水泵"]}),
    ({"name": "Feed pump"}, {"name": "F\u0435\u0435d \u0440ump"}),  # Cyrillic е and р
    ({"name": "Oven 2"}, {"name": "\u039fven 2"}),  # Greek Ο
    ({"name": "Oven 2"}, {"aliases": ["Oven \u0662"]}),  # Arabic-Indic two
    ({"name": "Oven 2"}, {"aliases": ["Oven \u0968"]}),  # Devanagari two
    ({"name": "Oven2"}, {"name": "Oven\u200a2"}),  # a hair space
    ({"name": "Насос 1"}, {"name": "насос 1"}),
])
def test_two_points_whose_names_look_alike_are_an_error_naming_both(
        tmp_path: Path, first: dict[str, Any], second: dict[str, Any]) -> None:
    lines = problems(tmp_path, plant({"p1": {"type": "int", **first},
                                      "p2": {"type": "int", **second}}))
    label = (second.get("aliases") or [second.get("name")])[0]
    mine = next(line for line in lines if line.startswith(f"config error: {P}.p2: "))
    if "\u200b" in label:  # refused as unshown too; the clash is still named
        assert any(line.startswith(f"config error: {P}.p2.aliases[0]: holds U+200B")
                   for line in lines), lines
    assert mine.startswith(f"config error: {P}.p2: name or alias {label!r} also names point "
                           "p1 (as "), lines


@pytest.mark.parametrize(("name", "char"), [
    ("hi\x1b]0;owned\x07", "U+001B"), ("hi\nthere", "U+000A"), ("hi\u202ereh", "U+202E"),
    ("hi\u2028", "U+2028")])
def test_an_intents_name_holds_no_control_character(tmp_path: Path, name: str,
                                                    char: str) -> None:
    lines = problems(tmp_path, plant({"p": {"type": "int"}}, intents={
        name: {"phrases": ["hello"], "action": "respond", "reply": "hi"}}))
    assert lines == [f"config error: intents: intent name {name!r} holds {char}, a control, "
                     "format or line-breaking character: words people read are shown as "
                     "written"], lines
    assert all(line.isprintable() for line in lines)  # nothing of the name acts on a terminal


def test_names_of_one_script_that_differ_are_two(tmp_path: Path) -> None:
    """Look-alike letters are only compared: a plant named in Cyrillic or Greek is taken."""
    loads(tmp_path, plant({
        "p1": {"type": "int", "name": "Насос 1", "map": {0: "Выкл", 1: "Вкл", 2: "Авто"}},
        "p2": {"type": "int", "name": "Насос 2", "aliases": ["Насос Н2"]},
        "p3": {"type": "int", "name": "Αντλία 1", "map": {0: "Ανοιχτό", 1: "Κλειστό"}},
        "p4": {"type": "int", "name": f"{SCOTLAND} line"},
        "p5": {"type": "int", "name": f"{WALES} line"}}))


@pytest.mark.parametrize("look_alike", ["\uff53\uff54\uff4f\uff50", "st\u200dop", "stop\u200d",
                                        "st\u043ep"])
def test_two_intents_whose_names_look_alike_are_an_error_naming_both(
        tmp_path: Path, look_alike: str) -> None:
    intent = {"phrases": ["hello"], "action": "respond", "reply": "hi"}
    lines = problems(tmp_path, plant({"p": {"type": "int"}}, intents={
        "stop": intent, look_alike: {**intent, "phrases": ["halt"]}}))
    assert lines == [f"config error: intents: intent name {look_alike!r} is intent 'stop' "
                     "written another way"], lines


def test_an_intents_name_with_the_joiners_writing_needs_is_a_name(tmp_path: Path) -> None:
    loads(tmp_path, plant({"p": {"type": "int"}}, intents={
        "سلام\u200cدوست": {"phrases": ["hello"], "action": "respond", "reply": "hi"}}))


@pytest.mark.parametrize(("url", "char"), [
    ("http://10.0.0.5/\x1b[2J", "U+001B"), ("http://10.0.0.5/\u200b", "U+200B"),
    ("http://10.0.0.5/\u202egnp.exe", "U+202E"), ("http://plc\u3164.local/", "U+3164"),
    ("http://10.0.0.5/\x7f", "U+007F"), ("http://10.0.0.5/a\u200db", "U+200D")])
def test_a_device_page_address_is_one_word(tmp_path: Path, url: str, char: str) -> None:
    data = plant({"p": {"type": "int"}})
    data["devices"]["d"]["configuration_url"] = url
    lines = problems(tmp_path, data)
    assert lines == [f"config error: devices.d.configuration_url: holds {char}: an address is "
                     "one word, with no space, control or format character"], lines


def test_a_device_page_address_may_name_a_host_in_any_script(tmp_path: Path) -> None:
    data = plant({"p": {"type": "int"}})
    data["devices"]["d"]["configuration_url"] = "http://bücher.example/ü?q=ä"
    loads(tmp_path, data)


def test_micro_and_milli_are_two_names(tmp_path: Path) -> None:
    """µ (the micro sign, μ in NFKC) looks like no m: "10 µm" and "10 mm" are two (atk29)."""
    loads(tmp_path, plant({"a": {"type": "int", "name": "Filter 10 µm pressure"},
                           "b": {"type": "int", "name": "Filter 10 mm pressure"}}))
