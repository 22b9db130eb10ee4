"""Which machines are parts of which units: a chiller's condenser water pump, a boiler's feed
pump. Whether a part runs says nothing of its unit, so a read of the part is no answer to a
question of the unit (`part_read`), as on/off of the unit switches no part (`switch_words`)."""

from __future__ import annotations

from hermesd.config.model import Point
from hermesd.router.coverage import FAULT_STATES
from hermesd.router.normalize import Token, tokens
from hermesd.router.profiles import Profiles, stems_match

#: units that run themselves, whose machines are parts of them ("Chiller 1 condenser water
#: pump")
RUNNING_UNITS = frozenset(f"thing.{m}" for m in """
    turbine engine boiler furnace crusher crane compressor grinding_mill generator chiller
""".split())
#: the machines of a unit, switched on and off themselves (not what drives the unit, its motor
#: or drive: "Chiller 1 motor" runs as the chiller does)
PARTS = frozenset(f"thing.{m}" for m in """
    pump fan valve brake heater damper mixer spray light alarm_device lock conveyor
""".split())


def part_read(text: str, toks: list[Token], point: Point,
              profiles: Profiles) -> tuple[str, ...]:
    """The machine of a unit a read of an on/off point leaves unsaid, where the words name the
    unit: "is chiller 1 running" asks of no "Chiller 1 condenser water pump" (review atk46b),
    whether that pump runs says nothing of the chiller. Only a unit that runs itself (a chiller,
    a boiler, a turbine) and a machine of its own (a pump, a fan, a valve) count: "are the dust
    sprays on" of a "Dust suppression spray pump" asks what the pump tells, and a fault or alarm
    point is its unit's as much ("any trip on chiller 1" of a "Chiller 1 compressor trip")."""
    if point.kind != "bool" or profiles.by_id[point.id].concepts & FAULT_STATES:
        return ()
    lexicon = profiles.lexicon
    heard = {t.text for t in toks} | {t.raw for t in toks}
    meant = {s.concept for found in lexicon.senses(text, toks) for s in found}

    def kinds(word: str) -> frozenset[str]:
        return lexicon.broader(s.concept for s in lexicon.concepts(word) if s.kind == "thing")

    def said(word: str) -> bool:  # (in words, in a form of them or in meaning)
        return word in heard or any(stems_match(word, w) for w in heard) or \
            bool({s.concept for s in lexicon.concepts(word)} & meant)

    found: tuple[str, ...] = ()
    for label in dict.fromkeys((profiles.spoken(point), *point.aliases)):  # (a tag's words)
        words = [t.raw for t in tokens(label) if not t.is_number]
        units = [i for i, w in enumerate(words) if kinds(w) & RUNNING_UNITS and said(w)]
        if not units:
            continue  # (a name that says no unit said, "CWP 2": the part's own)
        unit = words[units[0]]
        rest = words[units[0] + 1:]
        parts = [k for k, w in enumerate(rest) if kinds(w) & PARTS and not kinds(w) & kinds(unit)]
        if not parts:
            return ()  # a name said in full: the unit's own switch or state
        if any(said(w) for w in rest[:parts[-1] + 1]):
            return ()  # the part said by its own words: "is boiler 6 FD running" of its
            # "FD fan", "is boiler 1 blowdown open" of its blowdown valve (review atk47)
        found = found or (rest[parts[-1]],)
    return found
