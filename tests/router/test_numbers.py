"""The number reader: exactly one value where the words name one, unreadable everywhere else."""

from __future__ import annotations

import pytest

from hermesd.router.numbers import chinese, english, exact, literals


def read(text: str) -> list[tuple[str, object]]:
    return [(lit.raw, lit.value) for lit in literals(text)]


@pytest.mark.parametrize(("text", "want"), [
    ("1500", [("1500", 1500)]),
    ("to 24.5 m/min", [("24.5", 24.5)]),
    ("1,600,000", [("1,600,000", 1600000)]),
    ("1,600.5", [("1,600.5", 1600.5)]),
    ("to -25", [("-25", -25)]),
    ("to −25", [("−25", -25)]),  # the minus sign a word processor writes
    ("to ‐2", [("‐2", -2)]),  # the hyphen (U+2010) and non-breaking hyphen a word processor
    ("to ‑1.5", [("‑1.5", -1.5)]),  # writes are a minus before a number, never dropped
    (".5 bar", [(".5", 0.5)]),
    ("１５００", [("１５００", 1500)]),  # full-width, as Chinese input methods write digits
    ("boiler-3", [("3", 3)]),  # a hyphen in a name is no minus
    ("Boiler3", [("3", 3)]),
    ("0900", [("0900", 900)]),
    ("1500, 100", [("1500", 1500), ("100", 100)]),  # a list, not a group
    ("1500，2号", [("1500", 1500), ("2", 2)]),  # the Chinese comma never groups digits
])
def test_numbers_written_with_digits(text: str, want: list[tuple[str, object]]) -> None:
    assert read(text) == want


@pytest.mark.parametrize(("text", "groups", "value"), [
    ("to 1 600", ("1", "600"), 1600),
    ("to 1 600 000", ("1", "600", "000"), 1600000),
    ("to 12 345.5", ("12", "345.5"), 12345.5),
    ("to 1\u202f600", ("1", "600"), 1600),  # a narrow no-break space, as typographers group
])
def test_digit_groups_written_apart_keep_their_groups(text: str, groups: tuple[str, ...],
                                                     value: int) -> None:
    (lit,) = literals(text)
    assert lit.groups == groups and lit.value == value


@pytest.mark.parametrize("text", [
    "to 1 60",  # not a group of three
    "to 1234 567",  # a first group of four
    "to 1  600",  # two spaces
    "to 1.5 600",  # a decimal before a group
])
def test_what_is_not_a_digit_group_stays_apart(text: str) -> None:
    assert len(literals(text)) == 2


@pytest.mark.parametrize("raw", [
    "1e4", "2.5E3", "1e-2", "0x5DD", "0b101", "0o17", "1_000", "1'000", "1,60", "1,6000",
    "1.2.3", "5-6", "2024-05-01", "10:30", "1/2", "10k", "-0", "-0.0", "-00", "--5", "+5",
    "+-5", "±5", "<5", "5-", "5+", "١٢", "۱۲", "१२", "²", "₃", "①", "❶", "Ⅻ", "½", "𝟏𝟐",
    "0.30000000000000001", "1²", "1\u200b500", "15\u00ad00", "1\ufeff5",
])
def test_what_is_no_number_a_person_means_is_unreadable_as_written(raw: str) -> None:
    found = literals(f"set it to {raw} now")
    assert [(lit.raw, lit.value) for lit in found] == [(raw, None)], found
    assert found[0].why


def test_a_sign_with_a_space_after_it_is_unreadable() -> None:
    assert read("to - 5") == [("- 5", None)]


@pytest.mark.parametrize(("words", "want"), [
    (["zero"], 0),
    (["nine", "hundred", "and", "fifty"], 950),
    (["five", "hundred", "and", "fifty"], 550),
    (["seventy", "two", "and", "a", "half"], 72.5),
    (["one", "and", "a", "half"], 1.5),
    (["fifteen", "hundred"], 1500),
    (["twenty", "five", "hundred"], 2500),
    (["one", "thousand", "two", "hundred"], 1200),
    (["one", "thousand", "and", "five"], 1005),
    (["a", "hundred", "and", "fifty"], 150),
    (["a", "thousand"], 1000),
    (["two", "point", "five"], 2.5),
    (["one", "point", "two", "five"], 1.25),
    (["point", "five"], 0.5),
    (["one", "million", "two", "hundred", "thousand"], 1_200_000),
    ([15, "hundred"], 1500),
    (["eighteen", "seventy"], 1870),  # a teen and tens read out, as a digit and tens are
    (["eleven", "sixty", "five"], 1165),
    ([2.5, "million"], 2_500_000),
    ([1.5, "thousand"], 1500),
])
def test_english_number_words(words: list[str | int | float], want: float) -> None:
    assert english(words) == want


@pytest.mark.parametrize("words", [
    ["five", "five"], ["twenty", "thirty"], ["one", "two", "three"], ["hundred"],
    ["thousand"], ["hundred", "hundred"], ["one", "thousand", "one", "thousand"],
    ["two", "point", "fifteen"], ["zero", "five"], ["fifteen", "twelve"], ["eighteen", "five"],
    ["twelve", "thirty"], ["ten", "fifty"],  # times of day, perhaps
    ["a", "half"], ["thousand", "million"],
    ["one", "thousand", "two", "million"], [5],
    # 1002 as written, 1200 as often meant: "one thousand and two" or "... two hundred" says which
    ["one", "thousand", "two"], ["a", "thousand", "five"],
])
def test_ill_formed_number_words_are_no_number(words: list[str | int]) -> None:
    assert english(words) is None


@pytest.mark.parametrize(("numeral", "want"), [
    ("零", 0), ("五", 5), ("十", 10), ("十五", 15), ("一十五", 15), ("二十", 20), ("九百", 900),
    ("一百零五", 105), ("一百一十", 110), ("一千五", 1500), ("一千五百", 1500),
    ("一千零五十", 1050), ("两千五百", 2500), ("两万", 20000), ("两万三", 23000),
    ("一万二千", 12000), ("一万零五", 10005), ("一万零五百", 10500), ("十二万", 120000),
    ("一亿五", 150_000_000), ("三点五", 3.5), ("零点五", 0.5), ("一五零零", 1500),
    ("幺五零零", 1500), ("两", 2),
])
def test_chinese_numerals(numeral: str, want: float) -> None:
    assert chinese(numeral) == want


@pytest.mark.parametrize("numeral", [
    "三四百",  # "three or four hundred"
    "一千一千", "五百零", "一千五十", "一万二百", "两十", "一百两", "万", "点五", "三点", "三点十",
    "两五", "零零五十",
])
def test_ill_formed_chinese_numerals_are_no_number(numeral: str) -> None:
    assert chinese(numeral) is None


def test_a_decimal_is_exact_or_nothing() -> None:
    assert exact("30.00000000001") == 30.00000000001
    assert exact("1500.0") == 1500 and isinstance(exact("1500.0"), int)
    assert exact("0.30000000000000001") is None  # a float cannot carry it: not some other value
    assert exact("9" * 18) == int("9" * 18)
    assert exact("9" * 19) is None  # past any register: no value anyone means
    assert exact("18446744073709551616") is None and exact("0" * 30 + "5") == 5


@pytest.mark.parametrize("text", ["1.000", "2.500", "999.125", "1.500 bar"])
def test_a_point_that_may_group_thousands_is_unreadable(text: str) -> None:
    (lit,) = literals(text)
    assert lit.value is None and "thousands" in lit.why


@pytest.mark.parametrize(("text", "value"), [("0.125", 0.125), ("1.5", 1.5), ("1.25", 1.25),
                                             ("1000.000", 1000), ("12.3456", 12.3456)])
def test_other_decimals_are_read(text: str, value: float) -> None:
    (lit,) = literals(text)
    assert lit.value == value
