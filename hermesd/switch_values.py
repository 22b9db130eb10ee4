"""Action words written to an on/off point on the direct doors (`write`, MQTT `…/set`), read
as the router reads them (`policy.Policy.check_write` asks before `registry.coerce_value`)."""

from __future__ import annotations

import re
from typing import Any

from hermesd.config.model import Point
from hermesd.core.errors import ErrorCode, Rejected
from hermesd.router.rules import point_sense
from hermesd.router.switch_words import opens_unpowered

#: words of an action, not of on/off: what they mean depends on what the switch does
ACTION_WORDS = frozenset({"open", "start", "enable", "enabled", "high", "close", "closed",
                          "stop", "disable", "disabled", "low"})
_TRUE = frozenset({"open", "start", "enable", "enabled", "high"})


def action_word(point: Point, value: Any) -> Any:
    """The value, or for an action word to an on/off point, what it means for this switch."""
    if point.kind == "bool" and isinstance(value, str) and \
            value.strip().lower() in ACTION_WORDS:
        return action_value(point, value.strip().lower())
    return value


def action_value(point: Point, word: str) -> bool:
    """An action word written to an on/off point, read as the router reads it: of a switch
    named by what it does ("Valve 8 close solenoid", "Burner inhibit"), its own action is on
    and that action's opposites off, any other word refused ("open" of the close solenoid
    would switch it on and close the valve); open or close of a valve that opens unpowered
    refused too; of any other switch, as `registry.coerce_value` reads it."""
    unpowered = opens_unpowered(point) if word.startswith(("open", "clos")) else ""
    if unpowered:
        raise Rejected(f"{point.id} ({point.name}) opens unpowered ({unpowered}): {word!r} "
                       f"could be read backwards; write on or off", code=ErrorCode.OUT_OF_RANGE)
    sense = point_sense(point) if point.writable else None
    if sense is None:
        acting = _acts_in_chinese(point)
        if acting:
            # 8号阀关电磁阀, 5号断路器合闸, 1号炉禁止点火: what it does is in its Chinese name,
            # which no English action word can be checked against (atk21, ZHSW)
            raise Rejected(f"{point.id} ({point.name}) is named by what it does ({acting}): "
                           f"{word!r} could be read backwards; write on or off",
                           code=ErrorCode.OUT_OF_RANGE)
        return word in _TRUE
    if word == sense.word or word.removesuffix("d") == sense.word:
        return True
    if word in sense.opposites or word.removesuffix("d") in sense.opposites:
        return False
    raise Rejected(f"{point.id} ({point.name}) switches on to {sense.word}: {word!r} could be "
                   f"read backwards; write on or off", code=ErrorCode.OUT_OF_RANGE)


#: words of an action in a Chinese name (close, open, start, stop, make, break, inhibit, lock,
#: raise, lower, reverse, ignite), and 关/开 said of a valve or door; not 合 of 混合机 (a
#: mixer), 制 of 制冷机组 (a chiller), 提升 of 提升机 (an elevator)
_ZH_ACTION = re.compile(r"关闭|打开|开启|启动|起动|停止|停机|停车|合闸|分闸|断开|禁止|屏蔽|闭锁|"
                        r"锁定|解锁|上升|下降|反转|正转|点火|熄火|急停|复位|[关开](?=电磁阀|阀|门|$)")


def _acts_in_chinese(point: Point) -> str:
    """The Chinese name of a switch that says an action, if any ("" if none)."""
    return next((name for name in (point.name, *point.aliases, *point.names.values())
                 if _ZH_ACTION.search(name)), "")
