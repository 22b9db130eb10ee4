"""A setpoint named in Chinese by its reading: "甘油罐温度 SP" of "Glycerine tank temperature
setpoint", where only the "Glycerine tank temperature" beside it has a Chinese name (甘油罐温度).

A plant that names its readings in Chinese often leaves their setpoints in English only; a
command "把甘油罐温度设定为60度" names the setpoint by the reading's name. Such a setpoint is
given the reading's Chinese name and "SP" as one more alias, which the rules, the semantic
stage and the model's checks read ("SP", as the setpoints' English names write it: with 设定值
"setpoint" would become a word of names, no longer a role alone). Aliases are matched, never
answered with: a reply names the point by its own names, so no translation is put in its
mouth.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from hermesd.config.model import Point

#: the last words of an English name that make it the setpoint of what the rest names
_SETPOINT_ENDINGS = (("setpoint",), ("set", "point"), ("sp",), ("target",))


def kin_named(points: Iterable[Point]) -> tuple[list[Point], dict[str, str]]:
    """The points, each setpoint with no Chinese name named by its reading's, if it has one;
    and those setpoints' readings, by the setpoint's id."""
    points = list(points)
    readings = {tuple(p.name.casefold().split()): p for p in points
                if any(not n.isascii() for n in p.names.values())}
    out: list[Point] = []
    kin: dict[str, str] = {}
    for p in points:
        words = p.name.casefold().split()
        named = next((words[:-len(end)] for end in _SETPOINT_ENDINGS
                      if len(words) > len(end) + 1 and tuple(words[-len(end):]) == end), None)
        reading = readings.get(tuple(named)) if named else None
        if reading is None or any(not n.isascii() for n in p.names.values()):
            out.append(p)
            continue
        kin[p.id] = reading.id
        out.append(replace(p, aliases=(*p.aliases, *(f"{n} SP" for n in reading.names.values()
                                                     if not n.isascii()))))
    return out, kin
