"""The plant lexicon: its shipped data validate, every form finds its concept, queries behave.

The shipped files are read twice: by the loader, and here by a plain split of their columns, so
that a form the loader mangled or dropped shows as a failure instead of vanishing.
"""

from __future__ import annotations

from collections.abc import Iterator
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hermesd.router.concepts import (
    KINDS,
    LexiconError,
    Match,
    concept,
    concepts_of_text,
    lexicon,
    load,
    unit_concepts,
)

MARKS = "~=#^"
PUNCTUATION = ".,;:!?()[] -'\"/"
DATA = resources.files("hermesd.router.lexicon")


def raw_forms() -> Iterator[tuple[str, str, str, bool]]:
    """(concept id, markers, form, Chinese) for every form of the shipped files."""
    for f in sorted(DATA.iterdir(), key=lambda f: f.name):
        if not f.name.endswith(".tsv"):
            continue
        for line in f.read_text(encoding="utf-8").splitlines():
            if not line.strip() or line.startswith("#"):
                continue
            ident, en, zh, _hant, _links = line.split("\t")
            for column, chinese in ((en, False), (zh, True)):
                for form in column.split("|"):
                    text = form.lstrip(MARKS)
                    yield ident, form[:len(form) - len(text)], text, chinese


FORMS = list(raw_forms())


def extent(text: str, start: int = 0) -> tuple[int, int]:
    """Where the words of `text` (placed at `start`) lie: punctuation around them is no part of
    a match ("d.o." is matched as "d.o")."""
    stripped = text.rstrip(PUNCTUATION)
    return start, start + len(stripped)


def ids(text: str) -> list[str]:
    return [m.concept.id for m in concepts_of_text(text)]


def found(text: str) -> list[tuple[str, str]]:
    return [(m.concept.id, text[m.start:m.end]) for m in concepts_of_text(text)]


# -- the shipped data ------------------------------------------------------------------------


def test_the_shipped_lexicon_loads_and_is_large() -> None:
    lx = lexicon()
    kinds = {c.kind for c in lx.concepts.values()}
    assert kinds == set(KINDS)
    assert len(lx.concepts) > 800
    assert sum(1 for f in FORMS if not f[3]) > 4000
    assert sum(1 for f in FORMS if f[3]) > 3000
    assert sum(1 for c in lx.concepts.values() if c.kind == "unit") > 100


def test_every_concept_has_english_and_chinese_labels_and_forms() -> None:
    """No exemptions: a concept without a Chinese form is a load error."""
    for c in lexicon().concepts.values():
        assert c.en and c.zh and c.zh_hant, c.id
        assert c.en_forms[0] == c.en and c.zh_forms[0] == c.zh, c.id


def test_the_loader_keeps_every_form_of_the_files() -> None:
    lx = lexicon()
    for ident, _marks, text, chinese in FORMS:
        c = lx.concept(ident)
        assert text in (c.zh_forms if chinese else c.en_forms), (ident, text)


def test_no_form_is_shadowed() -> None:
    """Every form, written alone (after a number where it must be), is found whole as its
    concept: none is lost to normalisation, to the plural rule, or to another form."""
    lost = []
    for ident, marks, text, _chinese in FORMS:
        prefix = "5 " if "#" in marks else ""
        whole = prefix + text
        if not any(m.concept.id == ident and m.span == extent(text, len(prefix))
                   for m in concepts_of_text(whole)):
            lost.append((ident, text, found(whole)))
    assert lost == []


def test_a_traditional_label_finds_its_concept() -> None:
    after_number = {ident for ident, marks, text, chinese in FORMS
                    if chinese and "#" in marks and text == concept(ident).zh}
    for c in lexicon().concepts.values():
        if c.zh_hant != c.zh:
            prefix = "5" if c.id in after_number else ""
            matches = concepts_of_text(prefix + c.zh_hant)
            assert any(m.concept is c and m.span == extent(c.zh_hant, len(prefix))
                       and m.traditional for m in matches), (c.id, c.zh_hant)


# -- matching --------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "want"), [
    ("clear well level", [("thing.clear_well", "clear well"), ("quantity.level", "level")]),
    ("state of charge", [("quantity.state_of_charge", "state of charge")]),
    ("feed water pump 2", [("thing.feed_pump", "feed water pump")]),
    ("feed water temperature", [("medium.feed_water", "feed water"),
                                ("quantity.temperature", "temperature")]),
    ("dissolved oxygen in the aeration tank", [("quantity.dissolved_oxygen", "dissolved oxygen"),
                                               ("thing.aeration_tank", "aeration tank")]),
])
def test_multi_word_forms_win_over_their_words(text: str, want: list[tuple[str, str]]) -> None:
    assert found(text) == want


@pytest.mark.parametrize(("text", "want"), [
    ("清水池液位", [("thing.clear_well", "清水池"), ("quantity.level", "液位")]),
    ("反冲洗风机", [("thing.backwash", "反冲洗"), ("thing.fan", "风机")]),
    ("3号发酵罐温度", [("thing.fermenter", "发酵罐"), ("quantity.temperature", "温度")]),
    ("荷电状态", [("quantity.state_of_charge", "荷电状态")]),
    ("锁模力", [("quantity.clamp_force", "锁模力")]),
    ("模温机", [("thing.mould_temperature_controller", "模温机")]),  # not 模温 + 机
    ("模温", [("quantity.mould_temperature", "模温")]),
    ("清 水 池", [("thing.clear_well", "清 水 池")]),  # spaces between characters are ignored
    ("ph值", [("quantity.ph", "ph值")]),
])
def test_chinese_is_matched_longest_first(text: str, want: list[tuple[str, str]]) -> None:
    assert found(text) == want


@pytest.mark.parametrize(("text", "want"), [
    # longest first would take 水电 (hydropower) and leave 导率 unexplained
    ("水电导率", [("medium.water", "水"), ("quantity.conductivity", "电导率")]),
    ("水电站出力", [("thing.hydro", "水电"), ("quantity.power", "出力")]),
])
def test_chinese_is_split_to_cover_the_most(text: str, want: list[tuple[str, str]]) -> None:
    assert found(text) == want


@pytest.mark.parametrize(("text", "want"), [
    ("2号精炼机温度", [("thing.conche", "精炼机"), ("quantity.temperature", "温度")]),
    ("unit 1 field current", [("thing.machine", "unit"),
                              ("quantity.excitation_current", "field current")]),
    ("励磁电流", [("quantity.excitation_current", "励磁电流")]),
    ("tail water level", [("thing.tailwater", "tail water"), ("quantity.level", "level")]),
    ("教学池余氯", [("thing.learner_pool", "教学池"), ("quantity.chlorine", "余氯")]),
    ("spa pool temperature", [("thing.spa_pool", "spa pool"),
                              ("quantity.temperature", "temperature")]),
    ("throat temperature", [("thing.furnace_throat", "throat"),
                            ("quantity.temperature", "temperature")]),
    ("2号料塔", [("thing.silo", "料塔")]),
    ("湿帘泵", [("thing.cooling_pad", "湿帘"), ("thing.pump", "泵")]),
    ("气候补偿", [("thing.weather_compensation", "气候补偿")]),
    ("3号缸温度", [("thing.dyeing_machine", "缸"), ("quantity.temperature", "温度")]),
    ("气缸压力", [("thing.actuator", "气缸"), ("quantity.pressure", "压力")]),  # no 缸 there
    ("hoist", [("thing.crane", "hoist"), ("thing.elevator", "hoist")]),
    ("混合汁锤度", [("thing.mixed_juice", "混合汁"), ("quantity.brix", "锤度")]),
    ("融雪池", [("thing.snow_melt_pit", "融雪池")]),
    ("oil pressure", [("quantity.oil_pressure", "oil pressure")]),
    ("how thick", [("quantity.thickness", "how thick"), ("quantity.viscosity", "how thick")]),
    # moisture: of the air (humidity) or of a sheet, grain or soil (水分, its content)
    ("reel moisture", [("thing.reel", "reel"), ("quantity.humidity", "moisture"),
                       ("quantity.moisture_content", "moisture")]),
])
def test_words_of_trades(text: str, want: list[tuple[str, str]]) -> None:
    assert found(text) == want


def test_traditional_characters_are_folded_and_marked() -> None:
    matches = concepts_of_text("發酵罐溫度")
    assert [(m.concept.id, m.span, m.traditional) for m in matches] == [
        ("thing.fermenter", (0, 3), True), ("quantity.temperature", (3, 5), True)]
    assert [m.traditional for m in concepts_of_text("发酵罐")] == [False]


@pytest.mark.parametrize(("text", "want"), [
    ("SET-POINT", ["role.setpoint"]),
    ("set point", ["role.setpoint"]),
    ("Setpoints", ["role.setpoint"]),
    ("PUMPS", ["thing.pump"]),
    ("batteries", ["thing.battery"]),
    ("CO₂", ["medium.co2_gas", "quantity.co2"]),  # NFKC: the subscript is a 2
    ("ｐＨ", ["quantity.ph", "unit.ph"]),  # full-width letters
    ("temp.", ["quantity.temperature"]),
    ("colour", ["quantity.colour"]),
    ("color", ["quantity.colour"]),
    ("mould", ["thing.mould"]),
    ("mold", ["thing.mould"]),
    ("totaliser", ["quantity.flow_total"]),
    ("totalizer", ["quantity.flow_total"]),
])
def test_english_is_matched_case_plural_and_punctuation_tolerant(text: str, want: list[str]) -> None:
    assert ids(text) == want


def test_exact_case_forms() -> None:
    assert ids("DO in basin 2") == ["quantity.dissolved_oxygen", "thing.reservoir"]
    assert "quantity.dissolved_oxygen" not in ids("what do you do")
    assert ids("5 K") == ["unit.kelvin"]
    assert ids("5 k") == []  # "5k" is five thousand, not five kelvin


def test_after_number_forms() -> None:
    assert ids("5 m") == ["unit.metre"]
    assert ids("5m") == ["unit.metre"]
    assert ids("m") == []
    assert ids("30度") == ["unit.degree"]
    assert ids("三十度") == ["unit.degree"]
    assert ids("温度") == ["quantity.temperature"]


def test_spans_point_into_the_text_as_written() -> None:
    text = "Supply temp 7 ℃, CO₂ ≤ 800 ppm"
    got = [(m.concept.id, text[m.start:m.end]) for m in concepts_of_text(text)]
    assert ("unit.degc", "℃") in got
    assert ("quantity.co2", "CO₂") in got
    assert ("unit.ppm", "ppm") in got


def test_a_span_of_several_kinds_gives_one_match_each() -> None:
    matches = concepts_of_text("chlorine")
    assert [m.concept.id for m in matches] == ["medium.chlorine_chem", "quantity.chlorine"]
    assert all(isinstance(m, Match) and m.form == "chlorine" and m.span == (0, 8) for m in matches)
    assert {m.kind for m in matches} == {"medium", "quantity"}


def test_nothing_in_plain_words() -> None:
    assert concepts_of_text("") == []
    assert concepts_of_text("hello there, nice weather") == []


# -- units and labels ------------------------------------------------------------------------


def quantities(unit: str) -> set[str]:
    return {c.id for c in unit_concepts(unit)}


def test_a_bare_percent_narrows_to_a_set() -> None:
    got = quantities("%")
    assert {"quantity.level", "quantity.position", "quantity.humidity",
            "quantity.state_of_charge", "quantity.speed"} <= got
    assert "quantity.temperature" not in got
    assert quantities("%RH") == {"quantity.humidity", "quantity.absolute_humidity",
                                 "quantity.moisture_content", "quantity.water_cut"}


@pytest.mark.parametrize(("unit", "member"), [
    ("°C", "quantity.temperature"), ("℃", "quantity.temperature"), ("degC", "quantity.temperature"),
    ("°C", "quantity.dew_point"),  # a narrower quantity of temperature
    ("m³/h", "quantity.flow"), ("m3/h", "quantity.flow"), ("NTU", "quantity.turbidity"),
    ("µS/cm", "quantity.conductivity"), ("uS/cm", "quantity.conductivity"),
    ("mg/L", "quantity.free_chlorine"), ("rpm", "quantity.speed"), ("r/min", "quantity.speed"),
    ("kWh", "quantity.energy"), ("kvar", "quantity.reactive_power"), ("bar(g)", "quantity.pressure"),
    ("W/m²", "quantity.irradiance"), ("°Bx", "quantity.brix"), ("°P", "quantity.gravity"),
    ("kWh (total)", "quantity.energy"), ("mV", "quantity.orp"), ("K", "quantity.temperature"),
])
def test_unit_spellings_name_their_quantities(unit: str, member: str) -> None:
    assert member in quantities(unit)


def test_unit_case_matters_where_the_data_say_so() -> None:
    assert quantities("k") == set()
    assert quantities("furlongs") == set()
    assert quantities("NTU") == {"quantity.turbidity"}


def test_a_shared_unit_spelling_names_both() -> None:
    assert {c.id for c in lexicon().units("公斤")} == {"unit.bar", "unit.kg"}


def test_concept_labels_for_replies() -> None:
    c = concept("thing.clear_well")
    assert (c.en, c.zh, c.kind) == ("clear well", "清水池", "thing")
    assert c.label("zh") == "清水池" and c.label("en") == "clear well"
    assert concept("quantity.temperature").label("zh-Hant") == "溫度"
    with pytest.raises(KeyError):
        concept("thing.warp_core")
    with pytest.raises(ValueError, match="no label"):
        c.label("fr")


# -- the property: a form in any text is found -----------------------------------------------

_PLAIN_EN = """alpha bravo quickly maybe really honestly yesterday morning kindly thanks hmm okay
    so well then please could would you tell me about regarding hey there friend boss team
    nice weather lovely""".split()
_PLAIN_ZH = "请帮我一下吧呢啊呀吗哦嗯麻烦谢你好的了这那"


def _filler() -> tuple[list[str], list[str]]:
    """Words and characters that are no part of any form, so they cannot extend a match."""
    words = lexicon().words()
    en = [w for w in _PLAIN_EN if w not in words and w.rstrip("s") not in words]
    zh = [c for c in _PLAIN_ZH if c not in words]
    assert len(en) > 10 and len(zh) > 5
    return en, zh


FILL_EN, FILL_ZH = _filler()


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(FORMS), st.data())
def test_a_form_in_filler_text_is_found(form: tuple[str, str, str, bool], data: st.DataObject) -> None:
    ident, marks, text, chinese = form
    fill = st.lists(st.sampled_from(FILL_ZH if chinese else FILL_EN), max_size=4)
    sep = "" if chinese else " "
    before = sep.join(data.draw(fill, label="before"))
    after = sep.join(data.draw(fill, label="after"))
    number = "12 " if "#" in marks else ""
    left = f"{before} {number}" if before else number
    whole = f"{left}{text} {after}" if after else f"{left}{text}"
    start = len(left)
    assert any(m.concept.id == ident and m.span == extent(text, start)
               for m in concepts_of_text(whole)), (whole, found(whole))


# -- validation ------------------------------------------------------------------------------

HEAD = "# a test lexicon\n"
T2S = "攝\t摄\n溫\t温\n"


def write(root: Path, files: dict[str, str]) -> Path:
    root.mkdir(exist_ok=True)
    (root / "t2s.txt").write_text(T2S, encoding="utf-8")
    for name, body in files.items():
        (root / name).write_text(HEAD + body, encoding="utf-8")
    return root


GOOD = {
    "quantity.tsv": "quantity.level\tlevel|lvl\t液位\t\t\n"
                    "quantity.temperature\ttemperature|temp|~reading\t温度|温\t溫度\t\n"
                    "quantity.weight\tweight|~reading\t重量\t\t\n",
    "unit.tsv": "unit.degc\t°C|#C\t摄氏度\t攝氏度\tquantity.temperature\n",
    "thing.tsv": "thing.tank\ttank|level\t罐\t\t\n",  # "level" is also a quantity: fine
}


def test_a_small_lexicon_loads(tmp_path: Path) -> None:
    lx = load(write(tmp_path / "lex", GOOD))
    assert [m.concept.id for m in lx.concepts_of_text("溫度 tank level")] == [
        "quantity.temperature", "thing.tank", "quantity.level", "thing.tank"]
    assert {c.id for c in lx.units("°C")} == {"unit.degc"}
    assert [c.id for c in lx.unit_concepts("°C")] == ["quantity.temperature"]
    assert sorted(m.concept.id for m in lx.concepts_of_text("reading")) == [
        "quantity.temperature", "quantity.weight"]


@pytest.mark.parametrize(("name", "body", "problem"), [
    ("quantity.tsv", "quantity.level\tlevel||lvl\t液位\t\t\n", "empty"),
    ("quantity.tsv", "quantity.level\tlevel\t\t\t\n", "no Chinese form"),
    ("quantity.tsv", "quantity.level\tlevel\tlevel\t\t\n", "no Chinese character"),
    ("quantity.tsv", "quantity.level\t液位\t液位\t\t\n", "belong in the zh column"),
    ("quantity.tsv", "quantity.level\tlevel\t液位\t\n", "5 TAB-separated columns"),
    ("quantity.tsv", "quantity.Level\tlevel\t液位\t\t\n", "is not 'quantity.<slug>'"),
    ("quantity.tsv", "thing.level\tlevel\t液位\t\t\n", "is not 'quantity.<slug>'"),
    ("quantity.tsv", "quantity.level\t3 way\t液位\t\t\n", "starts with a number"),
    ("quantity.tsv", "quantity.level\tlevel|levels\t液位\t\t\n", "are the same words"),
    ("quantity.tsv", "quantity.level\tlevel|temp\t液位\t\t\n"
                     "quantity.temperature\ttemperature|temp\t温度\t\t\n",
     "'temp' is a quantity form of quantity.level"),
    ("quantity.tsv", "quantity.level\tlevel|~lvl\t液位\t\t\n", "no other quantity has it"),
    ("quantity.tsv", "quantity.level\tlevel|=lvl\t液位\t\t\n", "without capitals"),
    ("quantity.tsv", "quantity.level\tlevel\t液位\t液位\t\n", "leave it empty"),
    ("quantity.tsv", "quantity.level\tlevel\t液位\t液體\t\n", "which is no zh form"),
    ("quantity.tsv", "quantity.level\tlevel\t液位\t\tquantity.nothing\n", "unknown quantity.nothing"),
    ("quantity.tsv", "quantity.level\tlevel\t液位\t\tthing.tank\n", "a quantity links quantity"),
    ("quantity.tsv", "quantity.level\tlevel\t液位\t\tquantity.weight\n"
                     "quantity.weight\tweight\t重量\t\tquantity.level\n", "lead back to it"),
    ("unit.tsv", "unit.degc\t°C\t摄氏度\t\t\n", "a unit links the quantities"),
    ("thing.tsv", "thing.tank\ttank\t罐\t\t\nthing.pump\tpump\t泵\t\t\n", "out of order"),
    ("widget.tsv", "widget.x\tx\t件\t\t\n", "unknown kind 'widget'"),
])
def test_bad_data_is_refused_naming_file_and_line(tmp_path: Path, name: str, body: str,
                                                   problem: str) -> None:
    files = {**GOOD, name: body}
    with pytest.raises(LexiconError) as caught:
        load(write(tmp_path / "lex", files))
    assert any(problem in p for p in caught.value.problems), caught.value.problems
    assert all(p.split(":")[0].endswith((".tsv", ".txt")) for p in caught.value.problems)


def test_every_problem_is_reported_at_once(tmp_path: Path) -> None:
    files = {"quantity.tsv": "quantity.a\t\t\t\t\nquantity.b\tb\t\t\tquantity.zzz\n"}
    with pytest.raises(LexiconError) as caught:
        load(write(tmp_path / "lex", files))
    assert len(caught.value.problems) >= 4
    assert "quantity.tsv:2" in str(caught.value) and "quantity.tsv:3" in str(caught.value)


def test_a_missing_fold_table_is_a_problem(tmp_path: Path) -> None:
    root = write(tmp_path / "lex", GOOD)
    (root / "t2s.txt").unlink()
    with pytest.raises(LexiconError, match=r"t2s\.txt: missing"):
        load(root)
