"""What a point is besides the measure its words name: a rate of change of it ("Oven 1 heating
rate setpoint" in °C/min), an alarm, limit or deviation on it, or a difference of it ("Pump 3
differential pressure setpoint"). A write or a read of a setting that says the measure alone is
no write or read of such a point (reviews atk67b and atk69); the write gate asks it of every
write, the rules and the model check of a setting asked.
"""

from __future__ import annotations

from hermesd.config.model import Point
from hermesd.router.concepts import lexicon
from hermesd.router.doubts import Doubt
from hermesd.router.normalize import Token, unit_symbol
from hermesd.router.profiles import Profiles

#: the times a rate is per, as written after its "/" (in Chinese too: "升/秒", "转/分")
_PER = {"s": "s", "sec": "s", "second": "s", "min": "min", "minute": "min", "h": "h", "hr": "h",
        "hour": "h", "d": "d", "day": "d", "秒": "s", "秒钟": "s", "分": "min", "分钟": "min",
        "时": "h", "小时": "h", "天": "d", "日": "d"}


def time_of(word: str) -> str | None:
    """The time a word of one is ("min", "minutes", "hrs", "分钟"), None if none."""
    folded = word.strip().casefold()
    return _PER.get(folded) or _PER.get(folded.removesuffix("s")) if folded else None


#: units of a measure that does not flow: per a time, a rate of change of it ("°C/min")
_STILL = frozenset("°c °f k bar mbar kpa pa mpa psi rpm % hz kw mw v a".split())
#: words that say a rate of change is meant
_CHANGE_WORDS = frozenset("rate ramp ramping slope gradient per every each accel acceleration "
                          "decel deceleration heating cooling heat-up cool-down".split())
_CHANGE_ZH = ("速率", "斜率", "变化率", "每", "/", "升温", "降温", "加速", "减速", "爬坡")


def another_value_unsaid(text: str, toks: list[Token], point: Point,
                         profiles: Profiles | None) -> tuple[str, ...]:
    """The words of what the point is not, where it is a rate of change, an alarm, a limit,
    a deviation or a difference of what the words say (empty: none). A read of a setting
    asks so too: 3号冷库温度设定为多少 of the store's high limit (review atk69)."""
    doubt = a_change_unsaid(text, toks, point) or role_unsaid(text, point, profiles)
    return doubt.words if doubt is not None else ()


def a_change_unsaid(text: str, toks: list[Token], point: Point) -> Doubt | None:
    """ "set oven 1 temperature setpoint to 5" of an "Oven 1 heating rate setpoint" in °C/min:
    a point that is a rate of change of a measure, where the words say the measure and no
    time nor rate (review atk67b: the rules wrote it, its unit explaining "temperature")."""
    unit = (point.unit or "").strip()
    under, _, per = unit.rpartition("/")
    if not under or time_of(per) is None or \
            (unit_symbol(under) or under.casefold()) not in _STILL:
        return None
    folded = text.casefold()
    if any(t.raw in _CHANGE_WORDS or time_of(t.raw) for t in toks) or \
            any(w in folded for w in _CHANGE_ZH):
        return None
    return Doubt("unit", (unit,))


#: roles a name says that make its value another than the measure's own: an alarm or limit
#: on it, its deviation ("set room 4 temperature to 25" is no "Room 4 temperature high alarm")
_NAMED_ROLES = frozenset(("role.limit_high", "role.limit_low", "role.deviation", "state.alarm"))


#: quantities that are a difference of a broader one, whose value is no value of it
_DIFFERENCES = frozenset(("quantity.differential_pressure", "quantity.temperature_difference"))


def role_unsaid(text: str, point: Point, profiles: Profiles | None) -> Doubt | None:
    """An alarm, limit or deviation the point's names say and the words do not; or a narrower
    quantity ("set pump 3 pressure to 50" of its differential pressure setpoint, "mould 8
    temperature" of a temperature difference: review atk67b)."""
    found = [(m.concept.id, label[m.start:m.end]) for label in (point.name, *point.aliases)
             for m in lexicon().concepts_of_text(label)]
    in_text = lexicon().concepts_of_text(text)
    said = {m.concept.id for m in in_text}
    # (a quantity said in a narrower one: the temperature of 模具温度, a mould temperature; the
    # differential pressure of a "room dP")
    broader = profiles.lexicon.broader(said) if profiles is not None else frozenset(said)
    unsaid = [word for concept, word in found if concept not in broader and (
        concept in _NAMED_ROLES or (concept in _DIFFERENCES and profiles is not None
                                    and profiles.lexicon.broader((concept,)) - {concept}
                                    & broader))]
    # (a narrower difference is one too: the "room differential pressure" of a cleanroom)
    named = {concept for concept, _ in found}
    named |= profiles.lexicon.broader(named) if profiles is not None else set()
    unsaid += [text[m.start:m.end] for m in in_text
               if m.concept.id in _DIFFERENCES and m.concept.id not in named]  # ("kiln 1
    # differential pressure setpoint" of the "Kiln 1 pressure setpoint")
    return Doubt("other_thing", tuple(dict.fromkeys(unsaid))) if unsaid else None
